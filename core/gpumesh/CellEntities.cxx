#include "gpumesh/CellEntities.h"

#include "gpumesh/Scan.h"

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

bool variableKindEmits(CellKind kind, EntityType type)
{
  return kind == CellKind::Polygon || (kind == CellKind::PolyLine && type == EntityType::Edges);
}
} // namespace

const std::vector<cl_int>* localEntityTable(CellKind kind, EntityType type)
{
  const bool sides = type == EntityType::Sides;
  switch (kind)
  {
    case CellKind::Line:
      return sides ? nullptr : &lineEdges;
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

CellEntities::CellEntities(DeviceRun& run, const DeviceMesh& mesh, EntityType type)
  : Type(type)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  const char* program = "cell_entities";
  const std::string options = std::string("-DPRIVATE_BUCKET=") + (run.info().isGPU ? "48" : "0");

  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (group.kind == CellKind::TriangleStrip)
    {
      throw Error("The mesh has triangle strips, which have no defined sides or edges here: "
                  "triangulate them first (e.g. the Triangulate filter)");
    }
  }

  // 1. How many slots each cell has, and where they start.
  DeviceBuffer<cl_uint> counts = run.allocate<cl_uint>(cells, "entity counts");
  run.fill(counts, cl_uint(0), "entity counts");
  std::vector<DeviceBuffer<cl_int>> tables;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    const auto count = static_cast<cl_int>(group.count);
    if (const Table* table = localEntityTable(group.kind, type))
    {
      cl::Kernel kernel = run.kernel(program, "count_fixed", options);
      run.setArguments(kernel, group.cellIds, count, static_cast<cl_uint>(table->size() / 4), counts);
      run.launch(kernel, group.count, "count entities");
    }
    else if (variableKindEmits(group.kind, type))
    {
      cl::Kernel kernel = run.kernel(program, "count_variable", options);
      run.setArguments(kernel, group.offsets, group.cellIds, count,
        static_cast<cl_int>(group.kind == CellKind::Polygon), counts);
      run.launch(kernel, group.count, "count entities");
    }
  }
  SlotOffsets = run.allocate<cl_uint>(cells + 1, "slot offsets");
  SlotCount = exclusiveScan(run, counts, cells, SlotOffsets, "cell sides and edges");
  counts.release();

  // 2. Every slot's key, its cell, and how many slots each bucket (smallest vertex) gets.
  DeviceBuffer<cl_uint4> keys = run.allocate<cl_uint4>(SlotCount, "entity keys");
  SlotCell = run.allocate<cl_int>(SlotCount, "slot cells");
  DeviceBuffer<cl_uint> bucketCounts = run.allocate<cl_uint>(points, "bucket counts");
  run.fill(bucketCounts, cl_uint(0), "bucket counts");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    const auto count = static_cast<cl_int>(group.count);
    if (const Table* table = localEntityTable(group.kind, type))
    {
      tables.push_back(run.upload(table->data(), table->size(), "entity table"));
      cl::Kernel kernel = run.kernel(program, "emit_fixed", options);
      run.setArguments(kernel, group.connectivity, static_cast<cl_int>(fixedVertexCount(group.kind)),
        group.cellIds, count, tables.back(), static_cast<cl_int>(table->size() / 4), SlotOffsets,
        keys, SlotCell, bucketCounts);
      run.launch(kernel, group.count, "emit entities");
    }
    else if (variableKindEmits(group.kind, type))
    {
      cl::Kernel kernel = run.kernel(program, "emit_variable", options);
      run.setArguments(kernel, group.offsets, group.connectivity, group.cellIds, count,
        static_cast<cl_int>(group.kind == CellKind::Polygon), SlotOffsets, keys, SlotCell,
        bucketCounts);
      run.launch(kernel, group.count, "emit entities");
    }
  }

  // 3. Slots grouped by bucket.
  DeviceBuffer<cl_uint> bucketOffsets = run.allocate<cl_uint>(points + 1, "bucket offsets");
  exclusiveScan(run, bucketCounts, points, bucketOffsets, "bucket entries");
  run.fill(bucketCounts, cl_uint(0), "bucket cursors");
  SortedSlots = run.allocate<cl_int>(SlotCount, "sorted slots");
  cl::Kernel fill = run.kernel(program, "fill_buckets", options);
  run.setArguments(fill, keys, static_cast<cl_int>(SlotCount), bucketOffsets, bucketCounts, SortedSlots);
  run.launch(fill, SlotCount, "fill buckets");

  // 4. Matching inside each bucket.
  SlotRun = run.allocate<cl_int2>(SlotCount, "slot runs");
  Neighbor = run.allocate<cl_int>(SlotCount, "neighbours");
  DeviceBuffer<cl_uint>& runsPerBucket = bucketCounts; // the cursors are no longer needed
  cl::Kernel match = run.kernel(program, "match_buckets", options);
  run.setArguments(match, keys, bucketOffsets, static_cast<cl_int>(points), SortedSlots, SlotCell,
    SlotRun, Neighbor, runsPerBucket);
  run.launch(match, points, "match buckets");

  // 5. Entity numbers.
  DeviceBuffer<cl_uint> entityOffsets = run.allocate<cl_uint>(points + 1, "entity offsets");
  EntityCount = exclusiveScan(run, runsPerBucket, points, entityOffsets, "distinct sides and edges");
  SlotEntity = run.allocate<cl_int>(SlotCount, "slot entities");
  EntityVertices = run.allocate<cl_uint4>(EntityCount, "entity vertices");
  cl::Kernel number = run.kernel(program, "number_entities", options);
  run.setArguments(number, keys, bucketOffsets, static_cast<cl_int>(points), SortedSlots, SlotRun,
    entityOffsets, SlotEntity, EntityVertices);
  run.launch(number, points, "number entities");
}

} // namespace gpumesh
