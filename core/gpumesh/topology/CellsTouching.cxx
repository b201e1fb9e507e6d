#include "gpumesh/topology/CellsTouching.h"

#include <algorithm>
#include <string>

namespace gpumesh
{

namespace
{
constexpr const char* program = "cells_touching";
}

std::optional<std::vector<std::int64_t>> cellsTouchingPoints(
  DeviceRun& run, const DeviceMesh& mesh, const std::vector<cl_int>& points)
{
  std::int64_t grouped = 0;
  for (const DeviceCellGroup& group : mesh.groups())
    grouped += static_cast<std::int64_t>(group.count);
  if (grouped != mesh.cellCount())
    return std::nullopt;
  std::vector<cl_int> listed(points);
  std::sort(listed.begin(), listed.end());
  listed.erase(std::unique(listed.begin(), listed.end()), listed.end());
  if (!listed.empty() && (listed.front() < 0 || listed.back() >= mesh.pointCount()))
  {
    throw Error("Cells touching points: point " +
      std::to_string(listed.front() < 0 ? listed.front() : listed.back()) + " is outside the mesh's " +
      std::to_string(mesh.pointCount()) + " points");
  }
  std::vector<std::int64_t> cells;
  if (listed.empty() || grouped == 0)
    return cells;

  DeviceBuffer<cl_uint> bits =
    run.allocate<cl_uint>((static_cast<std::size_t>(mesh.pointCount()) + 31) / 32, "listed points");
  run.fill(bits, cl_uint(0), "listed points");
  const DeviceBuffer<cl_int> onDevice = run.upload(listed.data(), listed.size(), "listed points");
  run.call({ program, "flag_listed_points" }, listed.size(), "cells touching points", onDevice,
    static_cast<cl_int>(listed.size()), bits);
  // A point of a piece's interface lies in a few cells: room for a dozen each; one more pass,
  // with room for all, where that is short.
  std::size_t capacity = std::max<std::size_t>(1024, 12 * listed.size());
  DeviceBuffer<cl_int> counter = run.allocate<cl_int>(1, "cells touching points");
  for (;;)
  {
    DeviceBuffer<cl_int> found = run.allocate<cl_int>(capacity, "cells touching points");
    run.fill(counter, cl_int(0), "cells touching points");
    for (const DeviceCellGroup& group : mesh.groups())
    {
      run.call({ program, "append_cells_touching" }, group.count, "cells touching points", CellArgs{ group }, bits,
        static_cast<cl_int>(capacity), counter, found);
    }
    cl_int count = 0;
    run.download(counter, &count, 1, "cells touching points");
    const auto n = static_cast<std::size_t>(count);
    if (n <= capacity)
    {
      std::vector<cl_int> ids(n);
      if (n > 0)
        run.download(found, ids.data(), n, "cells touching points");
      cells.assign(ids.begin(), ids.end());
      std::sort(cells.begin(), cells.end());
      return cells;
    }
    capacity = n;
  }
}

} // namespace gpumesh
