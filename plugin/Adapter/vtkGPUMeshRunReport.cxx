#include "vtkGPUMeshRunReport.h"

#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkNew.h"
#include "vtkSMPTools.h"
#include "vtkStringArray.h"
#include "vtkIdTypeArray.h"

#include <algorithm>

namespace vtkGPUMeshRunReport
{

// vtkIdTypeArray rather than vtkTypeInt64Array: ParaView moves field data between processes
// in the legacy VTK format, whose reader does not know the latter.
static_assert(sizeof(vtkIdType) == 8, "counters are 64-bit");

void SetFieldCount(vtkFieldData* fieldData, const std::string& name, std::uint64_t value)
{
  vtkNew<vtkIdTypeArray> array;
  array->SetName(name.c_str());
  array->InsertNextValue(static_cast<vtkIdType>(value));
  fieldData->AddArray(array);
}

void SetFieldValue(vtkFieldData* fieldData, const std::string& name, double value)
{
  vtkNew<vtkDoubleArray> array;
  array->SetName(name.c_str());
  array->InsertNextValue(value);
  fieldData->AddArray(array);
}

void AddToFieldData(
  gpumesh::DeviceRun& run, vtkFieldData* fieldData, std::chrono::steady_clock::time_point requestStart)
{
  vtkNew<vtkStringArray> device;
  device->SetName("Device");
  device->InsertNextValue(run.info().label());
  fieldData->AddArray(device);
  vtkNew<vtkStringArray> precision;
  precision->SetName("Precision");
  precision->InsertNextValue(gpumesh::precisionName(run.precision()));
  fieldData->AddArray(precision);
  // Where the host loops ran: a Sequential backend explains a slow HostTimeMs.
  vtkNew<vtkStringArray> backend;
  backend->SetName("HostBackend");
  backend->InsertNextValue(vtkSMPTools::GetBackend() ? vtkSMPTools::GetBackend() : "");
  fieldData->AddArray(backend);
  SetFieldCount(fieldData, "HostThreads", static_cast<std::uint64_t>(vtkSMPTools::GetEstimatedNumberOfThreads()));
  // The compute units the kernels ran on: a part of the device when processes share it.
  SetFieldCount(fieldData, "DeviceComputeUnits", static_cast<std::uint64_t>(run.info().computeUnits));
  SetFieldCount(fieldData, "DeviceFirstComputeUnit", static_cast<std::uint64_t>(run.info().firstComputeUnit));

  // One single-value array per kernel label. (ParaView moves field data between processes in
  // the legacy VTK format, whose reader fails on the range information that ParaView attaches
  // to multi-component arrays.)
  double kernelMilliseconds = 0.0;
  double uploadMilliseconds = 0.0;
  double downloadMilliseconds = 0.0;
  for (const auto& timing : run.timings())
  {
    if (timing.kind == gpumesh::CommandTiming::Kind::Kernel)
    {
      std::string name = "KernelTimeMs_" + timing.label;
      std::replace(name.begin(), name.end(), ' ', '_');
      SetFieldValue(fieldData, name, timing.milliseconds);
      kernelMilliseconds += timing.milliseconds;
    }
    else
    {
      (timing.kind == gpumesh::CommandTiming::Kind::Upload ? uploadMilliseconds : downloadMilliseconds) +=
        timing.milliseconds;
    }
  }
  SetFieldValue(fieldData, "KernelTimeMs", kernelMilliseconds);
  // The copies' own device time (staged copies: their chunks' summed), a part of HostTimeMs.
  SetFieldValue(fieldData, "UploadTimeMs", uploadMilliseconds);
  SetFieldValue(fieldData, "DownloadTimeMs", downloadMilliseconds);
  // timings() waited for the device: what is left of the wall time ran on the host.
  const double wallMilliseconds =
    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - requestStart).count();
  SetFieldValue(fieldData, "HostTimeMs", wallMilliseconds - kernelMilliseconds);
  // Programs this run had to build (the first run of a filter in a process): from source, or
  // from the binary cache of an earlier process; the wall time spent on them is in HostTimeMs.
  SetFieldValue(fieldData, "ProgramBuildTimeMs", run.programMilliseconds());
  SetFieldCount(fieldData, "ProgramsBuilt", run.programCounts().built);
  SetFieldCount(fieldData, "ProgramsFromBinaryCache", run.programCounts().fromBinaryCache);
  // Of those, the ones a kernel waited for because they were not built beforehand, together.
  SetFieldCount(fieldData, "ProgramsBuiltOnDemand", run.programsBuiltOnDemand());
  SetFieldCount(fieldData, "BytesUploaded", run.bytesUploaded());
  SetFieldCount(fieldData, "BytesDownloaded", run.bytesDownloaded());
  SetFieldCount(fieldData, "BytesReadInPlace", run.bytesReadInPlace());
  SetFieldCount(fieldData, "PeakDeviceMemoryBytes", run.peakDeviceMemory());
}

} // namespace vtkGPUMeshRunReport
