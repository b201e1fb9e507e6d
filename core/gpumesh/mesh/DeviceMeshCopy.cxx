#include "gpumesh/mesh/DeviceMeshCopy.h"

#include "gpumesh/runtime/BufferPool.h"

#include <utility>
#include <vector>

namespace gpumesh
{

namespace
{
// What DeviceRun::allocate takes for a buffer of `bytes` (an empty one still owns one element).
std::uint64_t allocated(std::size_t bytes, std::size_t element)
{
  return BufferPool::allocationBytes(bytes ? bytes : element);
}
} // namespace

std::uint64_t copyOnDeviceBytes(const DeviceMesh& mesh)
{
  std::uint64_t bytes = allocated(mesh.points().bytes(), 1);
  for (const DeviceCellGroup& group : mesh.groups())
  {
    bytes += allocated(group.connectivity.bytes(), sizeof(cl_int)) + allocated(group.offsets.bytes(), sizeof(cl_int)) +
      allocated(group.cellIds.bytes(), sizeof(cl_int));
  }
  return bytes;
}

DeviceMesh copyOnDevice(DeviceRun& run, const DeviceMesh& mesh)
{
  const RealBuffer& from = mesh.points();
  if (from.precision() != run.precision())
  {
    throw Error("a device mesh in one precision cannot be copied by a run in the other");
  }
  RealBuffer points = run.allocateReal(from.size(), "points");
  run.copyReal(from, points, from.size(), "points");
  std::vector<DeviceCellGroup> groups;
  groups.reserve(mesh.groups().size());
  for (const DeviceCellGroup& group : mesh.groups())
    groups.push_back(DeviceMesh::copyGroup(run, group));
  return DeviceMesh(std::move(points), static_cast<std::size_t>(mesh.pointCount()), std::move(groups),
    static_cast<std::size_t>(mesh.cellCount()), mesh.origin());
}

DeviceMesh copyOrImport(DeviceRun& run, std::shared_ptr<const DeviceMesh> kept, const MeshView& view,
  int minimumDimension)
{
  bool copyFits = true;
  try
  {
    run.requireMemory(copyOnDeviceBytes(*kept), "A copy of the mesh");
  }
  catch (const Error&)
  {
    copyFits = false; // requireMemory only throws for lack of memory
  }
  if (copyFits)
  {
    return copyOnDevice(run, *kept);
  }
  kept.reset();
  return DeviceMesh(run, view, minimumDimension);
}

} // namespace gpumesh
