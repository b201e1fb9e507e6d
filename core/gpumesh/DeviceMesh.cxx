#include "gpumesh/DeviceMesh.h"

namespace gpumesh
{

DeviceMesh::DeviceMesh(DeviceRun& run, const HostMesh& mesh, int minimumDimension)
  : PointCount(mesh.pointCount())
  , CellCount(mesh.cellCount())
{
  static_assert(sizeof(cl_float4) == 4 * sizeof(float), "float4 points are 4 packed floats");
  Points = run.upload(reinterpret_cast<const cl_float4*>(mesh.points().data()),
    static_cast<std::size_t>(PointCount), "points");
  for (int k = 0; k < cellKindCount; ++k)
  {
    const CellGroup& host = mesh.group(static_cast<CellKind>(k));
    if (host.size() == 0 || cellDimension(host.kind) < minimumDimension)
    {
      continue;
    }
    const std::string name = cellKindName(host.kind);
    DeviceCellGroup group;
    group.kind = host.kind;
    group.count = host.size();
    group.connectivity =
      run.upload(host.connectivity.data(), host.connectivity.size(), name + " connectivity");
    if (!host.offsets.empty())
    {
      group.offsets = run.upload(host.offsets.data(), host.offsets.size(), name + " offsets");
    }
    // A group holding every cell in order (a mesh of one cell type) gets its ids made on the
    // device rather than uploaded.
    bool sequential = true;
    for (std::size_t i = 0; sequential && i < host.cellIds.size(); ++i)
      sequential = host.cellIds[i] == static_cast<std::int32_t>(i);
    if (sequential)
    {
      group.cellIds = run.allocate<cl_int>(host.cellIds.size(), name + " cell ids");
      cl::Kernel iota = run.kernel("sequence", "iota");
      run.setArguments(iota, static_cast<cl_int>(host.cellIds.size()), group.cellIds);
      run.launch(iota, host.cellIds.size(), "cell ids");
    }
    else
    {
      group.cellIds = run.upload(host.cellIds.data(), host.cellIds.size(), name + " cell ids");
    }
    Groups.push_back(std::move(group));
  }
}

DeviceMesh::DeviceMesh(DeviceRun& run, DeviceBuffer<cl_float4> points, std::size_t pointCount,
  CellKind kind, DeviceBuffer<cl_int> connectivity, std::size_t cellCount)
  : PointCount(static_cast<std::int64_t>(pointCount))
  , CellCount(static_cast<std::int64_t>(cellCount))
  , Points(std::move(points))
{
  if (fixedVertexCount(kind) < 0 || connectivity.size() != cellCount * static_cast<std::size_t>(fixedVertexCount(kind)))
  {
    throw Error(std::string("a device mesh of ") + cellKindName(kind) + "s needs " +
      std::to_string(fixedVertexCount(kind)) + " point ids per cell");
  }
  DeviceCellGroup group;
  group.kind = kind;
  group.count = cellCount;
  group.connectivity = std::move(connectivity);
  group.cellIds = run.allocate<cl_int>(cellCount, "cell ids");
  cl::Kernel iota = run.kernel("sequence", "iota");
  run.setArguments(iota, static_cast<cl_int>(cellCount), group.cellIds);
  run.launch(iota, cellCount, "cell ids");
  Groups.push_back(std::move(group));
}

} // namespace gpumesh
