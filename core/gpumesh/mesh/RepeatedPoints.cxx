#include "gpumesh/mesh/RepeatedPoints.h"

#include <array>
#include <limits>

namespace gpumesh
{

namespace
{
constexpr cl_int none = std::numeric_limits<cl_int>::max();

// found = { smallest offending cell id, the repeated point of `namedCell` }.
std::array<cl_int, 2> findRepeatedPoint(DeviceRun& run, const DeviceMesh& mesh, cl_int namedCell)
{
  DeviceBuffer<cl_int> found = run.allocate<cl_int>(2, "repeated point");
  run.fill(found, none, "repeated point");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (cellDimension(group.kind) < 2)
    {
      continue;
    }
    run.call({ "repeated_points", "repeated_points" }, group.count, "repeated points", CellArgs{ group },
      namedCell, found);
  }
  std::array<cl_int, 2> host{};
  run.download(found, host.data(), 2, "repeated point");
  return host;
}
} // namespace

void rejectRepeatedPoints(DeviceRun& run, const DeviceMesh& mesh, const std::string& use)
{
  const cl_int cell = findRepeatedPoint(run, mesh, -1)[0];
  if (cell == none)
  {
    return;
  }
  const cl_int point = findRepeatedPoint(run, mesh, cell)[1];
  throw Error("Cell " + std::to_string(cell) + " lists point " + std::to_string(point) +
    " more than once: its sides collapse or coincide, which " + use +
    " cannot handle; remove or repair the cell first (e.g. Clean turns such polygons into lines)");
}

} // namespace gpumesh
