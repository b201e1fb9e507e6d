// Cell centroids and centroid-to-centroid distances across the sides of each cell.
#pragma once
#include "gpumesh/CellEntities.h"

namespace gpumesh
{

/// The mean of each cell's vertices, relative to the mesh origin; NaN for cells outside the
/// mesh's groups (vertices).
DeviceBuffer<cl_float4> computeCentroids(DeviceRun& run, const DeviceMesh& mesh);

/// Per cell: the smallest, largest and mean distance from its centroid to the centroids of its
/// neighbours (NaN without neighbours) and their number. A neighbour sharing several sides
/// counts once per side; on a non-manifold side every other cell of the side counts.
struct NeighborDistances
{
  DeviceBuffer<float> minimum;
  DeviceBuffer<float> maximum;
  DeviceBuffer<float> mean;
  DeviceBuffer<cl_int> count;
};

/// `sides` must have been built with EntityType::Sides on `mesh`. A 2D or 3D cell that lists a
/// point more than once (a triangle (5, 5, 7)) is an error naming it and the point
/// (rejectRepeatedPoints): its sides collapse or coincide, so its neighbours are not defined.
NeighborDistances computeNeighborDistances(DeviceRun& run, const DeviceMesh& mesh,
  const CellEntities& sides, const DeviceBuffer<cl_float4>& centroids);

} // namespace gpumesh
