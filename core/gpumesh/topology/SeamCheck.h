// Unmerged duplicate points along a seam, found on the device and named in an error.
#pragma once
#include "gpumesh/topology/CellEntities.h"

#include <vector>

namespace gpumesh
{

/// Throws Error naming two distinct points that coincide on the boundary of `mesh` (the points
/// of its sides used by one cell: `sides` must be its EntityType::Sides): unmerged duplicates
/// that cut the mesh along a seam, which refinement would otherwise treat as boundary. Only the
/// boundary points' coordinates come back to the host.
void rejectSeams(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& sides);

/// The same for a list of boundary points found otherwise (repeats allowed).
void rejectSeams(DeviceRun& run, const DeviceMesh& mesh, std::vector<cl_int> boundaryPoints);

} // namespace gpumesh
