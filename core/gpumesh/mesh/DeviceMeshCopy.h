// A device-side copy of a DeviceMesh, for an algorithm that modifies its mesh in place while
// the original stays as it was (a kept mesh, shared by later executions).
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <cstdint>
#include <memory>

namespace gpumesh
{

/// The device memory copyOnDevice(mesh) allocates (in allocation sizes): for a caller that must
/// know whether the copy fits beside the original (DeviceRun::requireMemory).
std::uint64_t copyOnDeviceBytes(const DeviceMesh& mesh);

/// A copy of `mesh` made on the device (nothing crosses the bus): its points, origin and cell
/// groups (connectivity, offsets, cell ids) in buffers of its own, so that modifying the copy
/// (DeviceMesh::takeConnectivity) leaves `mesh` alone. An allocation error, as by
/// DeviceRun::allocate, when the device has no room for it.
DeviceMesh copyOnDevice(DeviceRun& run, const DeviceMesh& mesh);

/// A mesh of its own for an algorithm that modifies it, from `kept` (a read-only mesh shared
/// with later runs) made of `view`: copyOnDevice(*kept) when the device has room for the copy
/// beside it (DeviceRun::requireMemory, which drops kept data and pooled buffers first), else
/// `kept` is let go (freed unless someone else holds it) and `view` imported anew, as without
/// kept meshes. `view` must describe the mesh `kept` was made of.
DeviceMesh copyOrImport(DeviceRun& run, std::shared_ptr<const DeviceMesh> kept, const MeshView& view,
  int minimumDimension = 1);

} // namespace gpumesh
