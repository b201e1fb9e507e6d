#include "gpumesh/topology/CellsTouching.h"

#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/ListedPoints.h"

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
  const std::vector<cl_int> listed = listedPoints(mesh, points, "Cells touching points");
  std::vector<std::int64_t> cells;
  if (listed.empty() || grouped == 0)
    return cells;

  const DeviceBuffer<cl_uint> bits = listedPointBits(run, mesh, listed, program);
  // Each group's cells in order (flags, their prefix sums, a gather): groups of one kind hold
  // ascending cell ids, so the groups' lists are merged, never sorted.
  for (const DeviceCellGroup& group : mesh.groups())
  {
    const std::size_t n = group.count;
    DeviceBuffer<cl_uint> flags = run.allocate<cl_uint>(n, "cells touching points");
    run.call({ program, "flag_cells_touching" }, n, "cells touching points", CellArgs{ group }, bits, flags);
    DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(n + 1, "cells touching points");
    const auto found = static_cast<std::size_t>(exclusiveScan(run, flags, n, places, "cells touching points"));
    if (found == 0)
      continue;
    DeviceBuffer<cl_int> ids = run.allocate<cl_int>(found, "cells touching points");
    run.call({ program, "gather_flagged_cells" }, n, "cells touching points", places, static_cast<cl_int>(n),
      group.cellIds, ids);
    std::vector<cl_int> part(found);
    run.download(ids, part.data(), found, "cells touching points");
    const auto middle = static_cast<std::ptrdiff_t>(cells.size());
    cells.insert(cells.end(), part.begin(), part.end());
    std::inplace_merge(cells.begin(), cells.begin() + middle, cells.end());
  }
  return cells;
}

} // namespace gpumesh
