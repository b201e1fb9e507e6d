// Cell centroids and centroid-to-centroid distances across the sides of each cell.
#pragma once
#include "gpumesh/CellEntities.h"

namespace gpumesh
{

/// The mean of each cell's vertices, kept as the cell's first point (its anchor) plus an offset
/// from it, so that distances between nearby centroids come from exact differences.
struct Centroids
{
  DeviceBuffer<cl_int> anchors; ///< per cell; -1 for cells outside the mesh's groups (vertices)
  RealBuffer offsets;           ///< 4 REALs per cell (x, y, z, 0)
};

Centroids computeCentroids(DeviceRun& run, const DeviceMesh& mesh);

/// The centroids as 3 REALs per cell, relative to mesh.origin(); NaN where there is none.
RealBuffer centroidCoordinates(DeviceRun& run, const DeviceMesh& mesh, const Centroids& centroids);

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
