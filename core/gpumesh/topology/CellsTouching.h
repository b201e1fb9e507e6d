// The cells around a few points of a mesh, found on the device: under MPI, the cells of a piece
// that touch the points it shares with its neighbours (the ghost cells it sends them).
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace gpumesh
{

/// The ids of the cells of `mesh` holding at least one of `points` (point ids of `mesh`, any
/// order, repeats allowed), ascending: one pass over the cells on the device (flags, their
/// prefix sums and a gather, per group), and only the cells found come back. Nothing
/// (std::nullopt) when the mesh left cells out of its groups (vertices, or kinds below its
/// minimum dimension: DeviceMesh), which the device cannot see.
/// Throws gpumesh::Error naming a point outside the mesh.
std::optional<std::vector<std::int64_t>> cellsTouchingPoints(
  DeviceRun& run, const DeviceMesh& mesh, const std::vector<cl_int>& points);

} // namespace gpumesh
