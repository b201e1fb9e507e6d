#include "gpumesh/topology/ListedPoints.h"

#include <algorithm>

namespace gpumesh
{

std::vector<cl_int> listedPoints(const DeviceMesh& mesh, const std::vector<cl_int>& points, const std::string& what)
{
  std::vector<cl_int> listed(points);
  std::sort(listed.begin(), listed.end());
  listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
  if (!listed.empty() && (listed.front() < 0 || listed.back() >= mesh.pointCount()))
  {
    throw Error(what + ": point " + std::to_string(listed.front() < 0 ? listed.front() : listed.back()) +
      " is outside the mesh's " + std::to_string(mesh.pointCount()) + " points");
  }
  return listed;
}

DeviceBuffer<cl_uint> listedPointBits(
  DeviceRun& run, const DeviceMesh& mesh, const std::vector<cl_int>& listed, const char* program)
{
  DeviceBuffer<cl_uint> bits =
    run.allocate<cl_uint>((static_cast<std::size_t>(mesh.pointCount()) + 31) / 32, "listed points");
  run.fill(bits, cl_uint(0), "listed points");
  if (listed.empty())
    return bits;
  const DeviceBuffer<cl_int> onDevice = run.upload(listed.data(), listed.size(), "listed points");
  run.call({ program, "flag_listed_points" }, listed.size(), "listed points", onDevice,
    static_cast<cl_int>(listed.size()), bits);
  return bits;
}

} // namespace gpumesh
