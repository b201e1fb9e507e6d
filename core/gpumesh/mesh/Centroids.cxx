#include "gpumesh/mesh/Centroids.h"

#include <limits>

namespace gpumesh
{

Centroids computeCentroids(DeviceRun& run, const DeviceMesh& mesh)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  Centroids centroids{ run.allocate<cl_int>(cells, "centroid anchors"), run.allocateReal(4 * cells, "centroids") };
  run.fill(centroids.anchors, cl_int(-1), "centroid anchors");
  run.fillReal(centroids.offsets, std::numeric_limits<double>::quiet_NaN(), "centroids");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    run.call({ "centroids", "centroid" }, group.count, "centroids", CellArgs{ group }, mesh.points(),
      centroids.anchors, centroids.offsets);
  }
  return centroids;
}

RealBuffer centroidCoordinates(DeviceRun& run, const DeviceMesh& mesh, const Centroids& centroids)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  RealBuffer xyz = run.allocateReal(3 * cells, "centroid coordinates");
  run.call({ "centroids", "centroid_coordinates" }, cells, "centroid coordinates", mesh.points(),
    centroids.anchors, centroids.offsets, static_cast<cl_int>(cells), xyz);
  return xyz;
}

} // namespace gpumesh
