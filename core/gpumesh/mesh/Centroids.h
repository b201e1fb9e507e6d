// Cell centroids (the mean of each cell's vertices), computed on the device.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

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

} // namespace gpumesh
