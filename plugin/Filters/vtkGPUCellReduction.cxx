#include "vtkGPUCellReduction.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkInformationVector.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkStringArray.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshPiece.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/algorithms/ArrayMagnitude.h"
#include "gpumesh/algorithms/CellMeasures.h"
#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/primitives/Reduce.h"

#include <cmath>
#include <iterator>
#include <string>

vtkStandardNewMacro(vtkGPUCellReduction);

namespace
{
const char* const quantityNames[] = { "Size", "Area", "Volume", "Length", "Array" };
static_assert(std::size(quantityNames) == vtkGPUCellReduction::ARRAY + 1, "a name per Quantity");

// The per-cell quantity on the device, and the name of the cell array that will hold it
// (empty: nothing to add).
struct CellQuantity
{
  gpumesh::RealBuffer values;
  std::string arrayName;
  std::string description;
};

gpumesh::Measure toMeasure(int quantity)
{
  switch (quantity)
  {
    case vtkGPUCellReduction::AREA:
      return gpumesh::Measure::Area;
    case vtkGPUCellReduction::VOLUME:
      return gpumesh::Measure::Volume;
    case vtkGPUCellReduction::LENGTH:
      return gpumesh::Measure::Length;
    default:
      return gpumesh::Measure::Size;
  }
}

CellQuantity measureCells(
  gpumesh::DeviceRun& run, vtkPointSet* input, int quantity, const std::array<double, 3>* origin)
{
  auto description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
  if (origin)
  {
    description.view.points.origin = *origin;
  }
  vtkTimerLog::MarkStartEvent("GPUMesh: upload mesh");
  const auto kept = vtkGPUMeshKeptMesh::Get(run, vtkGPUMeshPiece::Of(input), std::move(description));
  const gpumesh::DeviceMesh& mesh = *kept;
  vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
  const std::string name = vtkGPUCellReduction::GetQuantityName(quantity);
  return { gpumesh::computeCellMeasures(run, mesh, toMeasure(quantity)), name, name };
}

CellQuantity arrayValues(gpumesh::DeviceRun& run, vtkDataArray* array)
{
  const std::string name = array->GetName() ? array->GetName() : "";
  gpumesh::RealBuffer uploaded = vtkGPUMeshAdapter::UploadArray(run, array);
  const int components = array->GetNumberOfComponents();
  if (components == 1)
  {
    return { std::move(uploaded), std::string(), name };
  }
  return { gpumesh::tupleMagnitudes(
             run, uploaded, static_cast<std::size_t>(array->GetNumberOfTuples()), components),
    name + "_Magnitude", name + " magnitude" };
}

// The statistics of the cells this process owns: ghost cells (copies of cells other processes
// own) are left out, as vtkPCellSizeFilter does, by reducing a copy where they are NaN.
gpumesh::Statistics reduceOwnedCells(
  gpumesh::DeviceRun& run, const gpumesh::RealBuffer& values, vtkPointSet* input)
{
  const std::size_t cells = static_cast<std::size_t>(input->GetNumberOfCells());
  vtkTimerLog::MarkStartEvent("GPUMesh: ghost cell ids");
  const std::vector<std::int32_t> ghostCells = vtkGPUMeshDistributed::GhostCellIds(input);
  vtkTimerLog::MarkEndEvent("GPUMesh: ghost cell ids");
  if (ghostCells.empty())
  {
    return gpumesh::reduceStatistics(run, values, cells);
  }
  gpumesh::RealBuffer owned = run.allocateReal(cells, "owned cell values");
  run.copyReal(values, owned, cells, "owned cell values");
  gpumesh::fillAt(run, owned, ghostCells, NAN, "ghost cells");
  return gpumesh::reduceStatistics(run, owned, cells);
}
} // namespace

vtkGPUCellReduction::vtkGPUCellReduction()
{
  // Default array: the active cell scalars, as other VTK filters do.
  this->SetInputArrayToProcess(
    0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, vtkDataSetAttributes::SCALARS);
}

const char* vtkGPUCellReduction::GetQuantityName(int quantity)
{
  return ChoiceName(quantityNames, quantity);
}

void vtkGPUCellReduction::ExecuteOnDevice(
  vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  RequireChoice("Quantity", this->Quantity, quantityNames);
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  const vtkIdType cells = input->GetNumberOfCells();
  // Under MPI one origin for all processes (used when double points run in Single precision):
  // each cell is measured exactly as in a serial run.
  vtkTimerLog::MarkStartEvent("GPUMesh: global bounds");
  const std::array<double, 3> origin = controller && this->Quantity != ARRAY
    ? vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller, run.precision())
    : std::array<double, 3>{ 0.0, 0.0, 0.0 };
  vtkTimerLog::MarkEndEvent("GPUMesh: global bounds");

  CellQuantity quantity;
  gpumesh::Statistics statistics;
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    if (this->Quantity == ARRAY && cells == 0 && controller)
    {
      // An empty piece of a distributed mesh often carries no arrays at all: nothing to reduce.
      const char* chosen = this->GetChosenArrayName();
      quantity.description = chosen ? chosen : "";
      return;
    }
    vtkDataArray* array = this->Quantity == ARRAY
      ? this->GetRequiredCellArray(inputVector, "Input Array (Quantity = Array)")
      : nullptr;
    this->UpdateProgress(0.1);
    quantity = array ? arrayValues(run, array) : measureCells(run, input, this->Quantity, controller ? &origin : nullptr);
    this->UpdateProgress(0.5);
    statistics = reduceOwnedCells(run, quantity.values, input);
  });
  // Every process reports the statistics of the whole mesh.
  vtkTimerLog::MarkStartEvent("GPUMesh: all-reduce statistics");
  statistics = vtkGPUMeshDistributed::AllReduceStatistics(controller, statistics);
  vtkTimerLog::MarkEndEvent("GPUMesh: all-reduce statistics");
  this->UpdateProgress(0.7);

  if (!quantity.arrayName.empty())
  {
    output->GetCellData()->AddArray(
      vtkGPUMeshAdapter::DownloadArray(run, quantity.values, cells, 1, quantity.arrayName.c_str()));
  }
  this->UpdateProgress(0.9);

  vtkFieldData* fieldData = output->GetFieldData();
  vtkGPUMeshRunReport::SetFieldValue(fieldData, "Min", statistics.minimum);
  vtkGPUMeshRunReport::SetFieldValue(fieldData, "Max", statistics.maximum);
  vtkGPUMeshRunReport::SetFieldValue(fieldData, "Sum", statistics.sum);
  vtkGPUMeshRunReport::SetFieldValue(fieldData, "Mean", statistics.mean());
  vtkGPUMeshRunReport::SetFieldValue(fieldData, "L2", statistics.l2Norm());
  vtkGPUMeshRunReport::SetFieldCount(fieldData, "Count", statistics.count);
  vtkGPUMeshRunReport::SetFieldCount(fieldData, "L0", statistics.nonZeros);
  vtkGPUMeshRunReport::SetFieldValue(fieldData, "L1", statistics.l1Norm());
  vtkGPUMeshRunReport::SetFieldValue(fieldData, "Linf", statistics.lInfNorm());
  vtkNew<vtkStringArray> what;
  what->SetName("Quantity");
  what->InsertNextValue(quantity.description);
  fieldData->AddArray(what);
}

void vtkGPUCellReduction::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  const char* array = this->GetChosenArrayName();
  os << indent << "InputArray: " << (array ? array : "(active cell scalars, used when Quantity is Array)") << "\n";
  os << indent << "Quantity: " << GetQuantityName(this->Quantity) << "\n";
}
