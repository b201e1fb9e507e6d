#include "gpumesh/topology/CellEntities.h"

#include "gpumesh/primitives/RadixSort.h"
#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/CellEntityWindows.h"

#include <algorithm>
#include <string>
#include <vector>

namespace gpumesh
{

namespace
{
// Local vertex indices of each edge or face, in VTK's order; -1 pads to 4.
using Table = std::vector<cl_int>;

const Table triangleEdges = { 0, 1, -1, -1, 1, 2, -1, -1, 2, 0, -1, -1 };
const Table quadEdges = { 0, 1, -1, -1, 1, 2, -1, -1, 2, 3, -1, -1, 3, 0, -1, -1 };
const Table lineEdges = { 0, 1, -1, -1 };
const Table tetraEdges = { 0, 1, -1, -1, 1, 2, -1, -1, 2, 0, -1, -1, 0, 3, -1, -1, 1, 3, -1, -1,
  2, 3, -1, -1 };
const Table hexahedronEdges = { 0, 1, -1, -1, 1, 2, -1, -1, 3, 2, -1, -1, 0, 3, -1, -1, 4, 5, -1,
  -1, 5, 6, -1, -1, 7, 6, -1, -1, 4, 7, -1, -1, 0, 4, -1, -1, 1, 5, -1, -1, 3, 7, -1, -1, 2, 6,
  -1, -1 };
const Table wedgeEdges = { 0, 1, -1, -1, 1, 2, -1, -1, 2, 0, -1, -1, 3, 4, -1, -1, 4, 5, -1, -1,
  5, 3, -1, -1, 0, 3, -1, -1, 1, 4, -1, -1, 2, 5, -1, -1 };
const Table pyramidEdges = { 0, 1, -1, -1, 1, 2, -1, -1, 2, 3, -1, -1, 3, 0, -1, -1, 0, 4, -1, -1,
  1, 4, -1, -1, 2, 4, -1, -1, 3, 4, -1, -1 };
const Table tetraFaces = { 0, 1, 3, -1, 1, 2, 3, -1, 2, 0, 3, -1, 0, 2, 1, -1 };
const Table hexahedronFaces = { 0, 4, 7, 3, 1, 2, 6, 5, 0, 1, 5, 4, 3, 7, 6, 2, 0, 3, 2, 1, 4, 5,
  6, 7 };
const Table wedgeFaces = { 0, 1, 2, -1, 3, 5, 4, -1, 0, 3, 4, 1, 1, 4, 5, 2, 2, 5, 3, 0 };
const Table pyramidFaces = { 0, 3, 2, 1, 0, 1, 4, -1, 1, 2, 4, -1, 2, 3, 4, -1, 3, 0, 4, -1 };

// Buckets up to this many slots are ranked in place (each entry by its own work-item, reading
// its bucket from cache), larger ones sorted together by the radix sort. Random numberings of
// tetrahedra give many buckets of 64 to 256 slots (a smallest id owns all its faces and
// edges): ranked rather than radix-sorted, 10M such tetrahedra build their sides in 8.9 ms
// instead of 14.1 and their edges in 25.7 instead of 36.7 on an H200 (row order and triangles
// unchanged; measured with gpumesh-benchmark when this was introduced).
const char* const bucketOptions = "-DSMALL_BUCKET=256";

// The most vertex ids in one entity of the mesh: 2 (edges), 3 (triangle faces) or 4.
int keyComponents(const DeviceMesh& mesh, EntityType type)
{
  int components = 2;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (const Table* table = localEntityTable(group.kind, type))
    {
      for (std::size_t e = 0; e < table->size(); e += 4)
      {
        components = std::max(components, (*table)[e + 2] < 0 ? 2 : (*table)[e + 3] < 0 ? 3 : 4);
      }
    }
  }
  return components;
}

} // namespace

