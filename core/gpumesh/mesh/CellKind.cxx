#include "gpumesh/mesh/CellKind.h"

namespace gpumesh
{

int fixedVertexCount(CellKind kind)
{
  switch (kind)
  {
    case CellKind::Line:
      return 2;
    case CellKind::Triangle:
      return 3;
    case CellKind::Quad:
    case CellKind::Tetra:
      return 4;
    case CellKind::Pyramid:
      return 5;
    case CellKind::Wedge:
      return 6;
    case CellKind::Hexahedron:
      return 8;
    default:
      return -1;
  }
}

int minimumVertexCount(CellKind kind)
{
  switch (kind)
  {
    case CellKind::PolyLine:
      return 2;
    case CellKind::TriangleStrip:
    case CellKind::Polygon:
      return 3;
    default:
      return fixedVertexCount(kind);
  }
}

int cellDimension(CellKind kind)
{
  switch (kind)
  {
    case CellKind::Line:
    case CellKind::PolyLine:
      return 1;
    case CellKind::Triangle:
    case CellKind::TriangleStrip:
    case CellKind::Quad:
    case CellKind::Polygon:
      return 2;
    default:
      return 3;
  }
}

const char* cellKindName(CellKind kind)
{
  static const char* names[cellKindCount] = { "line", "polyline", "triangle",
    "triangle strip", "quad", "polygon", "tetrahedron", "hexahedron", "wedge", "pyramid" };
  return names[static_cast<int>(kind)];
}

} // namespace gpumesh
