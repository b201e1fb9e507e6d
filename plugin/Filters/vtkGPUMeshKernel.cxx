#include "vtkGPUMeshKernel.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkStringArray.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshOutputArrays.h"
#include "vtkGPUMeshPiece.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/algorithms/ArrayMagnitude.h"
#include "gpumesh/algorithms/MeshKernel.h"
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/primitives/Reduce.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <iterator>
#include <memory>
#include <optional>
#include <string>

vtkStandardNewMacro(vtkGPUMeshKernel);

namespace
{
const char* const domainNames[] = { "Points", "Cells" };
static_assert(std::size(domainNames) == vtkGPUMeshKernel::CELLS + 1, "a name per Domain");
const char* const reductionNames[] = { "None", "Min", "Max", "Sum", "L2", "L0", "L1", "Linf" };
static_assert(std::size(reductionNames) == vtkGPUMeshKernel::LINF + 1, "a name per Reduction");

double reducedValue(int reduction, const gpumesh::Statistics& statistics)
{
  switch (reduction)
  {
    case vtkGPUMeshKernel::MIN:
      return statistics.minimum;
    case vtkGPUMeshKernel::MAX:
      return statistics.maximum;
    case vtkGPUMeshKernel::SUM:
      return statistics.sum;
    case vtkGPUMeshKernel::L0:
      return statistics.l0Norm();
    case vtkGPUMeshKernel::L1:
      return statistics.l1Norm();
    case vtkGPUMeshKernel::LINF:
      return statistics.lInfNorm();
    default:
      return statistics.l2Norm();
  }
}

std::string arrayNames(vtkFieldData* data)
{
  std::string names;
  for (int i = 0; i < data->GetNumberOfArrays(); ++i)
  {
    const char* name = data->GetArrayName(i);
    names += std::string(names.empty() ? "" : ", ") + "'" + (name ? name : "") + "'";
  }
  return names.empty() ? "none" : names;
}

// The chosen arrays of `mesh`, by name: a point array or a cell array, never both.
std::vector<vtkDataArray*> findArrays(vtkPointSet* mesh, const std::vector<std::string>& names)
{
  std::vector<vtkDataArray*> arrays;
  for (const std::string& name : names)
  {
    vtkAbstractArray* atPoints = mesh->GetPointData()->GetAbstractArray(name.c_str());
    vtkAbstractArray* atCells = mesh->GetCellData()->GetAbstractArray(name.c_str());
    if (!atPoints && !atCells)
    {
      throw gpumesh::Error("InputArrays names '" + name + "', which the input does not have (point arrays: " +
        arrayNames(mesh->GetPointData()) + "; cell arrays: " + arrayNames(mesh->GetCellData()) + ")");
    }
    if (atPoints && atCells)
    {
      throw gpumesh::Error("The input has a point array and a cell array named '" + name +
        "': rename one of them so that the Kernel can tell them apart");
    }
    vtkAbstractArray* found = atPoints ? atPoints : atCells;
    vtkDataArray* numeric = vtkDataArray::SafeDownCast(found);
    if (!numeric)
    {
      throw gpumesh::Error("Input array '" + name + "' is not numeric (a " + std::string(found->GetClassName()) +
        "): the Kernel reads numbers");
    }
    arrays.push_back(numeric);
  }
  return arrays;
}

gpumesh::MeshKernelDefinition makeDefinition(vtkPointSet* input, const std::vector<std::string>& names, int domain,
  const char* kernel, const char* resultName, int resultComponents, bool checkIndices)
{
  gpumesh::MeshKernelDefinition definition;
  definition.domain = domain == vtkGPUMeshKernel::CELLS ? gpumesh::MeshEntity::Cells : gpumesh::MeshEntity::Points;
  const std::vector<vtkDataArray*> arrays = findArrays(input, names);
  for (std::size_t a = 0; a < arrays.size(); ++a)
  {
    const bool ofPoints = input->GetPointData()->GetAbstractArray(names[a].c_str()) != nullptr;
    definition.inputs.push_back({ names[a], ofPoints ? gpumesh::MeshEntity::Points : gpumesh::MeshEntity::Cells,
      arrays[a]->GetNumberOfComponents() });
  }
  definition.resultName = resultName ? resultName : "";
  definition.resultComponents = resultComponents;
  definition.body = kernel ? kernel : "";
  definition.checkIndices = checkIndices;
  return definition;
}

bool writesCoordinates(const gpumesh::MeshKernelDefinition& definition)
{
  return definition.resultName == gpumesh::MeshKernelDefinition::coordinatesName;
}

// What one run of the kernel on one mesh gives.
struct KernelRun
{
  vtkSmartPointer<vtkDataArray> result; ///< per point or cell of the mesh; coordinates in the points' type
  bool compiled = false;
  double compileMilliseconds = 0.0;
  gpumesh::Statistics statistics; ///< of the result, when asked for
};

// The type of the output's coordinates: float stays float, other types become double.
int coordinatesType(vtkPointSet* input)
{
  return input->GetPoints() && input->GetPoints()->GetDataType() == VTK_FLOAT ? VTK_FLOAT : VTK_DOUBLE;
}

// `from` converted to `to` (both float or double arrays of as many values), each value plus
// shift[component] added in double, on all threads.
template <typename From, typename To>
void shiftValues(vtkDataArray* from, vtkDataArray* to, const std::array<double, 3>& shift)
{
  const From* in = static_cast<const From*>(from->GetVoidPointer(0));
  To* out = static_cast<To*>(to->GetVoidPointer(0));
  const int components = from->GetNumberOfComponents();
  vtkGPUMeshHostLoops::For(0, from->GetNumberOfTuples(), [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType t = begin; t < end; ++t)
      for (int c = 0; c < components; ++c)
      {
        const vtkIdType i = t * components + c;
        out[i] = static_cast<To>(static_cast<double>(in[i]) + shift[c]);
      }
  });
}

