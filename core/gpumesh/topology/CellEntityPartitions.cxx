// CellEntities the way CPU devices run fast (AccessPattern::Contiguous): kernels of
// kernels/topology/cell_entity_partitions.cl, each work-item owning a chunk of cells or a range of
// vertices (a partition), so nothing is counted by atomics and each partition is sorted in cache.
#include "gpumesh/topology/CellEntities.h"

#include "gpumesh/primitives/Scan.h"

#include <algorithm>
#include <string>

namespace gpumesh
{

namespace
{
// Chunks of cells per compute unit, enough to even out the load; at least this many cells each.
constexpr std::size_t chunksPerUnit = 8;
constexpr std::size_t smallestChunk = 1024;
// Slots per partition, on average: few enough that a partition's pairs fit in a core's L1 cache
// and its private staging (STAGED_PAIRS), many enough that chunkCounts stays small beside the
// pairs (measured on 1M triangles and tetrahedra: 256 beat 1024 and 4096 by 20-40%).
constexpr std::size_t slotsPerPartition = 256;
// At least this many slots per counter of chunkCounts (chunks x partitions), so that the
// counters stay a few percent of the pairs: more chunks (compute units) make wider partitions.
constexpr std::size_t slotsPerCounter = 16;
// Partitions of up to this many vertices (the usual: a few tens) sort with their buckets' bounds
// in private memory, without two points-sized arrays (fresh 4 KiB pages, costly on first touch).
constexpr std::size_t privateBuckets = 256;
// With neighbours only (SlotNeighbors::Only), the (key, slot) pairs are needed only here: they
// are sorted and recorded a batch of partitions at a time, in one workspace of about this many
// bytes, in at most maxBatches batches. Each batch costs one more pass over the cells, less than
// the fresh memory it saves where first touches are slow (virtual machines: 1-2 ms per MB;
// 1M triangles: 36 MB of pairs in 3 batches of 12 MB).
constexpr std::size_t pairBudgetBytes = std::size_t(16) << 20;
constexpr std::size_t maxBatches = 4;

std::size_t divideUp(std::size_t a, std::size_t b)
{
  return (a + b - 1) / b;
}

const char* const program = "cell_entity_partitions";

// Chunks of cells of one group; chunk rows of chunkCounts follow the groups' order.
struct Chunks
{
  std::size_t cells = 0; // per chunk
  std::size_t count = 0;
  std::size_t first = 0; // row of the group's first chunk
};

// How the cells and the vertices are cut, and the build options of every kernel.
struct PartitionPlan
{
  /// Every kernel's, so that all of them come from one program (each program a CPU device loads
  /// costs milliseconds): with PRIVATE_BUCKETS, and the cells' kind when one group emits.
  std::string options;
  /// The per-cell kernels' of each emitting group.
  std::vector<std::string> cellOptions;
  std::size_t keyBytes = 0;    // a key of 2 or of 4 vertex ids
  std::vector<Chunks> chunks;  // per emitting group
  std::size_t chunkRows = 0;   // all groups' chunks
  std::size_t points = 0;
  cl_uint shift = 0;           // vertex ranges of 2^shift ids
  std::size_t partitions = 0;
};

// Keys of 2 vertex ids when every entity has 2 (edges; sides of 2D cells), else 4.
bool twoVertexKeys(const EmittingGroups& emitting)
{
  bool twoVertices = true;
  for (const auto& entry : emitting)
  {
    const std::vector<cl_int>& table = *entry.second;
    for (std::size_t row = 0; row < table.size(); row += 4)
      twoVertices = twoVertices && table[row + 2] < 0;
  }
  return twoVertices;
}

// Without stored slot cells a slot's cell is computed (when neighbours are wanted, the caller
// stores none only with one fixed-size kind).
std::string partitionOptions(bool twoVertices, SlotNeighbors neighbors, bool slotCells, std::size_t slotRows)
{
  const bool counts = neighbors == SlotNeighbors::EntityCounts;
  const bool withNeighbors = neighbors != SlotNeighbors::LeftOut && !counts;
  const bool withRuns = neighbors != SlotNeighbors::Only;
  return std::string("-DSMALL_BUCKET=8 -DRANK_SORT=128 -DSTAGED_PAIRS=1024 -DKEY_COMPONENTS=") +
    (twoVertices ? "2" : "4") + " -DWITH_NEIGHBORS=" + (withNeighbors ? "1" : "0") + " -DSLOT_CELLS=" +
    (slotCells ? "1" : "0") + (!slotCells && slotRows > 0 ? " -DSLOT_ROWS=" + std::to_string(slotRows) : "") +
    " -DWITH_RUNS=" + (withRuns ? "1" : "0") + (counts ? " -DENTITY_CELLS=1" : "");
}

// Chunks of cells, per group: enough per compute unit to even out the load.
void cutIntoChunks(const EmittingGroups& emitting, std::size_t units, PartitionPlan& plan)
{
  for (const auto& entry : emitting)
  {
    const std::size_t cells = entry.first->count;
    const std::size_t chunkCount = std::clamp<std::size_t>(divideUp(cells, smallestChunk), 1, chunksPerUnit * units);
    Chunks c;
    c.cells = divideUp(cells, chunkCount);
    c.count = cells ? divideUp(cells, c.cells) : 0;
    c.first = plan.chunkRows;
    plan.chunkRows += c.count;
    plan.chunks.push_back(c);
  }
}

// Vertex ranges of 2^shift ids (a shift, not a division, finds a vertex's partition); the last
// one may be shorter.
void cutIntoPartitions(std::size_t slots, PartitionPlan& plan)
{
  const std::size_t fewestSlots = std::max(slotsPerPartition, plan.chunkRows * slotsPerCounter);
  const std::size_t wanted = std::max<std::size_t>(1, std::min(plan.points, divideUp(slots, fewestSlots)));
  while ((std::size_t(1) << plan.shift) * wanted < plan.points)
    ++plan.shift;
  plan.partitions = divideUp(plan.points, std::size_t(1) << plan.shift);
}

PartitionPlan planPartitions(DeviceRun& run, const DeviceMesh& mesh, const EmittingGroups& emitting,
  SlotNeighbors neighbors, bool slotCells, std::size_t slotRows, std::size_t slots)
{
  PartitionPlan plan;
  const bool twoVertices = twoVertexKeys(emitting);
  plan.options = partitionOptions(twoVertices, neighbors, slotCells, slotRows);
  plan.keyBytes = twoVertices ? sizeof(cl_uint2) : sizeof(cl_uint4);
  plan.points = static_cast<std::size_t>(mesh.pointCount());
  cutIntoChunks(emitting, static_cast<std::size_t>(std::max(run.info().computeUnits, 1)), plan);
  cutIntoPartitions(slots, plan);
  const bool inPrivate = (std::size_t(1) << plan.shift) <= privateBuckets;
  plan.options += " -DPRIVATE_BUCKETS=" + std::to_string(inPrivate ? privateBuckets : 0);
  if (emitting.size() == 1)
    plan.options += " " + cellKindOptions(*emitting.front().first);
  for (const auto& entry : emitting)
    plan.cellOptions.push_back(emitting.size() == 1 ? plan.options : plan.options + " " + cellKindOptions(*entry.first));
  return plan;
}

// 1. Each chunk's entities per partition, and every slot's cell (into slotCell, when kept).
DeviceBuffer<cl_uint> countPartitionEntries(DeviceRun& run, const PartitionPlan& plan,
  const EmittingGroups& emitting, const std::vector<DeviceBuffer<cl_int>>& tables,
  const DeviceBuffer<cl_uint>& slotOffsets, DeviceBuffer<cl_int>& slotCell)
{
  DeviceBuffer<cl_uint> chunkCounts =
    run.allocate<cl_uint>(std::max<std::size_t>(plan.chunkRows * plan.partitions, 1), "chunk counts");
  for (std::size_t g = 0; g < emitting.size(); ++g)
  {
    const DeviceCellGroup& group = *emitting[g].first;
    const Chunks& chunks = plan.chunks[g];
    run.call({ program, "count_partition_entries", plan.cellOptions[g] },
      { chunks.count, 1 }, "count partition entries", CellArgs{ group }, tables[g],
      static_cast<cl_int>(emitting[g].second->size() / 4), slotOffsets, static_cast<cl_int>(chunks.cells),
      static_cast<cl_int>(chunks.first), plan.shift, static_cast<cl_int>(plan.partitions), slotCell, chunkCounts);
  }
  return chunkCounts;
}

// 2. Where the pairs of each partition start (partitions + 1 entries), and of each (partition,
// chunk): chunkCounts becomes the chunks' cursors.
DeviceBuffer<cl_uint> partitionStarts(DeviceRun& run, const PartitionPlan& plan, DeviceBuffer<cl_uint>& chunkCounts)
{
  const std::size_t partitions = plan.partitions;
  DeviceBuffer<cl_uint> totals = run.allocate<cl_uint>(partitions, "partition sizes");
  run.call({ program, "partition_totals", plan.options }, partitions, "partition offsets", chunkCounts,
    static_cast<cl_int>(plan.chunkRows), static_cast<cl_int>(partitions), totals);
  DeviceBuffer<cl_uint> starts = run.allocate<cl_uint>(partitions + 1, "partition starts");
  exclusiveScan(run, totals, partitions, starts, "slots of partitions", AccessPattern::Contiguous);
  totals.release();
  run.call({ program, "chunk_cursors", plan.options }, partitions, "partition offsets", chunkCounts,
    static_cast<cl_int>(plan.chunkRows), static_cast<cl_int>(partitions), starts);
  return starts;
}

// The batches of partitions whose pairs share one workspace, [first, end) each.
struct PairBatches
{
  std::vector<std::pair<std::size_t, std::size_t>> ranges;
  /// Where each partition's pairs start, when there are several batches (else empty: one batch
  /// of every pair, each where partitionStarts puts it).
  std::vector<cl_uint> pairStarts;
  std::size_t workspacePairs = 0; // the largest batch's pairs

