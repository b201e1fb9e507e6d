// Centroid-to-centroid distances across the sides of each cell.
#pragma once
#include "gpumesh/mesh/Centroids.h"
#include "gpumesh/topology/CellEntities.h"

namespace gpumesh
{

/// Per cell: the smallest, largest and mean distance from its centroid to the centroids of its
/// neighbours (NaN without neighbours) and their number. A neighbour sharing several sides
/// counts once per side; on a non-manifold side every other cell of the side counts.
struct NeighborDistances
{
  RealBuffer minimum;
  RealBuffer maximum;
  RealBuffer mean;
  DeviceBuffer<cl_int> count;
};

/// `sides` must have been built with EntityType::Sides on `mesh`. A 2D or 3D cell that lists a
/// point more than once (a triangle (5, 5, 7)) is an error naming it and the point
/// (rejectRepeatedPoints): its sides collapse or coincide, so its neighbours are not defined.
NeighborDistances computeNeighborDistances(DeviceRun& run, const DeviceMesh& mesh,
  const CellEntities& sides, const Centroids& centroids);

} // namespace gpumesh