template <typename From>
void shiftValuesFrom(vtkDataArray* from, vtkDataArray* to, const std::array<double, 3>& shift)
{
  if (to->GetDataType() == VTK_FLOAT)
    shiftValues<From, float>(from, to, shift);
  else
    shiftValues<From, double>(from, to, shift);
}

// The index of the first value of `array` (float or double) that is not finite, or -1.
template <typename T>
vtkIdType firstNonFinite(vtkDataArray* array)
{
  const T* values = static_cast<const T*>(array->GetVoidPointer(0));
  const vtkIdType count = array->GetNumberOfValues();
  std::atomic<vtkIdType> first{ count };
  vtkGPUMeshHostLoops::For(0, count, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType i = begin; i < end && i < first.load(std::memory_order_relaxed); ++i)
    {
      if (!std::isfinite(values[i]))
      {
        vtkIdType seen = first.load();
        while (i < seen && !first.compare_exchange_weak(seen, i))
        {
        }
        return;
      }
    }
  });
  return first < count ? first.load() : -1;
}

// New coordinates are held to what every filter asks of its input's points: each finite, and
// within the output points' type (a double beyond float's range would become inf). Names the
// first point that is not and the value the Kernel wrote there (`downloaded` plus `origin`).
void requireFiniteCoordinates(vtkDataArray* coordinates, vtkDataArray* downloaded, const std::array<double, 3>& origin)
{
  const vtkIdType bad = coordinates->GetDataType() == VTK_FLOAT ? firstNonFinite<float>(coordinates)
                                                                : firstNonFinite<double>(coordinates);
  if (bad < 0)
    return;
  const int c = static_cast<int>(bad % 3);
  const double written = downloaded->GetComponent(bad / 3, c) + origin[c];
  const std::string where =
    "Point " + std::to_string(bad / 3) + "'s " + "xyz"[c] + " = " + gpumesh::formatNumber(written);
  if (std::isfinite(written))
  {
    throw gpumesh::Error("The Kernel wrote new coordinates beyond the range of the output's float points (those "
                         "of the input): " + where + ". Give the input double points, or keep the coordinates "
                         "within float's range (3.4e38)");
  }
  throw gpumesh::Error("The Kernel wrote new coordinates that are not finite: " + where +
    ". Coordinates must be finite, as every filter requires of its input's points");
}

