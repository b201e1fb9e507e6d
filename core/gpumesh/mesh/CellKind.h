// The cell kinds the core handles, independent of any VTK numbering. 0D cells (vertices) carry
// no measure and take part in no algorithm: adapters leave them out.
#pragma once

namespace gpumesh
{

enum class CellKind : int
{
  Line,
  PolyLine,
  Triangle,
  TriangleStrip,
  Quad,
  Polygon,
  Tetra,
  Hexahedron,
  Wedge,
  Pyramid
};
constexpr int cellKindCount = 10;

/// Vertices of a cell of a fixed-size kind; -1 for kinds of variable size (PolyLine,
/// TriangleStrip, Polygon).
int fixedVertexCount(CellKind kind);
/// Smallest number of vertices of a valid cell of the kind.
int minimumVertexCount(CellKind kind);
/// 1 for lines, 2 for surface cells, 3 for volume cells.
int cellDimension(CellKind kind);
const char* cellKindName(CellKind kind);

} // namespace gpumesh
