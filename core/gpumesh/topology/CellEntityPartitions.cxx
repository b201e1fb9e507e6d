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
} // namespace

void CellEntities::matchInPartitions(DeviceRun& run, const DeviceMesh& mesh, const EmittingGroups& emitting,
  SlotNeighbors neighbors, std::size_t slotRows)
{
  const bool withNeighbors = neighbors != SlotNeighbors::LeftOut;
  const bool slotCells = !SlotCell.empty();
  const bool withRuns = neighbors != SlotNeighbors::Only;
  const char* program = "cell_entity_partitions";
  // Keys of 2 vertex ids when every entity has 2 (edges; sides of 2D cells), else 4.
  bool twoVertices = true;
  for (const auto& entry : emitting)
  {
    const std::vector<cl_int>& table = *entry.second;
    for (std::size_t row = 0; row < table.size(); row += 4)
      twoVertices = twoVertices && table[row + 2] < 0;
  }
  // Without stored slot cells a slot's cell is computed (when neighbours are wanted, the caller
  // stores none only with one fixed-size kind).
  const std::string options = std::string("-DSMALL_BUCKET=8 -DRANK_SORT=128 -DSTAGED_PAIRS=1024 -DKEY_COMPONENTS=") +
    (twoVertices ? "2" : "4") + " -DWITH_NEIGHBORS=" + (withNeighbors ? "1" : "0") + " -DSLOT_CELLS=" +
    (slotCells ? "1" : "0") + (!slotCells && slotRows > 0 ? " -DSLOT_ROWS=" + std::to_string(slotRows) : "") +
    " -DWITH_RUNS=" + (withRuns ? "1" : "0");
  const std::size_t keyBytes = twoVertices ? sizeof(cl_uint2) : sizeof(cl_uint4);
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  const std::size_t units = static_cast<std::size_t>(std::max(run.info().computeUnits, 1));

  // Chunks of cells, per group; chunk rows of chunkCounts follow the groups' order.
  struct Chunks
  {
    std::size_t cells = 0; // per chunk
    std::size_t count = 0;
    std::size_t first = 0; // row of the group's first chunk
  };
  std::vector<Chunks> chunks;
  std::size_t chunkRows = 0;
  for (const auto& entry : emitting)
  {
    const std::size_t cells = entry.first->count;
    const std::size_t chunkCount = std::clamp<std::size_t>(divideUp(cells, smallestChunk), 1, chunksPerUnit * units);
    Chunks c;
    c.cells = divideUp(cells, chunkCount);
    c.count = cells ? divideUp(cells, c.cells) : 0;
    c.first = chunkRows;
    chunkRows += c.count;
    chunks.push_back(c);
  }

  // Vertex ranges of 2^shift ids (a shift, not a division, finds a vertex's partition); the last
  // one may be shorter.
  const std::size_t fewestSlots = std::max(slotsPerPartition, chunkRows * slotsPerCounter);
  const std::size_t wanted = std::max<std::size_t>(1, std::min(points, divideUp(SlotCount, fewestSlots)));
  cl_uint shift = 0;
  while ((std::size_t(1) << shift) * wanted < points)
    ++shift;
  const std::size_t partitions = divideUp(points, std::size_t(1) << shift);

  std::vector<DeviceBuffer<cl_int>> tables;
  for (const auto& entry : emitting)
    tables.push_back(run.upload(entry.second->data(), entry.second->size(), "entity table"));

  // 1. Each chunk's entities per partition, and every slot's cell.
  DeviceBuffer<cl_uint> chunkCounts = run.allocate<cl_uint>(std::max<std::size_t>(chunkRows * partitions, 1), "chunk counts");
  for (std::size_t g = 0; g < emitting.size(); ++g)
  {
    const DeviceCellGroup& group = *emitting[g].first;
    run.call({ program, "count_partition_entries", options + " " + cellKindOptions(group) }, { chunks[g].count, 1 }, "count partition entries",
      CellArgs{ group }, tables[g], static_cast<cl_int>(emitting[g].second->size() / 4), SlotOffsets,
      static_cast<cl_int>(chunks[g].cells), static_cast<cl_int>(chunks[g].first), shift,
      static_cast<cl_int>(partitions), SlotCell, chunkCounts);
  }

  // 2. Where the pairs of each (partition, chunk) go.
  DeviceBuffer<cl_uint> totals = run.allocate<cl_uint>(partitions, "partition sizes");
  run.call({ program, "partition_totals", options }, partitions, "partition offsets", chunkCounts,
    static_cast<cl_int>(chunkRows), static_cast<cl_int>(partitions), totals);
  DeviceBuffer<cl_uint> partitionStarts = run.allocate<cl_uint>(partitions + 1, "partition starts");
  exclusiveScan(run, totals, partitions, partitionStarts, "slots of partitions", AccessPattern::Contiguous);
  totals.release();
  run.call({ program, "chunk_cursors", options }, partitions, "partition offsets", chunkCounts,
    static_cast<cl_int>(chunkRows), static_cast<cl_int>(partitions), partitionStarts);

  // 3-5 a batch of partitions at a time (one batch unless only neighbours are wanted, whose
  // pairs are needed only here), in one workspace for the batch's pairs.
  const std::size_t pairBytes = keyBytes + sizeof(cl_int);
  std::vector<std::pair<std::size_t, std::size_t>> batches{ { 0, partitions } };
  std::vector<cl_uint> pairStarts;
  if (!withRuns && SlotCount * pairBytes > pairBudgetBytes)
  {
    pairStarts.resize(partitions + 1);
    run.download(partitionStarts, pairStarts.data(), pairStarts.size(), "partition starts");
    // Batches of about equal numbers of pairs: each ends at the first partition that reaches its
    // share.
    const std::size_t batchCount = std::min(maxBatches, divideUp(SlotCount * pairBytes, pairBudgetBytes));
    batches.clear();
    for (std::size_t first = 0, k = 1; first < partitions; ++k)
    {
      const std::size_t share = SlotCount * k / batchCount;
      std::size_t end = first + 1;
      while (end < partitions && pairStarts[end] < share)
        ++end;
      batches.emplace_back(first, end);
      first = end;
    }
  }
  std::size_t workspacePairs = SlotCount;
  if (!pairStarts.empty())
  {
    workspacePairs = 0;
    for (const auto& [first, end] : batches)
      workspacePairs = std::max<std::size_t>(workspacePairs, pairStarts[end] - pairStarts[first]);
  }
  DeviceBuffer<cl_uchar> pairKeys = run.allocate<cl_uchar>(workspacePairs * keyBytes, "partitioned keys");
  SortedSlots = run.allocate<cl_int>(workspacePairs, "sorted slots");
  DeviceBuffer<cl_uint> entityCounts = run.allocate<cl_uint>(partitions, "partition entities");
  DeviceBuffer<cl_uint> entityStarts = run.allocate<cl_uint>(partitions, "partition entity starts");
  DeviceBuffer<cl_uint> entityTotal = run.allocate<cl_uint>(1, "entity count");
  run.fill(entityTotal, cl_uint(0), "entity count");
  const auto readEntityCount = [&] {
    cl_uint entities = 0;
    run.download(entityTotal, &entities, 1, "distinct sides and edges");
    EntityCount = entities;
  };
  const bool inPrivate = (std::size_t(1) << shift) <= privateBuckets;
  DeviceBuffer<cl_uint> bucketStarts = run.allocate<cl_uint>(inPrivate ? 1 : points, "bucket starts");
  DeviceBuffer<cl_uint> bucketCursors = run.allocate<cl_uint>(inPrivate ? 1 : points, "bucket cursors");
  const std::string sortOptions = options + " -DPRIVATE_BUCKETS=" + std::to_string(inPrivate ? privateBuckets : 0);
  for (const auto& [first, end] : batches)
  {
    const auto firstPartition = static_cast<cl_uint>(first);
    const auto endPartition = static_cast<cl_uint>(end);
    const cl_uint pairBase = pairStarts.empty() ? 0 : pairStarts[first];
    // 3. The batch's (key, slot) pairs, grouped by partition.
    for (std::size_t g = 0; g < emitting.size(); ++g)
    {
      const DeviceCellGroup& group = *emitting[g].first;
      run.call({ program, "scatter_partition_entries", options + " " + cellKindOptions(group) },
        { chunks[g].count, 1 }, "scatter partition entries", CellArgs{ group }, tables[g],
        static_cast<cl_int>(emitting[g].second->size() / 4), SlotOffsets, static_cast<cl_int>(chunks[g].cells),
        static_cast<cl_int>(chunks[g].first), shift, static_cast<cl_int>(partitions), chunkCounts, firstPartition,
        endPartition, pairBase, pairKeys, SortedSlots);
    }

    // 4. Each partition sorted in place by (key, slot); its entities counted and numbered.
    run.call({ program, "sort_partitions", sortOptions }, { end - first, 1 }, "sort partitions", pairKeys,
      SortedSlots, partitionStarts, static_cast<cl_int>(first), static_cast<cl_int>(end), pairBase, shift,
      static_cast<cl_uint>(points), bucketStarts, bucketCursors, entityCounts);
    run.call({ program, "number_partition_entities", options }, { 1, 1 }, "number partition entities",
      entityCounts, static_cast<cl_int>(first), static_cast<cl_int>(end), entityStarts, entityTotal);

    // 5. Runs and neighbours.
    if (SlotEntity.empty())
    {
      if (withRuns) // one batch: every entity is numbered
        readEntityCount();
      EntityVertices = run.allocate<cl_uint4>(withRuns ? EntityCount : 0, "entity vertices");
      SlotRun = run.allocate<cl_int2>(withRuns ? SlotCount : 0, "slot runs");
      Neighbor = run.allocate<cl_int>(withNeighbors ? SlotCount : 0, "neighbours");
      SlotEntity = run.allocate<cl_int>(SlotCount, "slot entities");
    }
    run.call({ program, "record_partition_entities", options }, { end - first, 1 }, "record partition entities",
      pairKeys, SortedSlots, partitionStarts, entityStarts, static_cast<cl_int>(first), static_cast<cl_int>(end),
      pairBase, SlotCell, SlotRun, Neighbor, SlotEntity, EntityVertices);
  }
  if (!withRuns)
  {
    readEntityCount();
    SortedSlots = DeviceBuffer<cl_int>(); // only the sort's: its memory serves what comes next
  }
}

} // namespace gpumesh