// `values` (x, y, z per point relative to `origin`, in the run's precision) as the output's
// coordinates of `type` (VTK_FLOAT or VTK_DOUBLE): straight down when neither a shift nor a
// conversion is needed, otherwise the origin is added back in double on all threads. Checked
// by requireFiniteCoordinates.
vtkSmartPointer<vtkDataArray> downloadCoordinates(gpumesh::DeviceRun& run, const gpumesh::RealBuffer& values,
  vtkIdType tuples, const std::array<double, 3>& origin, int type)
{
  vtkSmartPointer<vtkDataArray> downloaded = vtkGPUMeshAdapter::DownloadArray(run, values, tuples, 3, nullptr);
  const bool shifted = origin[0] != 0.0 || origin[1] != 0.0 || origin[2] != 0.0;
  if (!shifted && downloaded->GetDataType() == type)
  {
    requireFiniteCoordinates(downloaded, downloaded, origin);
    return downloaded;
  }
  vtkSmartPointer<vtkDataArray> coordinates = type == VTK_FLOAT
    ? vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkFloatArray>::New())
    : vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkDoubleArray>::New());
  coordinates->SetNumberOfComponents(3);
  vtkGPUMeshOutputArrays::Allocate(coordinates, tuples);
  if (downloaded->GetDataType() == VTK_FLOAT)
    shiftValuesFrom<float>(downloaded, coordinates, origin);
  else
    shiftValuesFrom<double>(downloaded, coordinates, origin);
  requireFiniteCoordinates(coordinates, downloaded, origin);
  return coordinates;
}

gpumesh::Statistics reduce(gpumesh::DeviceRun& run, const gpumesh::RealBuffer& values, std::size_t tuples, int components)
{
  if (components == 1)
    return gpumesh::reduceStatistics(run, values, tuples);
  return gpumesh::reduceStatistics(run, gpumesh::tupleMagnitudes(run, values, tuples, components), tuples);
}

// Uploads `mesh` and its chosen arrays, compiles (or finds) the program, runs it and downloads
// the result. `origin`: the one of a distributed run, shared by all processes.
KernelRun runKernel(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& mesh, const std::array<double, 3>* origin,
  const gpumesh::MeshKernelDefinition& definition, const gpumesh::GeneratedMeshKernel& generated,
  const std::vector<std::string>& names, int iterations, bool reduceResult, vtkGPUMeshKernel* progress)
{
  auto description = vtkGPUMeshAdapter::DescribeMesh(mesh, run.precision());
  if (origin)
  {
    description.view.points.origin = *origin;
  }
  vtkTimerLog::MarkStartEvent("GPUMesh: upload mesh");
  const auto kept = vtkGPUMeshKeptMesh::Get(run, mesh, std::move(description));
  const gpumesh::DeviceMesh& device = *kept;
  vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
  progress->UpdateProgress(0.1);
  std::vector<gpumesh::RealBuffer> uploaded;
  for (vtkDataArray* array : findArrays(mesh.Data, names))
  {
    const bool atPoints = mesh.Data->GetPointData()->GetAbstractArray(array->GetName()) == array;
    uploaded.push_back(vtkGPUMeshAdapter::UploadArray(run, array, mesh.MoreValuesOf(array, atPoints)));
  }
  std::vector<const gpumesh::RealBuffer*> inputs;
  for (const auto& buffer : uploaded)
    inputs.push_back(&buffer);
  gpumesh::MeshKernel kernel(run, device, definition, generated);
  progress->UpdateProgress(0.2);

  KernelRun result;
  result.compiled = kernel.compiled();
  result.compileMilliseconds = kernel.compileMilliseconds();
  // Progress and the abort are looked at between slices of work-items as well as between
  // iterations, so that one long iteration can be stopped too.
  int stoppedAt = 0;
  double stoppedDone = 1.0;
  const gpumesh::RealBuffer values =
    kernel.execute(run, inputs, iterations, [&](int iteration, int total, double done) {
      progress->UpdateProgress(0.2 + 0.7 * (iteration - 1 + done) / total);
      if (progress->GetAbortExecute())
      {
        stoppedAt = iteration;
        stoppedDone = done;
        return false;
      }
      return true;
    });
  if (stoppedAt && (stoppedAt < iterations || stoppedDone < 1.0))
  {
    throw gpumesh::Error("The GPU Mesh Kernel was aborted " +
      (stoppedDone < 1.0 ? "during iteration " + std::to_string(stoppedAt) + " of " + std::to_string(iterations)
                         : "after " + std::to_string(stoppedAt) + " of " + std::to_string(iterations) + " iterations") +
      "; the output is empty");
  }
  const bool ofPoints = definition.domain == gpumesh::MeshEntity::Points;
  // Every tuple of the piece is computed; those of the result are downloaded (and reduced in
  // a serial run, where they are all).
  const auto tuples = ofPoints ? mesh.GetNumberOfResultPoints() : mesh.GetNumberOfResultCells();
  const int components = definition.resultComponents;
  if (reduceResult)
  {
    result.statistics = reduce(run, values, static_cast<std::size_t>(tuples), components);
  }
  if (writesCoordinates(definition))
  {
    result.result = downloadCoordinates(run, values, tuples, device.origin(), coordinatesType(mesh.Data));
  }
  else
  {
    result.result = vtkGPUMeshAdapter::DownloadArray(run, values, tuples, components, definition.resultName.c_str());
  }
  return result;
}

