// A device-side copy of a DeviceMesh, for an algorithm that modifies its mesh in place while
// the original stays as it was (a kept mesh, shared by later executions).
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <cstdint>

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

} // namespace gpumesh
