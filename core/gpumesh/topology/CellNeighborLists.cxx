#include "gpumesh/topology/CellNeighborLists.h"

#include "gpumesh/primitives/Scan.h"

namespace gpumesh
{

CellNeighborLists cellNeighborLists(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& sides)
{
  if (sides.type() != EntityType::Sides)
  {
    throw Error("cell neighbour lists need the cells' sides, not their edges");
  }
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  DeviceBuffer<cl_uint> counts = run.allocate<cl_uint>(cells, "cell neighbour counts");
  run.call({ "cell_neighbor_lists", "count_cell_neighbours" }, cells, "cell neighbour lists",
    static_cast<cl_int>(cells), sides.slotOffsets(), sides.slotRun(), sides.sortedSlots(), sides.slotCell(),
    counts);
  CellNeighborLists lists{ run.allocate<cl_uint>(cells + 1, "cell neighbour offsets"), {} };
  const std::uint64_t total = exclusiveScan(run, counts, cells, lists.offsets, "cell neighbour lists");
  lists.ids = run.allocate<cl_int>(static_cast<std::size_t>(total), "cell neighbours");
  run.call({ "cell_neighbor_lists", "fill_cell_neighbours" }, cells, "cell neighbour lists",
    static_cast<cl_int>(cells), sides.slotOffsets(), sides.slotRun(), sides.sortedSlots(), sides.slotCell(),
    lists.offsets, lists.ids);
  return lists;
}

} // namespace gpumesh