// New coordinates, already in the type coordinatesType(input) gives.
void setCoordinates(vtkPointSet* output, vtkDataArray* xyz)
{
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  output->SetPoints(points);
}
} // namespace

// The definition and the results of one execution, between the steps of vtkGPUMeshPieceFilter.
struct vtkGPUMeshKernel::Execution
{
  bool OfPoints = false;
  bool WritesPoints = false; ///< the result is the coordinates
  bool Reduce = false;
  int CoordinatesType = VTK_DOUBLE; ///< of the input's coordinates (coordinatesType)
  /// Made from the input's arrays; none for an empty piece under MPI (which may carry no arrays).
  std::optional<gpumesh::MeshKernelDefinition> Definition;
  gpumesh::GeneratedMeshKernel Generated; ///< from Definition, once per execution
  bool Compiled = false;
  double CompileMilliseconds = 0.0;
  gpumesh::Statistics Statistics; ///< of the result, when reduced
};

vtkGPUMeshKernel::vtkGPUMeshKernel()
{
  this->SetResultArrayName("Result");
  this->SetKernel("");
  this->SetParameters("");
}

vtkGPUMeshKernel::~vtkGPUMeshKernel()
{
  this->SetResultArrayName(nullptr);
  this->SetKernel(nullptr);
  this->SetParameters(nullptr);
}

void vtkGPUMeshKernel::AddInputArray(const char* name)
{
  this->InputArrays.emplace_back(name ? name : "");
  this->Modified();
}

void vtkGPUMeshKernel::ClearInputArrays()
{
  if (!this->InputArrays.empty())
  {
    this->InputArrays.clear();
    this->Modified();
  }
}

const char* vtkGPUMeshKernel::GetDomainName(int domain)
{
  return ChoiceName(domainNames, domain);
}

const char* vtkGPUMeshKernel::GetReductionName(int reduction)
{
  return ChoiceName(reductionNames, reduction);
}

void vtkGPUMeshKernel::CheckInput(vtkInformationVector**, vtkPointSet* input)
{
  this->GeneratedSource.clear();
  this->Current = std::make_unique<Execution>();
  Execution& execution = *this->Current;
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  execution.OfPoints = this->Domain == POINTS;
  execution.WritesPoints = execution.OfPoints && this->ResultArrayName &&
    std::string(this->ResultArrayName) == gpumesh::MeshKernelDefinition::coordinatesName;
  execution.Reduce = this->Reduction != NONE;
  execution.CoordinatesType = coordinatesType(input);
  // The text and the arrays are checked before any upload or exchange; an empty piece, which
  // has no arrays to look up, only checks the properties.
  RequireChoice("Domain", this->Domain, domainNames);
  RequireChoice("Reduction", this->Reduction, reductionNames);
  if (this->Iterations < 1)
  {
    throw gpumesh::Error("Iterations must be 1 or more, not " + std::to_string(this->Iterations));
  }
  // Every process parses the same text, so all of them pass the same values (or fail alike).
  const std::vector<gpumesh::KernelParameter> parameters =
    gpumesh::parseKernelParameters(this->Parameters ? this->Parameters : "");
  if (controller)
  {
    const bool fedBack = execution.WritesPoints ||
      std::find(this->InputArrays.begin(), this->InputArrays.end(),
        this->ResultArrayName ? this->ResultArrayName : "") != this->InputArrays.end();
    if (fedBack && this->Iterations > 1)
    {
      throw gpumesh::Error("Under MPI the GPU Mesh Kernel runs one iteration of a result that replaces an "
                           "input (Iterations " + std::to_string(this->Iterations) +
        " asked): chain several GPU Mesh Kernel filters instead, each of which exchanges its ghost layer");
    }
    if (execution.OfPoints && execution.Reduce)
    {
      throw gpumesh::Error(std::string("Under MPI the Reduction of a point result is not available yet: the "
                                       "points on the cuts between processes are held by several of them and "
                                       "would count twice. Reduce a cell result, or run without MPI (Reduction ") +
        GetReductionName(this->Reduction) + " asked)");
    }
  }
  if (!controller || input->GetNumberOfPoints() > 0 || input->GetNumberOfCells() > 0)
  {
    execution.Definition = makeDefinition(
      input, this->InputArrays, this->Domain, this->Kernel, this->ResultArrayName, this->ResultComponents,
      this->CheckIndices);
    execution.Definition->parameters = parameters;
    execution.Generated = gpumesh::generateMeshKernel(*execution.Definition);
    this->GeneratedSource = execution.Generated.source;
  }
}

