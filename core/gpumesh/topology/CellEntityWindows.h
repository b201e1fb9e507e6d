// The window steps of the GPUs' way of matching (SlotGrouping::Windows in CellEntities.h,
// kernels/topology/bucket_windows.cl and kernels/topology/run_windows.cl): CellEntities' own,
// not a public interface. It knows cell groups and the run, not CellEntities, which uses it.
#pragma once
#include "gpumesh/mesh/DeviceCellGroup.h"
#include "gpumesh/runtime/DeviceRun.h"

#include <string>

namespace gpumesh
{

class SlotWindows
{
public:
  /// `keyComponents`: the most vertex ids in one key (2 to 4); `slotRows`: the slots per cell
  /// when one fixed-size kind fills the mesh, else 0; `bucketOptions`: the build options that
  /// say which buckets are small (cell_entities.cl).
  SlotWindows(DeviceRun& run, int keyComponents, std::size_t slotRows, const std::string& bucketOptions);

  /// SlotGrouping::Auto's choice: whether a mesh of `slots` slots scatters enough to pay for the
  /// windows, sampled in `group` (the largest group that has entities) over `points` points
  /// (never on a device whose local memory cannot hold the windows' tiles).
  bool pay(const DeviceCellGroup& group, std::size_t slots, std::size_t points);

  /// The windows of owner vertices that the keys are first grouped by, and the shift that
  /// gives a vertex's window (vertex >> shift) among `points` points: emit_entities counts
  /// the keys of each window (KEY_WINDOWS in cell_entity_emit.cl).
  std::size_t keyWindows() const;
  cl_uint keyWindowShift(std::size_t points) const;

  /// The buckets' offsets (points + 1) and every small bucket ranked (rank_small_buckets in
  /// cell_entity_buckets.cl), from the keys in slot order and the keys counted by window
  /// (windowCounts, keyWindows() of them) through windows and sub-windows of owner vertices.
  /// Returns each run head's key at its sorted position (the other entries are undefined),
  /// for recordRuns. largeSizes (points) gets each large
  /// bucket's size and zero for the others, largeSlotCount (zero) their slots. Throws when the
  /// device's local memory cannot hold a tile, as does recordRuns.
  DeviceBuffer<cl_uint4> sortBuckets(const DeviceBuffer<cl_uint4>& keys, DeviceBuffer<cl_uint>& windowCounts,
    std::size_t points, DeviceBuffer<cl_uint>& bucketOffsets, DeviceBuffer<cl_int>& sortedSlots,
    DeviceBuffer<cl_uint>& heads, DeviceBuffer<cl_uint>& largeSizes, DeviceBuffer<cl_uint>& largeSlotCount);

  /// record_entities and record_runs (cell_entities.cl, cell_entity_runs.cl) through windows of slots: every
  /// entity's vertices from the heads' keys (sortBuckets), and every slot's run, entity and
  /// neighbour from the sorted slots.
  void recordRuns(const DeviceBuffer<cl_int>& sortedSlots, const DeviceBuffer<cl_uint>& entityOffsets,
    const DeviceBuffer<cl_uint4>& headKeys, const DeviceBuffer<cl_int>& slotCell,
    DeviceBuffer<cl_uint4>& entityVertices, DeviceBuffer<cl_int2>& slotRun, DeviceBuffer<cl_int>& neighbor,
    DeviceBuffer<cl_int>& slotEntity);

private:
  // One program's tiles: tiles of `tile` records in work-groups of `workGroup`; tile 0 when the
  // device's local memory holds none.
  struct Tiles
  {
    std::size_t workGroup = 0;
    std::size_t tile = 0;
    std::string options;
    LaunchRange of(std::size_t count) const;
  };
  void requireLocalMemory() const;

  DeviceRun& Run;
  int KeyComponents;
  Tiles Buckets; // bucket_windows.cl
  Tiles Sorting; // its sort of sub-windows (a work-group size of its own)
  Tiles Runs; // run_windows.cl
  std::size_t Capacity = 0; // the most entries of a sub-window sorted in local memory
  std::size_t RunCapacity = 0; // the slots a work-group puts in order at once
};

} // namespace gpumesh
