#include "gpumesh/topology/BoundaryEdges.h"

#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/CellEntities.h"

namespace gpumesh
{

BoundaryEdgeSlots boundaryEdgeSlots(DeviceRun& run, const DeviceMesh& mesh)
{
  const auto& groups = mesh.groups();
  BoundaryEdgeSlots result;
  if (groups.empty())
  {
    return result;
  }
  const CellKind kind = groups.front().kind;
  if (groups.size() != 1 || (kind != CellKind::Triangle && kind != CellKind::Tetra) ||
    static_cast<std::int64_t>(groups.front().count) != mesh.cellCount())
  {
    throw Error("Boundary edges are found for meshes of triangles only or of tetrahedra only");
  }
  const char* program = "boundary_edges";
  const CellEntities edges(run, mesh, EntityType::Edges);
  const auto slots = edges.slotCount();
  DeviceBuffer<cl_uint> flags = run.allocate<cl_uint>(slots, "boundary slot flags");
  if (kind == CellKind::Triangle)
  {
    run.call({ program, "flag_single_slot_runs" }, slots, "boundary edges", edges.slotRun(), static_cast<cl_int>(slots),
      flags);
  }
  else
  {
    const CellEntities faces(run, mesh, EntityType::Sides);
    DeviceBuffer<cl_uint> boundaryEntities = run.allocate<cl_uint>(edges.entityCount(), "boundary edges");
    run.fill(boundaryEntities, cl_uint(0), "boundary edges");
    run.call({ program, "flag_boundary_face_edges" }, faces.slotCount(), "boundary edges", faces.slotRun(),
      static_cast<cl_int>(faces.slotCount()), edges.slotEntity(), boundaryEntities);
    run.call({ program, "flag_slots_of_entities" }, slots, "boundary edges", edges.slotEntity(),
      static_cast<cl_int>(slots), boundaryEntities, flags);
  }
  DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(slots + 1, "boundary slot places");
  const auto count = static_cast<std::size_t>(exclusiveScan(run, flags, slots, places, "boundary edges"));
  DeviceBuffer<cl_int> found = run.allocate<cl_int>(count, "boundary slots");
  DeviceBuffer<cl_int2> ends = run.allocate<cl_int2>(count, "boundary edge ends");
  run.call({ program, "gather_boundary_slots" }, slots, "boundary edges", places, static_cast<cl_int>(slots),
    edges.slotEntity(), edges.entityVertices(), found, ends);
  result.slots.resize(count);
  result.ends.resize(count);
  run.download(found, result.slots.data(), count, "boundary slots");
  run.download(ends, result.ends.data(), count, "boundary edge ends");
  return result;
}

} // namespace gpumesh
