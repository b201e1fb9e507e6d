// The edges on a mesh's boundary, where the cuts between the pieces of a distributed mesh run.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <vector>

namespace gpumesh
{

/// Every slot of every boundary edge of a mesh of triangles or of tetrahedra, found on the
/// device. A boundary edge is an edge used by one triangle, or an edge of a face used by one
/// tetrahedron. Slots are numbered as the refinement numbers them: 3 * triangle + local edge
/// (0-1, 1-2, 2-0), or 6 * tetrahedron + local edge in VTK's order (0-1, 1-2, 2-0, 0-3, 1-3,
/// 2-3). For triangles an empty mesh or one of other cells gives no slots.
struct BoundaryEdgeSlots
{
  std::vector<cl_int> slots;
  std::vector<cl_int2> ends; ///< per slot: the edge's end points, smaller id first
};

/// Throws gpumesh::Error unless the mesh holds only triangles or only tetrahedra.
BoundaryEdgeSlots boundaryEdgeSlots(DeviceRun& run, const DeviceMesh& mesh);

/// What boundaryEdgeSlots gives for the boundary edges whose two ends are both among `points`
/// (point ids of `mesh`, any order, repeats allowed; e.g. the points a piece shares with its
/// neighbours, where every cut edge lies), without matching the whole mesh: every cell holding
/// such an edge, or a face with such an edge, holds two of `points`, so the cells that do
/// decide alone. One pass on the device finds them; they are matched on the host, sorted. When
/// more than `hostFraction` of the cells hold two of `points` (a partition whose pieces
/// interleave), the device's full matching (boundaryEdgeSlots) serves instead. Same errors, and
/// an error naming a point outside the mesh.
BoundaryEdgeSlots boundaryEdgeSlotsAmong(
  DeviceRun& run, const DeviceMesh& mesh, const std::vector<cl_int>& points, double hostFraction = 1.0 / 16);

} // namespace gpumesh
