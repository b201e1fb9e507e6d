#include "gpumesh/CellEntityWindows.h"

#include "gpumesh/RadixSort.h"
#include "gpumesh/Scan.h"

#include <algorithm>

namespace gpumesh
{

namespace
{
const char* const program = "cell_entity_windows";
// The most windows, each a power of two of ids: a window of 30M triangles' slots (90M) is then a
// few megabytes, which stays in cache while it fills; more windows cost more atomics on their
// cursors (512 was the fastest of 128 to 1024 on an H200).
constexpr std::size_t windows = 512;
// Records per tile (one work-group): larger tiles take fewer atomics per record, as many as
// the device's local memory holds (2048 in 48 KiB, 1024 with four-vertex keys).
constexpr std::size_t largestTile = 2048;
constexpr std::size_t smallestTile = 256;
// Local memory of a tile kernel: each record staged (16 bytes, its window as 2, its bucket as 4
// with four-vertex keys), the windows' counts and starts, the work-items' totals.
std::size_t tileLocalBytes(std::size_t tile, std::size_t workGroup, int keyComponents)
{
  return tile * (16 + 2 + (keyComponents == 4 ? 4 : 0)) + 2 * windows * 4 + workGroup * 4;
}
// Below this many slots, the whole scatter fits the cache of the GPUs we know, windows or not.
constexpr std::size_t fewestSlots = std::size_t(1) << 22;
// The sample of SlotGrouping::Auto: cells and the distance between the cells compared.
constexpr std::size_t samples = 4096;
constexpr std::size_t sampleDistance = 16;
} // namespace

SlotWindows::SlotWindows(DeviceRun& run, int keyComponents, std::size_t slotRows)
  : Run(run)
{
  // GPUs: 4 records per work-item; CPUs, where a work-group is a loop on one core, fewer
  // work-items of more records (fewer barriers).
  const std::size_t items = run.info().isGPU ? 4 : 16;
  for (std::size_t tile = largestTile; tile >= smallestTile && Tile == 0; tile /= 2)
  {
    WorkGroup = run.device().workGroupSize(tile / items);
    if (tileLocalBytes(WorkGroup * items, WorkGroup, keyComponents) <= run.info().localMemoryBytes)
      Tile = WorkGroup * items;
  }
  Options = "-DWG=" + std::to_string(WorkGroup) + " -DITEMS=" + std::to_string(items) +
    " -DWINDOWS=" + std::to_string(windows) + " -DKEY_COMPONENTS=" + std::to_string(keyComponents);
  if (slotRows > 0)
    Options += " -DSLOT_ROWS=" + std::to_string(slotRows);
}

cl_uint SlotWindows::windowShift(std::size_t largest)
{
  return static_cast<cl_uint>(bitWidth(largest / windows));
}

LaunchRange SlotWindows::tiles(std::size_t count) const
{
  return { (count + Tile - 1) / Tile * WorkGroup, WorkGroup };
}

void SlotWindows::requireLocalMemory() const
{
  if (Tile == 0)
  {
    throw Error("Matching through windows needs at least " + std::to_string(tileLocalBytes(smallestTile, 1, 4)) +
      " bytes of local memory per work-group; device '" + Run.info().label() + "' has " +
      std::to_string(Run.info().localMemoryBytes) + " (match directly instead: SlotGrouping::Direct)");
  }
}

bool SlotWindows::pay(const DeviceCellGroup& group, std::size_t slots, std::size_t points)
{
  const auto cells = static_cast<std::size_t>(group.count);
  if (Tile == 0 || slots < fewestSlots || cells <= sampleDistance || points == 0)
    return false;
  const std::size_t room = cells - sampleDistance;
  const std::size_t stride = std::max<std::size_t>(1, room / samples);
  const std::size_t sampled = std::min(samples, room);
  DeviceBuffer<cl_uint> far = Run.allocate<cl_uint>(1, "far cells");
  Run.fill(far, cl_uint(0), "far cells");
  Run.call({ program, "count_far_cells", Options }, sampled, "sample the numbering", CellArgs{ group },
    static_cast<cl_int>(stride), static_cast<cl_int>(sampleDistance), windowShift(points - 1), far);
  cl_uint farCells = 0;
  Run.download(far, &farCells, 1, "far cells");
  return 2 * static_cast<std::size_t>(farCells) > sampled;
}

void SlotWindows::fillBuckets(const DeviceBuffer<cl_uint4>& keys, std::size_t points,
  DeviceBuffer<cl_uint>& bucketCounts, DeviceBuffer<cl_uint>& bucketOffsets, DeviceBuffer<cl_uint4>& entries,
  DeviceBuffer<cl_uint>& entryBucket)
{
  requireLocalMemory();
  const std::size_t slots = keys.size();
  const auto count = static_cast<cl_uint>(slots);
  const cl_uint shift = windowShift(std::max<std::size_t>(points, 1) - 1);

  DeviceBuffer<cl_uint> windowCounts = Run.allocate<cl_uint>(windows, "window counts");
  Run.fill(windowCounts, cl_uint(0), "window counts");
  Run.call({ program, "count_key_windows", Options }, tiles(slots), "count key windows", keys, count, shift,
    windowCounts);
  DeviceBuffer<cl_uint> windowCursors = Run.allocate<cl_uint>(windows + 1, "window cursors");
  exclusiveScan(Run, windowCounts, windows, windowCursors, "window entries");
  windowCounts.release();
  DeviceBuffer<cl_uint4> grouped = Run.allocate<cl_uint4>(slots, "entries by window");
  DeviceBuffer<cl_uint> groupedBucket = Run.allocate<cl_uint>(entryBucket.size(), "entry buckets by window");
  Run.call({ program, "group_keys_by_window", Options }, tiles(slots), "group keys by window", keys, count, shift,
    windowCursors, grouped, groupedBucket);
  windowCursors.release();

  Run.call({ program, "count_grouped_buckets", Options }, slots, "bucket counts", grouped, groupedBucket, count,
    bucketCounts);
  exclusiveScan(Run, bucketCounts, points, bucketOffsets, "bucket entries");
  DeviceBuffer<cl_uint>& bucketCursors = bucketCounts;
  Run.copy(bucketOffsets, bucketCursors, points, "bucket cursors");
  Run.call({ program, "fill_buckets_from_windows", Options }, slots, "fill buckets", grouped, groupedBucket, count,
    bucketCursors, entries, entryBucket);
}

void SlotWindows::recordRuns(const DeviceBuffer<cl_int>& sortedSlots, const DeviceBuffer<cl_uint>& entityOffsets,
  const DeviceBuffer<cl_int>& runStart, const DeviceBuffer<cl_int>& slotCell, DeviceBuffer<cl_int2>& slotRun,
  DeviceBuffer<cl_int>& neighbor, DeviceBuffer<cl_int>& slotEntity)
{
  requireLocalMemory();
  const std::size_t slots = sortedSlots.size();
  const auto count = static_cast<cl_uint>(slots);
  const cl_uint shift = windowShift(std::max<std::size_t>(slots, 1) - 1);

  // Window w of slots starts at slot w << shift.
  DeviceBuffer<cl_uint> cursors = Run.allocate<cl_uint>(windows, "window cursors");
  Run.call({ program, "window_starts", Options }, windows, "window cursors", shift, cursors);
  DeviceBuffer<cl_uint4> grouped = Run.allocate<cl_uint4>(slots, "runs by window");
  Run.call({ program, "group_runs_by_window", Options }, tiles(slots), "group runs by window", sortedSlots, count,
    entityOffsets, runStart, slotCell, shift, cursors, grouped);
  cursors.release();
  // Each run to its slot as one write, then split into the three buffers in slot order.
  DeviceBuffer<cl_int4> slotRecords = Run.allocate<cl_int4>(slots, "runs in slot order");
  Run.call({ program, "place_runs", Options }, slots, "place runs", grouped, count, runStart, slotRecords);
  grouped.release();
  Run.call({ program, "split_runs", Options }, slots, "split runs", slotRecords, count, slotRun, neighbor, slotEntity);
}

} // namespace gpumesh