  cl_uint pairBase(std::size_t first) const { return pairStarts.empty() ? 0 : pairStarts[first]; }
};

// One batch unless only neighbours are wanted (their pairs are needed only here) and the pairs
// exceed pairBudgetBytes: then batches of about equal numbers of pairs, each ending at the first
// partition that reaches its share.
PairBatches planBatches(DeviceRun& run, const PartitionPlan& plan, const DeviceBuffer<cl_uint>& starts,
  std::size_t slots, bool withRuns)
{
  const std::size_t partitions = plan.partitions;
  const std::size_t pairBytes = plan.keyBytes + sizeof(cl_int);
  PairBatches batches;
  batches.workspacePairs = slots;
  if (withRuns || slots * pairBytes <= pairBudgetBytes)
  {
    batches.ranges = { { 0, partitions } };
    return batches;
  }
  batches.pairStarts.resize(partitions + 1);
  run.download(starts, batches.pairStarts.data(), batches.pairStarts.size(), "partition starts");
  const std::size_t batchCount = std::min(maxBatches, divideUp(slots * pairBytes, pairBudgetBytes));
  for (std::size_t first = 0, k = 1; first < partitions; ++k)
  {
    const std::size_t share = slots * k / batchCount;
    std::size_t end = first + 1;
    while (end < partitions && batches.pairStarts[end] < share)
      ++end;
    batches.ranges.emplace_back(first, end);
    first = end;
  }
  batches.workspacePairs = 0;
  for (const auto& [first, end] : batches.ranges)
    batches.workspacePairs =
      std::max<std::size_t>(batches.workspacePairs, batches.pairStarts[end] - batches.pairStarts[first]);
  return batches;
}

// 3. The (key, slot) pairs of partitions [first, end), grouped by partition.
void scatterPartitionEntries(DeviceRun& run, const PartitionPlan& plan, const EmittingGroups& emitting,
  const std::vector<DeviceBuffer<cl_int>>& tables, const DeviceBuffer<cl_uint>& slotOffsets,
  DeviceBuffer<cl_uint>& chunkCursors, std::size_t first, std::size_t end, cl_uint pairBase,
  DeviceBuffer<cl_uchar>& pairKeys, DeviceBuffer<cl_int>& pairSlots)
{
  for (std::size_t g = 0; g < emitting.size(); ++g)
  {
    const DeviceCellGroup& group = *emitting[g].first;
    const Chunks& chunks = plan.chunks[g];
    run.call({ program, "scatter_partition_entries", plan.cellOptions[g] },
      { chunks.count, 1 }, "scatter partition entries", CellArgs{ group }, tables[g],
      static_cast<cl_int>(emitting[g].second->size() / 4), slotOffsets, static_cast<cl_int>(chunks.cells),
      static_cast<cl_int>(chunks.first), plan.shift, static_cast<cl_int>(plan.partitions), chunkCursors,
      static_cast<cl_uint>(first), static_cast<cl_uint>(end), pairBase, pairKeys, pairSlots);
  }
}
} // namespace

void CellEntities::matchInPartitions(DeviceRun& run, const DeviceMesh& mesh, const EmittingGroups& emitting,
  SlotNeighbors neighbors, std::size_t slotRows)
{
  const bool counts = neighbors == SlotNeighbors::EntityCounts;
  const bool withNeighbors = neighbors != SlotNeighbors::LeftOut && !counts;
  const bool withRuns = neighbors != SlotNeighbors::Only;
  const PartitionPlan plan = planPartitions(run, mesh, emitting, neighbors, !SlotCell.empty(), slotRows, SlotCount);
  std::vector<DeviceBuffer<cl_int>> tables;
  for (const auto& entry : emitting)
    tables.push_back(run.upload(entry.second->data(), entry.second->size(), "entity table"));
  DeviceBuffer<cl_uint> chunkCounts = countPartitionEntries(run, plan, emitting, tables, SlotOffsets, SlotCell);
  const DeviceBuffer<cl_uint> starts = partitionStarts(run, plan, chunkCounts);

  // 3-5 a batch of partitions at a time, in one workspace for the batch's pairs.
  const PairBatches batches = planBatches(run, plan, starts, SlotCount, withRuns);
  DeviceBuffer<cl_uchar> pairKeys = run.allocate<cl_uchar>(batches.workspacePairs * plan.keyBytes, "partitioned keys");
  // Per-entity counts need no slot: only the keys are sorted then (ENTITY_CELLS).
  SortedSlots = run.allocate<cl_int>(counts ? 0 : batches.workspacePairs, "sorted slots");
  DeviceBuffer<cl_uint> entityCounts = run.allocate<cl_uint>(plan.partitions, "partition entities");
  DeviceBuffer<cl_uint> entityStarts = run.allocate<cl_uint>(plan.partitions, "partition entity starts");
  DeviceBuffer<cl_uint> entityTotal = run.allocate<cl_uint>(1, "entity count");
  run.fill(entityTotal, cl_uint(0), "entity count");
  const auto readEntityCount = [&] {
    cl_uint entities = 0;
    run.download(entityTotal, &entities, 1, "distinct sides and edges");
    EntityCount = entities;
  };
  const bool inPrivate = (std::size_t(1) << plan.shift) <= privateBuckets;
  DeviceBuffer<cl_uint> bucketStarts = run.allocate<cl_uint>(inPrivate ? 1 : plan.points, "bucket starts");
  DeviceBuffer<cl_uint> bucketCursors = run.allocate<cl_uint>(inPrivate ? 1 : plan.points, "bucket cursors");
  for (const auto& [first, end] : batches.ranges)
  {
    const cl_uint pairBase = batches.pairBase(first);
    scatterPartitionEntries(
      run, plan, emitting, tables, SlotOffsets, chunkCounts, first, end, pairBase, pairKeys, SortedSlots);

    // 4. Each partition sorted in place by (key, slot); its entities counted and numbered.
    run.call({ program, "sort_partitions", plan.options }, { end - first, 1 }, "sort partitions", pairKeys,
      SortedSlots, starts, static_cast<cl_int>(first), static_cast<cl_int>(end), pairBase, plan.shift,
      static_cast<cl_uint>(plan.points), bucketStarts, bucketCursors, entityCounts);
    run.call({ program, "number_partition_entities", plan.options }, { 1, 1 }, "number partition entities",
      entityCounts, static_cast<cl_int>(first), static_cast<cl_int>(end), entityStarts, entityTotal);

    // 5. Runs and neighbours.
    if (first == 0)
    {
      if (withRuns) // one batch: every entity is numbered
        readEntityCount();
      EntityVertices = run.allocate<cl_uint4>(withRuns ? EntityCount : 0, "entity vertices");
      EntityCells = run.allocate<cl_uint>(counts ? EntityCount : 0, "entity cells");
      SlotRun = run.allocate<cl_int2>(withRuns && !counts ? SlotCount : 0, "slot runs");
      Neighbor = run.allocate<cl_int>(withNeighbors ? SlotCount : 0, "neighbours");
      SlotEntity = run.allocate<cl_int>(counts ? 0 : SlotCount, "slot entities");
    }
    run.call({ program, "record_partition_entities", plan.options }, { end - first, 1 }, "record partition entities",
      pairKeys, SortedSlots, starts, entityStarts, static_cast<cl_int>(first), static_cast<cl_int>(end), pairBase,
      SlotCell, SlotRun, Neighbor, SlotEntity, EntityVertices, EntityCells);
  }
  if (!withRuns)
  {
    readEntityCount();
    SortedSlots = DeviceBuffer<cl_int>(); // only the sort's: its memory serves what comes next
  }
}

} // namespace gpumesh
