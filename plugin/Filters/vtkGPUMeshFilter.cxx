#include "vtkGPUMeshFilter.h"
#include "vtkGPUMeshFirstUsePrograms.h"

#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkPointSet.h"
#include "vtkSMPTools.h"
#include "vtkStringArray.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/runtime/DeviceAssignment.h"
#include "gpumesh/runtime/DeviceRun.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <iterator>
#include <memory>
#include <string>
#include <thread>

namespace
{
const char* const precisionNames[] = { "Auto", "Single", "Double" };
static_assert(std::size(precisionNames) == vtkGPUMeshFilter::PRECISION_DOUBLE + 1, "a name per Precision");
} // namespace

vtkGPUMeshFilter::vtkGPUMeshFilter()
  : AvailableDevices(vtkSmartPointer<vtkStringArray>::New())
{
  this->SetDevice("auto");
}

vtkGPUMeshFilter::~vtkGPUMeshFilter()
{
  this->SetDevice(nullptr);
}

vtkStringArray* vtkGPUMeshFilter::GetAvailableDevices()
{
  this->AvailableDevices->Initialize();
  this->AvailableDevices->InsertNextValue("auto");
  for (const auto& device : gpumesh::listDevices())
  {
    this->AvailableDevices->InsertNextValue(device.label());
  }
  return this->AvailableDevices;
}

int vtkGPUMeshFilter::FillInputPortInformation(int, vtkInformation* info)
{
  info->Remove(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE());
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkPolyData");
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkUnstructuredGrid");
  return 1;
}

vtkDataArray* vtkGPUMeshFilter::GetRequiredCellArray(vtkInformationVector** inputVector, const char* use)
{
  int association = vtkDataObject::FIELD_ASSOCIATION_NONE;
  vtkDataArray* array = this->GetInputArrayToProcess(0, inputVector, association);
  const char* chosen = this->GetChosenArrayName();
  const std::string wanted = chosen ? chosen : "(none chosen)";
  if (!array)
  {
    throw gpumesh::Error("The input has no cell array named '" + wanted + "' to use as " + use);
  }
  if (association != vtkDataObject::FIELD_ASSOCIATION_CELLS)
  {
    throw gpumesh::Error("Array '" + wanted + "' is not a cell array, which " + use + " must be");
  }
  return array;
}

const char* vtkGPUMeshFilter::GetChosenArrayName()
{
  vtkInformation* request = this->GetInputArrayInformation(0);
  return request->Has(vtkDataObject::FIELD_NAME()) ? request->Get(vtkDataObject::FIELD_NAME()) : nullptr;
}

void vtkGPUMeshFilter::RequireChoice(const char* property, int value, const char* const* names, int count)
{
  if (value >= 0 && value < count)
  {
    return;
  }
  std::string choices;
  for (int i = 0; i < count; ++i)
  {
    choices += (i ? ", " : "") + std::to_string(i) + " (" + names[i] + ")";
  }
  throw gpumesh::Error(std::string(property) + " " + std::to_string(value) + " is not one of " + choices);
}

