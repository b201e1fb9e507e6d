#include "gpumesh/algorithms/SurfaceExtraction.h"

#include "gpumesh/primitives/Scan.h"
#include "gpumesh/runtime/IndexSpace.h"
#include "gpumesh/topology/CellEntities.h"

#include <limits>

namespace gpumesh
{

namespace
{
// A 3D group's boundary faces counted, before any is written.
struct CountedGroup
{
  const DeviceCellGroup* group;
  const std::vector<cl_int>* table;
  DeviceBuffer<cl_uint> places; ///< count + 1: where each cell's faces go within the group's
  std::size_t faces;
};
} // namespace

BoundaryFaces extractBoundaryFaces(DeviceRun& run, const DeviceMesh& mesh, std::int64_t cellLimit)
{
  DeviceRun::ScopedLabel label(run, "boundary faces");
  BoundaryFaces result;
  if (cellLimit > std::numeric_limits<cl_int>::max())
  {
    throw Error("The cell limit " + std::to_string(cellLimit) + " of the boundary faces is beyond 32-bit cell ids");
  }
  bool volumes = false;
  for (const DeviceCellGroup& group : mesh.groups())
    volumes = volumes || cellDimension(group.kind) == 3;
  if (!volumes)
  {
    return result;
  }
  const char* program = "surface_extraction";
  // Only the runs are read: each cell finds its own slots through the offsets.
  const CellEntities sides(run, mesh, EntityType::Sides, AccessPattern::Auto, SlotNeighbors::LeftOut);
  const auto limit = static_cast<cl_int>(cellLimit < 0 ? -1 : cellLimit);

  // 1. Per 3D group: each cell's boundary faces counted and placed.
  std::vector<CountedGroup> counted;
  std::size_t total = 0;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (cellDimension(group.kind) != 3 || group.count == 0)
      continue;
    const std::vector<cl_int>* table = localEntityTable(group.kind, EntityType::Sides);
    const auto rows = static_cast<cl_int>(table->size() / 4);
    DeviceBuffer<cl_uint> counts = run.allocate<cl_uint>(group.count, "boundary face counts");
    run.call({ program, "count_boundary_faces", cellKindOptions(group) }, group.count, "count boundary faces",
      CellArgs{ group }, rows, sides.slotOffsets(), sides.slotRun(), limit, counts);
    DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(group.count + 1, "boundary face places");
    const auto faces = static_cast<std::size_t>(exclusiveScan(run, counts, group.count, places, "boundary faces"));
    counted.push_back({ &group, table, std::move(places), faces });
    total += faces;
  }
  checkIndexSpace(static_cast<std::int64_t>(total), "boundary faces");

  // 2. The faces written group after group, then brought back.
  DeviceBuffer<cl_int> faceCells = run.allocate<cl_int>(total, "boundary face cells");
  DeviceBuffer<cl_int4> faceVertices = run.allocate<cl_int4>(total, "boundary face vertices");
  std::size_t base = 0;
  for (const CountedGroup& c : counted)
  {
    if (c.faces > 0)
    {
      const DeviceBuffer<cl_int> table = run.upload(c.table->data(), c.table->size(), "face table");
      run.call({ program, "write_boundary_faces", cellKindOptions(*c.group) }, c.group->count, "write boundary faces",
        CellArgs{ *c.group }, table, static_cast<cl_int>(c.table->size() / 4), sides.slotOffsets(), sides.slotRun(),
        c.places, static_cast<cl_int>(base), faceCells, faceVertices);
    }
    base += c.faces;
  }
  result.cells.resize(total);
  result.vertices.resize(total);
  if (total > 0)
  {
    run.download(faceCells, result.cells.data(), total, "boundary face cells");
    run.download(faceVertices, result.vertices.data(), total, "boundary face vertices");
  }
  return result;
}

} // namespace gpumesh
