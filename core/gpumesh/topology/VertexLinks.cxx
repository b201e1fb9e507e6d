#include "gpumesh/topology/VertexLinks.h"

#include <algorithm>
#include <limits>

namespace gpumesh
{

namespace
{
// The pairs' kernels (vertex_links.cl) are in the program of the tables they fill.
const char* program = "vertex_table";

std::size_t checkedPairs(std::uint64_t pairs, const char* what)
{
  if (pairs > static_cast<std::uint64_t>(std::numeric_limits<cl_int>::max()))
  {
    throw Error("The mesh needs " + std::to_string(pairs) + " " + what +
      ", more than the 2^31-1 that the device's 32-bit indices can address");
  }
  return static_cast<std::size_t>(pairs);
}
} // namespace

namespace
{
// Both directions of every edge, the pairs of vertexNeighbors' table.
DeviceBuffer<cl_int2> edgePairs(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& edges)
{
  // The sides of a mesh of 2D cells are its edges (the same tables, the same entities).
  const bool surface = std::all_of(mesh.groups().begin(), mesh.groups().end(),
    [](const DeviceCellGroup& group) { return cellDimension(group.kind) == 2; });
  if (edges.type() != EntityType::Edges && !surface)
  {
    throw Error("vertex neighbours need the cells' edges, not their sides");
  }
  const std::size_t count = checkedPairs(2 * static_cast<std::uint64_t>(edges.entityCount()), "edge ends");
  DeviceBuffer<cl_int2> pairs = run.allocate<cl_int2>(count, "edge pairs");
  run.call({ program, "edge_pairs" }, edges.entityCount(), "vertex link pairs", edges.entityVertices(),
    static_cast<cl_int>(edges.entityCount()), pairs);
  return pairs;
}
} // namespace

VertexTable vertexNeighbors(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& edges,
  const VertexTableLayout& layout)
{
  const DeviceBuffer<cl_int2> pairs = edgePairs(run, mesh, edges);
  return VertexTable(run, static_cast<std::size_t>(mesh.pointCount()), pairs, pairs.size(), layout);
}

VertexTable vertexNeighbors(DeviceRun& run, const DeviceMesh& mesh, CellEntities&& edges,
  const VertexTableLayout& layout)
{
  const DeviceBuffer<cl_int2> pairs = edgePairs(run, mesh, edges);
  edges.release();
  return VertexTable(run, static_cast<std::size_t>(mesh.pointCount()), pairs, pairs.size(), layout);
}

VertexTable vertexCells(DeviceRun& run, const DeviceMesh& mesh, const VertexTableLayout& layout)
{
  // Pairs follow the connectivity tables group after group.
  std::uint64_t total = 0;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    total += group.connectivity.size();
  }
  const std::size_t count = checkedPairs(total, "cell corners");
  DeviceBuffer<cl_int2> pairs = run.allocate<cl_int2>(count, "cell pairs");
  cl_uint first = 0;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    run.call({ program, "cell_pairs" }, group.count, "vertex link pairs", CellArgs{ group }, first, pairs);
    first += static_cast<cl_uint>(group.connectivity.size());
  }
  return VertexTable(run, static_cast<std::size_t>(mesh.pointCount()), pairs, count, layout);
}

VertexTable boundaryNeighbors(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& sides,
  const VertexTableLayout& layout)
{
  if (sides.type() != EntityType::Sides)
  {
    throw Error("boundary neighbours need the cells' sides, not their edges");
  }
  // Room for 8 pairs per side (up to 4 edges, both ways); what a side does not use is (-1, -1).
  const std::size_t count = checkedPairs(8 * static_cast<std::uint64_t>(sides.slotCount()), "boundary edge ends");
  DeviceBuffer<cl_int2> pairs = run.allocate<cl_int2>(count, "boundary pairs");
  std::vector<DeviceBuffer<cl_int>> tables;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (const std::vector<cl_int>* table = localEntityTable(group.kind, EntityType::Sides))
    {
      tables.push_back(run.upload(table->data(), table->size(), "side table"));
      run.call({ program, "boundary_pairs" }, group.count, "vertex link pairs", CellArgs{ group }, tables.back(),
        static_cast<cl_int>(table->size() / 4), sides.slotOffsets(), sides.slotRun(), pairs);
    }
  }
  return VertexTable(run, static_cast<std::size_t>(mesh.pointCount()), pairs, count, layout);
}

} // namespace gpumesh
