#include "gpumesh/topology/CellEntityWindows.h"

#include "gpumesh/primitives/RadixSort.h"
#include "gpumesh/primitives/Scan.h"

#include <algorithm>

namespace gpumesh
{

namespace
{
// The most windows, each a power of two of ids: each tile then puts about four records in each
// window, written together; more windows cost more atomics on their cursors (512 was the
// fastest of 128 to 1024 on an H200). Each window is then split into at most as many
// sub-windows as a tile has windows; a tile over two windows moves the second one's records on
// its own. With 2^8 sub-windows per window, a third of the sub-windows of 30M triangles
// numbered at random held too many entries for local memory (their sort took 2.6 ms, not 2.1);
// with 2^10, most records of the regrouping went on their own (4.3 ms, not 1.3; H200).
constexpr std::size_t windows = 512;
constexpr unsigned subWindowBits = 9;
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
// Sub-windows sorted in local memory: at most this many owner vertices, and as many entries
// as 24 KiB of local memory hold beside them (each staged in 16 bytes, 8 with edges alone, and
// its vertex in 2), at most 2048, by work-groups of 256; a sub-window is made to hold 40% of
// that on average. Larger ones (a vertex of high degree) are sorted in global memory. On an
// H200: 41 KiB let fewer work-groups share a multiprocessor (2.8 ms against 2.1 for 30M
// triangles); work-groups of 128, 2.2 ms; the entries read again from the cache instead of
// staged in local memory, 2.9 ms or more.
constexpr std::size_t subWindowVertices = 256;
constexpr std::size_t largestCapacity = 2048;
constexpr std::size_t sortLocalBudget = 24 * 1024;
constexpr std::size_t sortWorkGroup = 256;
constexpr double sortShare = 0.4;
std::size_t sortLocalBytes(std::size_t capacity, std::size_t workGroup, int keyComponents)
{
  return capacity * ((keyComponents == 2 ? 8 : 16) + 2) + subWindowVertices * 4 + workGroup * 4;
}
// Sub-windows of slots put in order in local memory: this many slots (16 bytes each) at once
// (1024 was as fast on an H200).
constexpr std::size_t runCapacity = 2048;
// Below this many slots, the whole scatter fits the cache of the GPUs we know, windows or not.
constexpr std::size_t fewestSlots = std::size_t(1) << 22;
// The sample of SlotGrouping::Auto: cells and the distance between the cells compared.
constexpr std::size_t samples = 4096;
constexpr std::size_t sampleDistance = 16;

// The windows' shift for ids up to `largest`: at most `windows` windows of a power of two.
cl_uint windowShift(std::size_t largest)
{
  return static_cast<cl_uint>(bitWidth(largest / windows));
}

unsigned floorLog2(std::size_t n)
{
  unsigned bits = 0;
  while (n >>= 1)
    ++bits;
  return bits;
}
} // namespace

SlotWindows::SlotWindows(DeviceRun& run, int keyComponents, std::size_t slotRows, const std::string& bucketOptions)
  : Run(run)
  , KeyComponents(keyComponents)
{
  const std::size_t localBytes = run.info().localMemoryBytes;
  // GPUs: 4 records per work-item; CPUs, where a work-group is a loop on one core, fewer
  // work-items of more records (fewer barriers).
  const std::size_t items = run.info().isGPU ? 4 : 16;
  const auto fitTiles = [&](Tiles& tiles, int components) {
    for (std::size_t tile = largestTile; tile >= smallestTile && tiles.tile == 0; tile /= 2)
    {
      tiles.workGroup = run.device().workGroupSize(tile / items);
      if (tileLocalBytes(tiles.workGroup * items, tiles.workGroup, components) <= localBytes)
        tiles.tile = tiles.workGroup * items;
    }
    tiles.options = "-DWG=" + std::to_string(tiles.workGroup) + " -DITEMS=" + std::to_string(items) +
      " -DWINDOWS=" + std::to_string(windows);
  };
  fitTiles(Buckets, keyComponents);
  const std::size_t sortGroup = run.device().workGroupSize(sortWorkGroup);
  for (std::size_t capacity = largestCapacity; capacity >= smallestTile && Capacity == 0; capacity /= 2)
  {
    const std::size_t bytes = sortLocalBytes(capacity, sortGroup, keyComponents);
    if (bytes <= std::min(localBytes, sortLocalBudget) && capacity >= sortGroup)
      Capacity = capacity;
  }
  const std::string sortOptions = " " + bucketOptions + " -DKEY_COMPONENTS=" + std::to_string(keyComponents) +
    " -DCAPACITY=" + std::to_string(Capacity) + " -DVERTICES=" + std::to_string(subWindowVertices);
  Sorting = Buckets;
  Sorting.workGroup = sortGroup;
  Sorting.options = "-DWG=" + std::to_string(sortGroup) + " -DITEMS=1 -DWINDOWS=" + std::to_string(windows) +
    sortOptions;
  Buckets.options += sortOptions + " -DTILE_OVERFLOW";
  fitTiles(Runs, 2);
  for (std::size_t capacity = runCapacity; capacity >= Runs.workGroup && RunCapacity == 0; capacity /= 2)
  {
    if (capacity * 16 <= localBytes)
      RunCapacity = capacity;
  }
  Runs.options += " -DCAPACITY=" + std::to_string(RunCapacity);
  if (slotRows > 0)
    Runs.options += " -DSLOT_ROWS=" + std::to_string(slotRows);
}

LaunchRange SlotWindows::Tiles::of(std::size_t count) const
{
  return { (count + tile - 1) / tile * workGroup, workGroup };
}

void SlotWindows::requireLocalMemory() const
{
  if (Buckets.tile == 0 || Runs.tile == 0 || Capacity == 0 || RunCapacity == 0)
  {
    const std::size_t needed = std::max(tileLocalBytes(smallestTile, 1, 4), sortLocalBytes(smallestTile, 1, 4));
    throw Error("Matching through windows needs at least " + std::to_string(needed) +
      " bytes of local memory per work-group; device '" + Run.info().label() + "' has " +
      std::to_string(Run.info().localMemoryBytes) + " (match directly instead: SlotGrouping::Direct)");
  }
}

bool SlotWindows::pay(const DeviceCellGroup& group, std::size_t slots, std::size_t points)
{
  const auto cells = static_cast<std::size_t>(group.count);
  const bool tilesFit = Buckets.tile > 0 && Runs.tile > 0 && Capacity > 0 && RunCapacity > 0;
  if (!tilesFit || slots < fewestSlots || cells <= sampleDistance || points == 0)
    return false;
  const std::size_t room = cells - sampleDistance;
  const std::size_t stride = std::max<std::size_t>(1, room / samples);
  const std::size_t sampled = std::min(samples, room);
  DeviceBuffer<cl_uint> far = Run.allocate<cl_uint>(1, "far cells");
  Run.fill(far, cl_uint(0), "far cells");
  Run.call({ "bucket_windows", "count_far_cells", Buckets.options }, sampled, "sample the numbering",
    CellArgs{ group }, static_cast<cl_int>(stride), static_cast<cl_int>(sampleDistance),
    windowShift(points - 1), far);
  cl_uint farCells = 0;
  Run.download(far, &farCells, 1, "far cells");
  return 2 * static_cast<std::size_t>(farCells) > sampled;
}

std::size_t SlotWindows::keyWindows() const
{
  return windows;
}

cl_uint SlotWindows::keyWindowShift(std::size_t points) const
{
  return windowShift(std::max<std::size_t>(points, 1) - 1);
}

DeviceBuffer<cl_uint4> SlotWindows::sortBuckets(const DeviceBuffer<cl_uint4>& keys,
  DeviceBuffer<cl_uint>& windowCounts, std::size_t points,
  DeviceBuffer<cl_uint>& bucketOffsets, DeviceBuffer<cl_int>& sortedSlots, DeviceBuffer<cl_uint>& heads,
  DeviceBuffer<cl_uint>& largeSizes, DeviceBuffer<cl_uint>& largeSlotCount)
{
  requireLocalMemory();
  const char* program = "bucket_windows";
  const std::size_t slots = keys.size();
  const auto count = static_cast<cl_uint>(slots);
  const std::size_t largest = std::max<std::size_t>(points, 1) - 1;
  const std::size_t bucketCount = KeyComponents == 4 ? slots : 1; // keys of fewer carry their bucket

  // 1. Each slot's bucket entry into its window of owner vertices.
  const cl_uint shift = keyWindowShift(points);
  DeviceBuffer<cl_uint> windowCursors = Run.allocate<cl_uint>(windows + 1, "window cursors");
  exclusiveScan(Run, windowCounts, windows, windowCursors, "window entries");
  windowCounts.release();
  DeviceBuffer<cl_uint4> grouped = Run.allocate<cl_uint4>(slots, "entries by window");
  DeviceBuffer<cl_uint> groupedBucket = Run.allocate<cl_uint>(bucketCount, "entry buckets by window");
  Run.call({ program, "group_keys_by_window", Buckets.options }, Buckets.of(slots), "group keys by window", keys,
    count, shift, windowCursors, grouped, groupedBucket);
  windowCursors.release();

  // 2. Each window's entries into its sub-windows, sized so that one holds about 40% of what
  // local memory does: `slots / points` entries per owner vertex on average.
  const double perVertex = std::max(1.0, static_cast<double>(slots) / static_cast<double>(points));
  const auto target = static_cast<std::size_t>(static_cast<double>(Capacity) * sortShare / perVertex);
  const unsigned fewestBits = shift > subWindowBits ? shift - subWindowBits : 0;
  // Beyond 2^26 points, more sub-windows than a tile has windows: their records go on their own.
  const cl_uint subShift = std::min(
    std::clamp(floorLog2(std::max<std::size_t>(target, 1)), fewestBits, unsigned(shift)), floorLog2(subWindowVertices));
  const std::size_t subWindows = (largest >> subShift) + 1;
  DeviceBuffer<cl_uint> subCounts = Run.allocate<cl_uint>(subWindows, "sub-window counts");
  Run.fill(subCounts, cl_uint(0), "sub-window counts");
  Run.call({ program, "count_key_subwindows", Buckets.options }, Buckets.of(slots), "count key sub-windows", grouped,
    groupedBucket, count, shift, subShift, subCounts);
  DeviceBuffer<cl_uint> subOffsets = Run.allocate<cl_uint>(subWindows + 1, "sub-window offsets");
  exclusiveScan(Run, subCounts, subWindows, subOffsets, "sub-window entries");
  DeviceBuffer<cl_uint>& subCursors = subCounts;
  Run.copy(subOffsets, subCursors, subWindows, "sub-window cursors");
  DeviceBuffer<cl_uint4> regrouped = Run.allocate<cl_uint4>(slots, "entries by sub-window");
  DeviceBuffer<cl_uint> regroupedBucket = Run.allocate<cl_uint>(bucketCount, "entry buckets by sub-window");
  Run.call({ program, "group_keys_by_subwindow", Buckets.options }, Buckets.of(slots), "group keys by sub-window",
    grouped, groupedBucket, count, shift, subShift, subCursors, regrouped, regroupedBucket);
  subCounts.release();

  // 3. Each sub-window's buckets sorted by one work-group; the entries by window serve as the
  // bucket entries of sub-windows too large for local memory.
  DeviceBuffer<cl_uint4>& entries = grouped;
  DeviceBuffer<cl_uint>& entryBucket = groupedBucket;
  Run.call({ program, "sort_subwindow_buckets", Sorting.options },
    LaunchRange(subWindows * Sorting.workGroup, Sorting.workGroup), "sort sub-window buckets", regrouped,
    regroupedBucket, subOffsets, static_cast<cl_uint>(points), subShift, bucketOffsets, entries, entryBucket,
    sortedSlots, heads, regrouped, largeSizes, largeSlotCount);
  return regrouped; // the heads' keys now
}

void SlotWindows::recordRuns(const DeviceBuffer<cl_int>& sortedSlots, const DeviceBuffer<cl_uint>& entityOffsets,
  const DeviceBuffer<cl_uint4>& headKeys, const DeviceBuffer<cl_int>& slotCell, DeviceBuffer<cl_uint4>& entityVertices,
  DeviceBuffer<cl_int2>& slotRun, DeviceBuffer<cl_int>& neighbor, DeviceBuffer<cl_int>& slotEntity)
{
  requireLocalMemory();
  const char* program = "run_windows";
  const std::size_t slots = sortedSlots.size();
  const auto count = static_cast<cl_uint>(slots);
  const cl_uint shift = windowShift(std::max<std::size_t>(slots, 1) - 1);

  // 1. The entities numbered, and each sorted position's run into its window of slots; window
  // w starts at slot w << shift.
  DeviceBuffer<cl_uint> cursors = Run.allocate<cl_uint>(windows, "window cursors");
  Run.call({ program, "window_starts", Runs.options }, windows, "window cursors", cl_uint(windows), shift, cursors);
  DeviceBuffer<cl_uint4> grouped = Run.allocate<cl_uint4>(slots, "runs by window");
  Run.call({ program, "number_runs_by_window", Runs.options }, Runs.of(slots), "number runs by window", sortedSlots,
    count, entityOffsets, headKeys, slotCell, shift, cursors, grouped, entityVertices);
  cursors.release();

  // 2. Each window's runs into sub-windows of RunCapacity slots, each of which one work-group
  // writes out in slot order.
  // Beyond 2^29 slots, more sub-windows than a tile has windows: their records go on their own.
  const cl_uint subShift = std::min(floorLog2(RunCapacity), unsigned(shift));
  const std::size_t subWindows = ((std::max<std::size_t>(slots, 1) - 1) >> subShift) + 1;
  DeviceBuffer<cl_uint> subCursors = Run.allocate<cl_uint>(subWindows, "sub-window cursors");
  Run.call({ program, "window_starts", Runs.options }, subWindows, "sub-window cursors", cl_uint(subWindows), subShift,
    subCursors);
  DeviceBuffer<cl_uint4> regrouped = Run.allocate<cl_uint4>(slots, "runs by sub-window");
  Run.call({ program, "group_runs_by_subwindow", Runs.options + " -DTILE_OVERFLOW" }, Runs.of(slots),
    "group runs by sub-window", grouped, count, shift, subShift, subCursors, regrouped);
  grouped.release();
  subCursors.release();
  Run.call({ program, "place_subwindow_runs", Runs.options }, LaunchRange(subWindows * Runs.workGroup, Runs.workGroup),
    "place runs", regrouped, count, subShift, entityOffsets, slotRun, neighbor, slotEntity);
}

} // namespace gpumesh
