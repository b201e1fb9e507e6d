// What a device run reports in a filter's output field data (private to the module).
#ifndef vtkGPUMeshRunReport_h
#define vtkGPUMeshRunReport_h

#include "gpumesh/runtime/DeviceRun.h"

#include <chrono>
#include <cstdint>
#include <string>

class vtkFieldData;

namespace vtkGPUMeshRunReport
{

/// Adds Device, Precision, HostBackend and HostThreads (vtkSMPTools' backend and threads where
/// the filter's host loops ran), DeviceComputeUnits and DeviceFirstComputeUnit (the device's
/// compute units the kernels ran on: a part of it when processes of a node share it), KernelTimeMs, KernelTimeMs_<kernel>, HostTimeMs (the time since `requestStart`,
/// once the device has finished, minus KernelTimeMs), ProgramBuildTimeMs, ProgramsBuilt,
/// ProgramsFromBinaryCache (the programs the run built, from source or the binary cache), BytesUploaded, BytesDownloaded,
/// BytesReadInPlace and PeakDeviceMemoryBytes (see vtkGPUMeshFilter) to `fieldData`, replacing arrays of those names.
void AddToFieldData(
  gpumesh::DeviceRun& run, vtkFieldData* fieldData, std::chrono::steady_clock::time_point requestStart);

/// Adds a one-tuple 64-bit integer array `name` holding `value`, replacing an array of that name.
void SetFieldCount(vtkFieldData* fieldData, const std::string& name, std::uint64_t value);

/// Adds a one-tuple double array `name` holding `value`, replacing an array of that name.
void SetFieldValue(vtkFieldData* fieldData, const std::string& name, double value);

} // namespace vtkGPUMeshRunReport

#endif
