#include "gpumesh/NeighborDistance.h"

#include "gpumesh/RepeatedPoints.h"

#include <limits>

namespace gpumesh
{

DeviceBuffer<cl_float4> computeCentroids(DeviceRun& run, const DeviceMesh& mesh)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  DeviceBuffer<cl_float4> centroids = run.allocate<cl_float4>(cells, "centroids");
  const float nan = std::numeric_limits<float>::quiet_NaN();
  run.fill(centroids, cl_float4{ { nan, nan, nan, nan } }, "centroids");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    const auto count = static_cast<cl_int>(group.count);
    const int vertices = fixedVertexCount(group.kind);
    if (vertices > 0)
    {
      cl::Kernel kernel = run.kernel("neighbor_distance", "centroid_fixed");
      run.setArguments(kernel, mesh.points(), group.connectivity, static_cast<cl_int>(vertices),
        group.cellIds, count, centroids);
      run.launch(kernel, group.count, "centroids");
    }
    else
    {
      cl::Kernel kernel = run.kernel("neighbor_distance", "centroid_variable");
      run.setArguments(kernel, mesh.points(), group.offsets, group.connectivity, group.cellIds,
        count, centroids);
      run.launch(kernel, group.count, "centroids");
    }
  }
  return centroids;
}

NeighborDistances computeNeighborDistances(DeviceRun& run, const DeviceMesh& mesh,
  const CellEntities& sides, const DeviceBuffer<cl_float4>& centroids)
{
  if (sides.type() != EntityType::Sides)
  {
    throw Error("neighbour distances need the cells' sides, not their edges");
  }
  // A cell (5, 5, 7) would count its neighbour across (5, 7) twice, and be counted twice by it.
  rejectRepeatedPoints(run, mesh, "neighbour distance");
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  NeighborDistances result{ run.allocate<float>(cells, "minimum neighbour distance"),
    run.allocate<float>(cells, "maximum neighbour distance"),
    run.allocate<float>(cells, "mean neighbour distance"),
    run.allocate<cl_int>(cells, "neighbour count") };
  cl::Kernel kernel = run.kernel("neighbor_distance", "neighbor_distance");
  run.setArguments(kernel, centroids, static_cast<cl_int>(cells), sides.slotOffsets(),
    sides.slotRun(), sides.sortedSlots(), sides.slotCell(), result.minimum, result.maximum,
    result.mean, result.count);
  run.launch(kernel, cells, "neighbour distance");
  return result;
}

} // namespace gpumesh
