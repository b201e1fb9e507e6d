// Discovery and selection of OpenCL devices across every platform.
#pragma once
#include "gpumesh/runtime/OpenCL.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumesh
{

/// One OpenCL device as the user sees it. `index` numbers devices of all platforms in
/// platform order, then device order; it is what a device spec of digits refers to.
struct DeviceInfo
{
  int index = -1;
  int platformIndex = -1;
  int deviceIndexInPlatform = -1;
  std::string name;
  std::string platformName;
  std::string vendor;
  std::string openclVersion;
  bool isGPU = false;
  bool isCPU = false;
  bool hasDoublePrecision = false;
  int computeUnits = 0; ///< those this process uses: all of the device's unless it is a part
  /// A part of the device (OpenCL device fission, clCreateSubDevices): compute units
  /// [firstComputeUnit, firstComputeUnit + computeUnits) of the device's deviceComputeUnits,
  /// what processes of one node that share a CPU device each take (shareOfDevice). listDevices
  /// gives whole devices: first 0, deviceComputeUnits equal to computeUnits.
  int firstComputeUnit = 0;
  int deviceComputeUnits = 0;
  bool isPart() const { return computeUnits > 0 && computeUnits < deviceComputeUnits; }
  std::size_t maxWorkGroupSize = 0;
  std::uint64_t globalMemoryBytes = 0;
  std::uint64_t maxAllocationBytes = 0;
  std::uint64_t localMemoryBytes = 0; ///< per work-group

  /// "1: NVIDIA H100 80GB HBM3 (GPU)": the form the ParaView Device drop-down shows (GPU, CPU,
  /// or accelerator for any other type); a part says which: "0: pthread-... (CPU, compute
  /// units 4-7 of 16)".
  std::string label() const;
};

/// Every device of every OpenCL platform. An empty list when there is no platform.
std::vector<DeviceInfo> listDevices();

/// Chooses a device. `spec` is one of (case-insensitive, surrounding blanks ignored):
///  - "auto" or "" : the value of GPUMESH_DEVICE if that is set (and not "auto"), else the
///    first GPU, else the first CPU, else the first device;
///  - "gpu" or "cpu": the first device of that type (by index);
///  - digits ("1"), or a drop-down label ("1: name (GPU)"): the device with that index;
///  - any other text: the first device whose name contains it.
/// Throws gpumesh::Error naming the devices that exist when nothing matches or there is no
/// OpenCL platform at all.
DeviceInfo selectDevice(const std::string& spec);

/// selectDevice among `devices` (e.g. a made-up list in a test) instead of listDevices().
DeviceInfo selectDevice(const std::string& spec, const std::vector<DeviceInfo>& devices);

/// The OpenCL handle of a listed device (re-enumerated under the same lock as listDevices); of
/// a part, the sub-device holding its compute units (CL_DEVICE_PARTITION_BY_COUNTS). Throws
/// gpumesh::Error when the driver cannot partition the device.
cl::Device openDevice(const DeviceInfo& info);

/// A multi-line list of the devices, for error messages and `--list-devices`.
std::string describeDevices(const std::vector<DeviceInfo>& devices);

} // namespace gpumesh
