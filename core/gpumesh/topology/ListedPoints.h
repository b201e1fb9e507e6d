// A few points of a mesh, listed (sorted, each once, checked) and flagged as bits on the device:
// where the cells around a piece's interface are looked for (CellsTouching.h, BoundaryEdges.h).
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <string>
#include <vector>

namespace gpumesh
{

/// `points` (point ids of `mesh`, any order, repeats allowed) sorted, each once. Throws
/// gpumesh::Error, `what` (the caller's name for the work) first, naming a point outside the
/// mesh's points.
std::vector<cl_int> listedPoints(const DeviceMesh& mesh, const std::vector<cl_int>& points, const std::string& what);

/// One bit per point of `mesh` on the device, set for the `listed` ones
/// (kernels/topology/listed_points.cl, through `program`, one that includes it).
DeviceBuffer<cl_uint> listedPointBits(
  DeviceRun& run, const DeviceMesh& mesh, const std::vector<cl_int>& listed, const char* program);

} // namespace gpumesh
