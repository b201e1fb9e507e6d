#include "gpumesh/topology/SeamCheck.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

namespace gpumesh
{

namespace
{
// The distinct points of the boundary sides, in increasing order.
std::vector<cl_int> boundaryPoints(DeviceRun& run, const CellEntities& sides)
{
  const auto slots = static_cast<cl_int>(sides.slotCount());
  std::size_t capacity = 4096;
  std::vector<cl_int> list;
  for (int attempt = 0; attempt < 2; ++attempt)
  {
    auto deviceList = run.allocate<cl_int>(capacity, "boundary points");
    auto size = run.allocate<cl_int>(1, "boundary point count");
    run.fill(size, cl_int(0), "boundary point count");
    run.call({ "seams", "boundary_points" }, sides.slotCount(), "boundary points", sides.slotRun(),
      sides.slotEntity(), sides.entityVertices(), slots, static_cast<cl_int>(capacity), deviceList, size);
    cl_int found = 0;
    run.download(size, &found, 1, "boundary point count");
    if (static_cast<std::size_t>(found) <= capacity)
    {
      list.resize(static_cast<std::size_t>(found));
      run.download(deviceList, list.data(), list.size(), "boundary points");
      break;
    }
    capacity = static_cast<std::size_t>(found);
  }
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  return list;
}
} // namespace

void rejectSeams(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& sides)
{
  rejectSeams(run, mesh, boundaryPoints(run, sides));
}

void rejectSeams(DeviceRun& run, const DeviceMesh& mesh, std::vector<cl_int> list)
{
  std::sort(list.begin(), list.end());
  list.erase(std::unique(list.begin(), list.end()), list.end());
  if (list.size() < 2)
  {
    return;
  }
  auto ids = run.upload(list.data(), list.size(), "boundary points");
  auto gathered = run.allocateReal(3 * list.size(), "boundary coordinates");
  run.call({ "seams", "gather_points" }, list.size(), "gather points", mesh.points(), ids,
    static_cast<cl_int>(list.size()), gathered);
  std::vector<double> xyz(3 * list.size());
  run.download(gathered, xyz.data(), xyz.size(), "boundary coordinates");
  std::vector<std::size_t> order(list.size());
  for (std::size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  const auto key = [&](std::size_t i) { return std::array<double, 3>{ xyz[3 * i], xyz[3 * i + 1], xyz[3 * i + 2] }; };
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return key(a) < key(b); });
  for (std::size_t k = 1; k < order.size(); ++k)
  {
    if (key(order[k]) == key(order[k - 1]))
    {
      const cl_int a = list[order[k]], b = list[order[k - 1]];
      throw Error("Points " + std::to_string(std::min(a, b)) + " and " + std::to_string(std::max(a, b)) +
        " are distinct but coincide on the boundary: unmerged duplicate points cut the mesh "
        "along a seam (merge them first, e.g. with Clean or Merge Points)");
    }
  }
}

} // namespace gpumesh