// The build options of the matching's one program (cell_entities.cl): `all` for its kernels,
// and for those that read cells (CELL_ARGS) `ofGroup`, with each group's kind beside them when
// the mesh has several kinds (one kind is in `all` already: the whole matching one program).
struct CellEntities::MatchingOptions
{
  MatchingOptions(const DeviceMesh& mesh, EntityType type, const EmittingGroups& emitting, std::size_t slotRows)
    : components(keyComponents(mesh, type))
    , all(std::string(bucketOptions) + " -DKEY_COMPONENTS=" + std::to_string(components))
  {
    // A slot's cell is computed, not looked up, when one fixed-size kind fills the mesh.
    if (slotRows > 0)
      all += " -DSLOT_ROWS=" + std::to_string(slotRows);
    if (emitting.size() == 1)
      all += " " + cellKindOptions(*emitting.front().first);
    for (const auto& entry : emitting)
      ofGroup.push_back(emitting.size() == 1 ? all : all + " " + cellKindOptions(*entry.first));
  }
  int components; // the most vertex ids in one entity (keyComponents)
  std::string all;
  std::vector<std::string> ofGroup;
};

namespace
{

// Sorts the slots of all large buckets by (key, slot) with the device radix sort and puts them
// back in their buckets' places of sortedSlots, marking their run heads. Least significant
// first: the keys' (z, w) or z, then (x, y); each vertex id (and NONE, as pointCount) in
// bitWidth(pointCount) bits. The heads' keys go to headKeys unless it is empty.
void sortLargeBuckets(DeviceRun& run, const DeviceBuffer<cl_uint4>& keys, const DeviceBuffer<cl_uint>& bucketOffsets,
  const DeviceBuffer<cl_uint>& largeOffsets, std::size_t largeCount, std::size_t pointCount, int components,
  DeviceBuffer<cl_int>& sortedSlots, DeviceBuffer<cl_uint>& heads, DeviceBuffer<cl_uint4>& headKeys,
  const std::string& options)
{
  DeviceRun::ScopedLabel label(run, "sort large buckets");
  const char* program = "cell_entities";
  const std::size_t slots = keys.size();
  const auto count = static_cast<cl_int>(largeCount);

  // The large buckets' slots in slot order, which the stable sort keeps for equal keys.
  DeviceBuffer<cl_uint> flags = run.allocate<cl_uint>(slots, "large slot flags");
  run.call({ program, "flag_large_slots", options }, slots, "flag large slots", keys,
    static_cast<cl_int>(slots), bucketOffsets, flags);
  DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(slots + 1, "large slot places");
  exclusiveScan(run, flags, slots, places, "slots of large buckets");
  flags.release();
  DeviceBuffer<cl_uint> values = run.allocate<cl_uint>(largeCount, "large slots");
  run.call({ program, "gather_large_slots", options }, slots, "gather large slots",
    static_cast<cl_int>(slots), places, values);
  places.release();

  const auto bits = bitWidth(pointCount);
  DeviceBuffer<cl_ulong> packed = run.allocate<cl_ulong>(largeCount, "large slot keys");
  const auto sortBy = [&](int first, int componentCount) {
    run.call({ program, "pack_keys", options }, largeCount, "pack keys", keys, values, count, cl_int(first),
      cl_int(componentCount), cl_uint(bits), static_cast<cl_uint>(pointCount), packed);
    sortByKey(run, packed, values, largeCount, bits * static_cast<unsigned>(componentCount), "large bucket slots");
  };
  if (components > 2)
  {
    sortBy(2, components - 2);
  }
  sortBy(0, 2);

  run.call({ program, "place_large_slots", options }, largeCount, "place large slots", keys, values, count,
    bucketOffsets, largeOffsets, sortedSlots, heads, headKeys.size() ? headKeys : keys, cl_int(headKeys.size() > 0));
}
} // namespace

const std::vector<cl_int>* localEntityTable(CellKind kind, EntityType type)
{
  const bool sides = type == EntityType::Sides;
  switch (kind)
  {
    case CellKind::Line:
      return sides ? nullptr : &lineEdges;
    case CellKind::PolyLine:
      return sides ? nullptr : &lineEdges; // turned to each edge
    case CellKind::Polygon:
      return &lineEdges; // turned to each edge
    case CellKind::Triangle:
      return &triangleEdges;
    case CellKind::Quad:
      return &quadEdges;
    case CellKind::Tetra:
      return sides ? &tetraFaces : &tetraEdges;
    case CellKind::Hexahedron:
      return sides ? &hexahedronFaces : &hexahedronEdges;
    case CellKind::Wedge:
      return sides ? &wedgeFaces : &wedgeEdges;
    case CellKind::Pyramid:
      return sides ? &pyramidFaces : &pyramidEdges;
    default:
      return nullptr;
  }
}

