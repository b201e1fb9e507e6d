// A HostMesh uploaded to a device: float4 points and one connectivity table per cell kind.
#pragma once
#include "gpumesh/DeviceRun.h"
#include "gpumesh/HostMesh.h"

#include <vector>

namespace gpumesh
{

struct DeviceCellGroup
{
  CellKind kind = CellKind::Line;
  std::size_t count = 0;
  DeviceBuffer<cl_int> connectivity;
  DeviceBuffer<cl_int> offsets; ///< variable-size kinds only
  DeviceBuffer<cl_int> cellIds;
};

class DeviceMesh
{
public:
  /// Uploads the points and every non-empty cell group once. Groups of kinds of lower dimension
  /// than `minimumDimension` are left on the host (e.g. 2: only surface and volume cells), as
  /// if the mesh had no such cells; cell ids and cellCount() still span the whole mesh.
  DeviceMesh(DeviceRun& run, const HostMesh& mesh, int minimumDimension = 1);

  /// A mesh made on the device: one fixed-size cell kind, cell ids 0..cellCount-1.
  DeviceMesh(DeviceRun& run, DeviceBuffer<cl_float4> points, std::size_t pointCount, CellKind kind,
    DeviceBuffer<cl_int> connectivity, std::size_t cellCount);

  /// Hands the connectivity of the first cell group over to the caller (to be modified in
  /// place); the group is left empty.
  DeviceBuffer<cl_int> takeConnectivity() { return std::move(Groups.front().connectivity); }

  std::int64_t pointCount() const { return PointCount; }
  std::int64_t cellCount() const { return CellCount; }
  const DeviceBuffer<cl_float4>& points() const { return Points; }
  /// The non-empty groups, in CellKind order.
  const std::vector<DeviceCellGroup>& groups() const { return Groups; }

private:
  std::int64_t PointCount = 0;
  std::int64_t CellCount = 0;
  DeviceBuffer<cl_float4> Points;
  std::vector<DeviceCellGroup> Groups;
};

} // namespace gpumesh