namespace
{
// The SMP backend the filters' host loops (copies and gathers as large as the mesh) run on: the
// one the user chose (VTK_SMP_BACKEND_IN_USE or vtkSMPTools::SetBackend), else STDThread where
// VTK's default would be Sequential, which a pvpython, pvbatch or ParaView from Debian runs
// unless told otherwise: one thread for work that the filter's device does in milliseconds.
std::string hostLoopBackend()
{
  const std::string current = vtkSMPTools::GetBackend() ? vtkSMPTools::GetBackend() : "";
  const char* chosen = std::getenv("VTK_SMP_BACKEND_IN_USE");
  return current == "Sequential" && !(chosen && *chosen) ? "STDThread" : current;
}


// The threads of those host loops: VTK's choice, except under MPI with several processes on
// this node, where each takes its share of the node's cores (unless VTK_SMP_MAX_THREADS says
// otherwise), the same share as of a CPU device they share (gpumesh::computeUnitShare). Every
// process starting a thread per core for each loop makes the node run several times more
// threads than it has cores, and the loops then take longer than the filter's kernels.
int hostLoopThreads(const std::string& backend)
{
  const char* chosen = std::getenv("VTK_SMP_MAX_THREADS");
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  if ((chosen && *chosen) || !controller)
  {
    return 0; // VTK's own
  }
  const int onNode = vtkGPUMeshDistributed::NodeProcessCount(controller);
  const int localRank = vtkGPUMeshDistributed::NodeLocalRank(controller);
  if (onNode < 2 || localRank < 0 || localRank >= onNode)
  {
    return 0;
  }
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const int current = vtkSMPTools::GetBackend() && std::string(vtkSMPTools::GetBackend()) == backend
    ? vtkSMPTools::GetEstimatedNumberOfThreads()
    : cores;
  return std::max(1, std::min(current, gpumesh::computeUnitShare(cores, localRank, onNode).count));
}
} // namespace

int vtkGPUMeshFilter::RequestData(
  vtkInformation* request, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  int status = 0;
  const std::string backend = hostLoopBackend();
  vtkSMPTools::LocalScope(vtkSMPTools::Config{ hostLoopThreads(backend), backend, false },
    [&] { status = this->ExecuteRequest(request, inputVector, outputVector); });
  return status;
}

int vtkGPUMeshFilter::ExecuteRequest(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  const auto start = std::chrono::steady_clock::now();
  // Phases are marked in vtkTimerLog (ParaView's Timer Log, every server process).
  vtkTimerLogScope scope((std::string("GPUMesh: ") + this->GetClassName()).c_str());
  vtkPointSet* input = vtkPointSet::GetData(inputVector[0]);
  vtkPointSet* output = vtkPointSet::GetData(outputVector);
  output->ShallowCopy(input);
  try
  {
    this->UpdateProgress(0.0);
    // Under MPI a process without the device must not leave the others waiting in an exchange.
    vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
    std::unique_ptr<gpumesh::DeviceRun> run;
    vtkTimerLog::MarkStartEvent("GPUMesh: device");
    vtkGPUMeshDistributed::AllSucceed(controller, [&] {
      RequireChoice("Precision", this->Precision, precisionNames);
      const gpumesh::Precision precision =
        vtkGPUMeshDistributed::AgreedPrecision(vtkGPUMeshAdapter::ResolvePrecision(this->Precision, input),
          input->GetNumberOfPoints() > 0, controller);
      run = std::make_unique<gpumesh::DeviceRun>(gpumesh::DeviceContext::acquire(
        vtkGPUMeshDistributed::DeviceForProcess(this->Device ? this->Device : "auto", controller)),
        precision);
    });
    // The programs this filter's last run used (in an earlier process: the cache folder knows
    // them), or on a first use those it asks for on such a device, are built concurrently now
    // rather than one after the other as kernels need them.
    const std::string user = std::string(this->GetClassName()) + " " + gpumesh::precisionName(run->precision()) +
      " " + vtkGPUMeshFirstUsePrograms::CellKindsOf(input);
    run->buildProgramsNeededBy(user, vtkGPUMeshFirstUsePrograms::For(user, run->info()));
    vtkTimerLog::MarkEndEvent("GPUMesh: device");
    this->ExecuteOnDevice(inputVector, input, output, *run);
    run->rememberProgramsNeededBy(user);
    vtkGPUMeshRunReport::AddToFieldData(*run, output->GetFieldData(), start);
    this->UpdateProgress(1.0);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< error.what());
    output->Initialize();
    return 0;
  }
  return 1;
}

const char* vtkGPUMeshFilter::GetPrecisionName(int precision)
{
  return ChoiceName(precisionNames, precision);
}

void vtkGPUMeshFilter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Device: " << (this->Device ? this->Device : "(none)") << "\n";
  os << indent << "Precision: " << GetPrecisionName(this->Precision) << "\n";
}
