// The boundary faces of a mesh's volume cells: the faces one cell uses.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/runtime/HostMemory.h"

#include <cstdint>
#include <vector>

namespace gpumesh
{

/// The faces of 3D cells that no other 3D cell has (their side's run has one slot,
/// CellEntities with EntityType::Sides), as vtkDataSetSurfaceFilter keeps them from linear
/// cells: each with the vertices of its cell's face in the cell's own order (VTK's, outward for a
/// cell that is not inverted). Faces are listed by cell, in the mesh's group order (CellKind order),
/// each group's cells in order, a cell's faces in its local order. A triangle face never matches
/// a quadrilateral one, and a face matches only faces of 3D cells: 2D cells of the mesh are not
/// part of the matching.
struct BoundaryFaces
{
  /// Per face: the mesh cell id of its cell (cellIds of its group).
  HostVector<cl_int> cells;
  /// Per face: its vertex ids, -1 in the fourth for a triangle.
  HostVector<cl_int4> vertices;
};

/// The boundary faces of the cells of `mesh` below `cellLimit` (all cells when negative): the
/// faces are matched among all the mesh's 3D cells, so a face of a kept cell shared with a cell
/// beyond the limit (a ghost) is not boundary. Cells of 2 dimensions or fewer are ignored (build
/// `mesh` with minimumDimension 3 to leave them out of the upload too).
BoundaryFaces extractBoundaryFaces(DeviceRun& run, const DeviceMesh& mesh, std::int64_t cellLimit = -1);

} // namespace gpumesh