CellEntities::CellEntities(DeviceRun& run, const DeviceMesh& mesh, EntityType type, AccessPattern pattern,
  SlotNeighbors neighbors, SlotGrouping grouping)
  : Type(type)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  const char* program = "cell_entities";

  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (group.kind == CellKind::TriangleStrip)
    {
      throw Error("The mesh has triangle strips, which have no defined sides or edges here: "
                  "triangulate them first (e.g. the Triangulate filter)");
    }
  }

  EmittingGroups emitting;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (const Table* table = localEntityTable(group.kind, type))
      emitting.emplace_back(&group, table);
  }

  // 1. How many slots each cell has, and where they start: a multiple of the cell id when one
  // fixed-size kind fills the mesh (`slotRows` per cell), else a scan of the counts.
  SlotOffsets = run.allocate<cl_uint>(cells + 1, "slot offsets");
  const DeviceCellGroup* sole = mesh.soleFixedSizeGroup();
  const std::size_t slotRows = sole && !emitting.empty() ? emitting.front().second->size() / 4 : 0;
  const MatchingOptions matching(mesh, Type, emitting, slotRows);
  if (slotRows > 0)
  {
    checkIndexSpace(static_cast<std::int64_t>(cells * slotRows), "cell sides and edges");
    // In the sequence program, which every mesh import loads: CPU devices then load no
    // program of the buckets' way (each program loaded costs milliseconds there).
    run.call({ "sequence", "multiples" }, cells + 1, "count entities", static_cast<cl_int>(cells + 1),
      static_cast<cl_uint>(slotRows), SlotOffsets);
    SlotCount = cells * slotRows;
  }
  else
  {
    DeviceBuffer<cl_uint> counts = run.allocate<cl_uint>(cells, "entity counts");
    run.fill(counts, cl_uint(0), "entity counts");
    for (std::size_t g = 0; g < emitting.size(); ++g)
    {
      const auto& [group, table] = emitting[g];
      run.call({ program, "count_entities", matching.ofGroup[g] }, group->count, "count entities", CellArgs{ *group },
        static_cast<cl_int>(table->size() / 4), cl_int(group->kind == CellKind::PolyLine), counts);
    }
    SlotCount = exclusiveScan(run, counts, cells, SlotOffsets, "cell sides and edges");
  }
  if (isContiguous(pattern, run.info().isGPU))
  {
    // With neighbours only, a slot's cell is its slot divided by the rows when one fixed-size
    // kind fills the mesh: no slot cells then.
    const bool slotCells = neighbors == SlotNeighbors::Kept || (neighbors == SlotNeighbors::Only && !slotRows);
    SlotCell = run.allocate<cl_int>(slotCells ? SlotCount : 0, "slot cells");
    matchInPartitions(run, mesh, emitting, neighbors, slotRows);
    if (neighbors == SlotNeighbors::Only)
      SlotCell = DeviceBuffer<cl_int>();
    if (neighbors == SlotNeighbors::EntityCounts)
      releaseSlots();
    return;
  }
  // The buckets' way needs the slots' cells on the way: they go at the end.
  SlotCell = run.allocate<cl_int>(SlotCount, "slot cells");
  matchInBuckets(run, mesh, emitting, grouping, slotRows, matching);
  if (neighbors != SlotNeighbors::Kept)
    SlotCell = DeviceBuffer<cl_int>();
  if (neighbors == SlotNeighbors::LeftOut)
    Neighbor = DeviceBuffer<cl_int>();
  if (neighbors == SlotNeighbors::Only)
  {
    SortedSlots = DeviceBuffer<cl_int>();
    SlotRun = DeviceBuffer<cl_int2>();
    EntityVertices = DeviceBuffer<cl_uint4>();
  }
  if (neighbors == SlotNeighbors::EntityCounts)
  {
    EntityCells = run.allocate<cl_uint>(EntityCount, "entity cells");
    run.call({ program, "entity_cells_from_runs", matching.all }, SlotCount, "number entities", SlotRun, SortedSlots,
      SlotEntity, static_cast<cl_int>(SlotCount), EntityCells);
    releaseSlots();
  }
}

