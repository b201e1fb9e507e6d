#include "gpumesh/algorithms/EdgeExtraction.h"

#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/CellEntities.h"

#include <cmath>
#include <string>

namespace gpumesh
{

ExtractedEdges extractEdges(
  DeviceRun& run, const DeviceMesh& mesh, EdgeSelection selection, double featureAngle, const EdgeOwners* owners)
{
  DeviceRun::ScopedLabel label(run, "edges");
  const bool features = selection == EdgeSelection::Feature || selection == EdgeSelection::BoundaryAndFeature;
  if (features && !(featureAngle >= 0.0 && featureAngle <= 180.0))
  {
    throw Error("Feature Angle " + std::to_string(featureAngle) + " is not between 0 and 180 degrees");
  }
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (selection != EdgeSelection::All && cellDimension(group.kind) == 3)
    {
      throw Error(std::string("Boundary and feature edges are those of 2D cells, and the mesh has ") +
        cellKindName(group.kind) + " cells: extract its surface first (GPU Extract Surface)");
    }
  }
  if (owners && owners->owner.size() != static_cast<std::size_t>(mesh.cellCount()))
  {
    throw Error("The edge owners name " + std::to_string(owners->owner.size()) + " cells, the mesh has " +
      std::to_string(mesh.cellCount()));
  }
  ExtractedEdges result;
  if (mesh.groups().empty())
  {
    return result;
  }
  const char* program = "edge_extraction";
  const CellEntities edges(run, mesh, EntityType::Edges);
  const std::size_t slots = edges.slotCount();
  const std::size_t entities = edges.entityCount();

  // Normals of the 2D cells, for feature edges only.
  RealBuffer normals = run.allocateReal(features ? 3 * static_cast<std::size_t>(mesh.cellCount()) : 3, "cell normals");
  if (features)
  {
    for (const DeviceCellGroup& group : mesh.groups())
    {
      if (cellDimension(group.kind) == 2 && group.count > 0)
        run.call({ program, "cell_normals", cellKindOptions(group) }, group.count, "cell normals", CellArgs{ group },
          mesh.points(), normals);
    }
  }
  const std::vector<cl_int> noOwners{ 0 };
  const std::vector<cl_int>& owner = owners ? owners->owner : noOwners;
  const DeviceBuffer<cl_int> ownerBuffer = run.upload(owner.data(), owner.size(), "edge owners");

  DeviceBuffer<cl_uint> selected = run.allocate<cl_uint>(entities, "selected edges");
  DeviceBuffer<cl_int> firstCell = run.allocate<cl_int>(entities, "first cells of edges");
  const double radians = featureAngle * 3.14159265358979323846 / 180.0;
  run.call({ program, "select_edges" }, slots, "select edges", edges.sortedSlots(), edges.slotRun(), edges.slotCell(),
    edges.slotEntity(), static_cast<cl_int>(slots), static_cast<cl_int>(selection), normals,
    run.real(std::cos(radians)), ownerBuffer, cl_int(owners != nullptr), cl_int(owners ? owners->self : 0), selected,
    firstCell);
  DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(entities + 1, "selected edge places");
  const auto count = static_cast<std::size_t>(exclusiveScan(run, selected, entities, places, "selected edges"));
  DeviceBuffer<cl_int> cells = run.allocate<cl_int>(count, "edge cells");
  DeviceBuffer<cl_int2> ends = run.allocate<cl_int2>(count, "edge ends");
  run.call({ program, "gather_edges" }, entities, "gather edges", places, static_cast<cl_int>(entities), firstCell,
    edges.entityVertices(), cells, ends);
  result.cells.resize(count);
  result.ends.resize(count);
  if (count > 0)
  {
    run.download(cells, result.cells.data(), count, "edge cells");
    run.download(ends, result.ends.data(), count, "edge ends");
  }
  return result;
}

} // namespace gpumesh