void vtkGPUMeshKernel::ComputeArrays(
  gpumesh::DeviceRun& run, const vtkGPUMeshPiece& mesh, const std::array<double, 3>* origin, vtkPointSet* result)
{
  Execution& execution = *this->Current;
  vtkSmartPointer<vtkDataArray> values;
  if (execution.Definition)
  {
    // On the input (no origin) every value is owned: the statistics come from the device.
    const KernelRun kernelRun = runKernel(run, mesh, origin, *execution.Definition, execution.Generated,
      this->InputArrays, this->Iterations, execution.Reduce && !origin, this);
    values = kernelRun.result;
    execution.Compiled = kernelRun.compiled;
    execution.CompileMilliseconds = kernelRun.compileMilliseconds;
    execution.Statistics = kernelRun.statistics;
  }
  else
  {
    // An empty piece: an empty result of the type the other processes give.
    values = execution.WritesPoints
      ? (execution.CoordinatesType == VTK_FLOAT ? vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkFloatArray>::New())
                                                : vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkDoubleArray>::New()))
      : run.precision() == gpumesh::Precision::Double
      ? vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkDoubleArray>::New())
      : vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkFloatArray>::New());
    values->SetName(this->ResultArrayName);
    values->SetNumberOfComponents(execution.WritesPoints ? 3 : this->ResultComponents);
  }
  if (execution.WritesPoints)
  {
    setCoordinates(result, values);
  }
  else
  {
    (execution.OfPoints ? static_cast<vtkFieldData*>(result->GetPointData()) : result->GetCellData())->AddArray(values);
  }
}

void vtkGPUMeshKernel::FinishOutput(gpumesh::DeviceRun& run, vtkPointSet* output)
{
  const Execution& execution = *this->Current;
  vtkFieldData* field = output->GetFieldData();
  if (execution.Reduce)
  {
    gpumesh::Statistics statistics = execution.Statistics;
    if (vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController())
    {
      // The owned cells' values (a point result is not reduced under MPI); ghosts hold NaN,
      // which the statistics leave out.
      vtkGPUMeshDistributed::AllSucceed(controller, [&] {
        vtkDataArray* owned = output->GetCellData()->GetArray(this->ResultArrayName);
        if (owned->GetNumberOfTuples() > 0)
        {
          statistics = reduce(run, vtkGPUMeshAdapter::UploadArray(run, owned),
            static_cast<std::size_t>(owned->GetNumberOfTuples()), owned->GetNumberOfComponents());
        }
      });
      statistics = vtkGPUMeshDistributed::AllReduceStatistics(controller, statistics);
    }
    const double value = reducedValue(this->Reduction, statistics);
    vtkGPUMeshRunReport::SetFieldValue(
      field, std::string(this->ResultArrayName) + "_" + GetReductionName(this->Reduction), value);
  }
  vtkNew<vtkStringArray> source;
  source->SetName("GeneratedSource");
  source->InsertNextValue(this->GeneratedSource);
  field->RemoveArray("GeneratedSource");
  field->AddArray(source);
  vtkGPUMeshRunReport::SetFieldCount(field, "KernelCompiled", execution.Compiled ? 1 : 0);
  vtkGPUMeshRunReport::SetFieldValue(field, "KernelCompileTimeMs", execution.CompileMilliseconds);
}

void vtkGPUMeshKernel::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Domain: " << GetDomainName(this->Domain) << "\n";
  os << indent << "Kernel: " << (this->Kernel ? this->Kernel : "(none)") << "\n";
  os << indent << "ResultArrayName: " << (this->ResultArrayName ? this->ResultArrayName : "(none)") << "\n";
  os << indent << "Parameters: " << (this->Parameters ? this->Parameters : "(none)") << "\n";
  os << indent << "ResultComponents: " << this->ResultComponents << "\n";
  std::string names;
  for (const auto& name : this->InputArrays)
    names += (names.empty() ? "" : ", ") + name;
  os << indent << "InputArrays: " << (names.empty() ? "(none)" : names) << "\n";
  os << indent << "Iterations: " << this->Iterations << "\n";
  os << indent << "Reduction: " << GetReductionName(this->Reduction) << "\n";
  os << indent << "CheckIndices: " << this->CheckIndices << "\n";
}
