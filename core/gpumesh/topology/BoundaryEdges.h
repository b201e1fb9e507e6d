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

} // namespace gpumesh
