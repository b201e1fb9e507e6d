// The window steps of the GPUs' way of matching (SlotGrouping::Windows in CellEntities.h,
// kernels/cell_entity_windows.cl): CellEntities' own, not a public interface.
#pragma once
#include "gpumesh/CellEntities.h"

#include <string>

namespace gpumesh
{

class SlotWindows
{
public:
  /// `keyComponents`: the most vertex ids in one key (2 to 4); `slotRows`: the slots per cell
  /// when one fixed-size kind fills the mesh, else 0.
  SlotWindows(DeviceRun& run, int keyComponents, std::size_t slotRows);

  /// SlotGrouping::Auto's choice: whether a mesh of `slots` slots scatters enough to pay for the
  /// windows, sampled in `group` (the largest group that has entities) over `points` points
  /// (never on a device whose local memory cannot hold a tile).
  bool pay(const DeviceCellGroup& group, std::size_t slots, std::size_t points);

  /// The buckets' offsets (points + 1) and their entries in them, from the keys in slot order
  /// through windows of owner vertices. `bucketCounts` (points, zero) serves as the buckets'
  /// cursors; entryBucket is filled for four-vertex keys. Throws when the device's local memory
  /// cannot hold a tile, as does recordRuns.
  void fillBuckets(const DeviceBuffer<cl_uint4>& keys, std::size_t points, DeviceBuffer<cl_uint>& bucketCounts,
    DeviceBuffer<cl_uint>& bucketOffsets, DeviceBuffer<cl_uint4>& entries, DeviceBuffer<cl_uint>& entryBucket);

  /// record_runs (cell_entities.cl) through windows of slots: every slot's run, entity and
  /// neighbour from the sorted slots.
  void recordRuns(const DeviceBuffer<cl_int>& sortedSlots, const DeviceBuffer<cl_uint>& entityOffsets,
    const DeviceBuffer<cl_int>& runStart, const DeviceBuffer<cl_int>& slotCell, DeviceBuffer<cl_int2>& slotRun,
    DeviceBuffer<cl_int>& neighbor, DeviceBuffer<cl_int>& slotEntity);

private:
  // The windows' shift for ids up to `largest`: at most `windows` windows of a power of two.
  static cl_uint windowShift(std::size_t largest);
  void requireLocalMemory() const;
  LaunchRange tiles(std::size_t count) const;

  DeviceRun& Run;
  std::string Options;
  std::size_t WorkGroup = 0;
  std::size_t Tile = 0; // 0: the device's local memory holds no tile
};

} // namespace gpumesh