void CellEntities::matchInBuckets(DeviceRun& run, const DeviceMesh& mesh, const EmittingGroups& emitting,
  SlotGrouping grouping, std::size_t slotRows, const MatchingOptions& matching)
{
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  const char* program = "cell_entities";
  const std::string& options = matching.all;
  const int components = matching.components;
  SlotWindows slotWindows(run, components, slotRows, bucketOptions);
  bool throughWindows = grouping == SlotGrouping::Windows;
  if (grouping == SlotGrouping::Auto && !emitting.empty())
  {
    const auto largest = std::max_element(emitting.begin(), emitting.end(),
      [](const auto& a, const auto& b) { return a.first->count < b.first->count; });
    throughWindows = slotWindows.pay(*largest->first, SlotCount, points);
  }

  // 2. Every slot's key, its cell, and how many slots each bucket (smallest vertex) gets, or,
  // through windows, each window of buckets.
  DeviceBuffer<cl_uint4> keys = run.allocate<cl_uint4>(SlotCount, "entity keys");
  DeviceBuffer<cl_uint> bucketCounts = run.allocate<cl_uint>(points, "bucket counts");
  const std::size_t windows = throughWindows ? slotWindows.keyWindows() : 0;
  DeviceBuffer<cl_uint> windowCounts = run.allocate<cl_uint>(windows, "window counts");
  DeviceBuffer<cl_uint>& counts = throughWindows ? windowCounts : bucketCounts;
  run.fill(counts, cl_uint(0), throughWindows ? "window counts" : "bucket counts");
  // A window takes one atomic per work-group: large work-groups then (a few per compute unit,
  // each work-item stepping over the cells a grid apart, took 2.1 ms instead of 1.9 for 30M
  // triangles on an H200).
  const std::size_t emitGroup = throughWindows ? run.device().workGroupSize(1024) : 0;
  const cl_uint windowShift = throughWindows ? slotWindows.keyWindowShift(points) : 0;
  std::vector<DeviceBuffer<cl_int>> tables;
  for (std::size_t g = 0; g < emitting.size(); ++g)
  {
    const auto& [group, table] = emitting[g];
    tables.push_back(run.upload(table->data(), table->size(), "entity table"));
    const auto cellCount = static_cast<std::size_t>(group->count);
    const LaunchRange range = emitGroup ? LaunchRange((cellCount + emitGroup - 1) / emitGroup * emitGroup, emitGroup)
                                        : LaunchRange(cellCount);
    run.call({ program, "emit_entities", matching.ofGroup[g] }, range, "emit entities", CellArgs{ *group },
      tables.back(), static_cast<cl_int>(table->size() / 4), SlotOffsets, keys, SlotCell, counts, windowShift,
      static_cast<cl_uint>(windows), LocalMemory{ std::max<std::size_t>(windows, 1) * sizeof(cl_uint) });
  }

  // 3. Slots grouped by bucket as sort entries; each entry of a small bucket finds its place in
  // the bucket's (key, slot) order and whether it starts a run of equal keys.
  DeviceBuffer<cl_uint> bucketOffsets = run.allocate<cl_uint>(points + 1, "bucket offsets");
  SortedSlots = run.allocate<cl_int>(SlotCount, "sorted slots");
  DeviceBuffer<cl_uint> heads = run.allocate<cl_uint>(SlotCount, "run heads");
  DeviceBuffer<cl_uint>& largeSizes = bucketCounts; // the counts are done with
  DeviceBuffer<cl_uint> largeSlotCount = run.allocate<cl_uint>(1, "slots of large buckets");
  run.fill(largeSlotCount, cl_uint(0), "slots of large buckets");
  // Through windows, the sort leaves each run head's key at its sorted position (numbering the
  // entities reads it there).
  DeviceBuffer<cl_uint4> headKeys;
  if (throughWindows)
  {
    headKeys = slotWindows.sortBuckets(
      keys, windowCounts, points, bucketOffsets, SortedSlots, heads, largeSizes, largeSlotCount);
  }
  else
  {
    exclusiveScan(run, bucketCounts, points, bucketOffsets, "bucket entries");
    DeviceBuffer<cl_uint4> entries = run.allocate<cl_uint4>(SlotCount, "bucket entries");
    // Keys of up to three vertices carry their bucket in the entry itself.
    DeviceBuffer<cl_uint> entryBucket = run.allocate<cl_uint>(components < 4 ? 1 : SlotCount, "entry buckets");
    DeviceBuffer<cl_uint>& cursors = bucketCounts;
    run.copy(bucketOffsets, cursors, points, "bucket cursors");
    run.call({ program, "fill_buckets", options }, SlotCount, "fill buckets", keys,
      static_cast<cl_int>(SlotCount), cursors, entries, entryBucket);
    run.fill(largeSizes, cl_uint(0), "large bucket sizes");
    run.call({ program, "rank_small_buckets", options }, SlotCount, "sort small buckets", entries, entryBucket,
      bucketOffsets, static_cast<cl_int>(SlotCount), SortedSlots, heads, largeSizes, largeSlotCount);
  }

  // 4. The large buckets' slots, sorted together (most meshes have none: no scan then).
  cl_uint largeSlotTotal = 0;
  run.download(largeSlotCount, &largeSlotTotal, 1, "slots of large buckets");
  if (largeSlotTotal > 0)
  {
    DeviceBuffer<cl_uint> largeOffsets = run.allocate<cl_uint>(points + 1, "large bucket offsets");
    const std::size_t largeSlots = exclusiveScan(run, largeSizes, points, largeOffsets, "slots of large buckets");
    sortLargeBuckets(run, keys, bucketOffsets, largeOffsets, largeSlots, points, components, SortedSlots, heads,
      headKeys, options);
  }
  bucketCounts.release();
  bucketOffsets.release();

  // 5. Runs of equal keys: entities, numbered in sorted order, and each slot's run.
  DeviceBuffer<cl_uint> entityOffsets = run.allocate<cl_uint>(SlotCount + 1, "entity offsets");
  EntityCount = exclusiveScan(run, heads, SlotCount, entityOffsets, "distinct sides and edges");
  heads.release();
  EntityVertices = run.allocate<cl_uint4>(EntityCount, "entity vertices");
  SlotRun = run.allocate<cl_int2>(SlotCount, "slot runs");
  Neighbor = run.allocate<cl_int>(SlotCount, "neighbours");
  SlotEntity = run.allocate<cl_int>(SlotCount, "slot entities");
  if (throughWindows)
  {
    keys.release();
    slotWindows.recordRuns(
      SortedSlots, entityOffsets, headKeys, SlotCell, EntityVertices, SlotRun, Neighbor, SlotEntity);
    return;
  }
  DeviceBuffer<cl_int> runStart = run.allocate<cl_int>(EntityCount + 1, "run starts");
  run.call({ program, "record_entities", options }, SlotCount, "number entities", keys, SortedSlots,
    static_cast<cl_int>(SlotCount), entityOffsets, runStart, EntityVertices);
  keys.release();
  run.call({ program, "record_runs", options }, SlotCount, "record runs", SortedSlots,
    static_cast<cl_int>(SlotCount), entityOffsets, runStart, SlotCell, SlotRun, Neighbor, SlotEntity);
}

void CellEntities::release()
{
  releaseSlots();
  EntityVertices.release();
  EntityCells.release();
}

void CellEntities::releaseSlots()
{
  SlotOffsets.release();
  SlotCell.release();
  SortedSlots.release();
  SlotRun.release();
  Neighbor.release();
  SlotEntity.release();
}

} // namespace gpumesh
