#include "vtkGPUMeshInputKey.h"

#include "vtkGPUMeshDistributed.h"

#include "vtkAbstractArray.h"
#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkDataSetAttributes.h"
#include "vtkIdTypeArray.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

namespace
{
using PartList = std::vector<std::pair<const void*, vtkMTimeType>>;

void addPart(PartList& parts, vtkObject* object)
{
  parts.emplace_back(object, object ? object->GetMTime() : 0);
}

// Every array (an array changed in place and marked Modified() does not always reach its
// container's time), and which are the global ids and the ghosts.
void addAttributes(PartList& parts, vtkDataSetAttributes* attributes)
{
  const int arrays = attributes ? attributes->GetNumberOfArrays() : 0;
  parts.emplace_back(nullptr, static_cast<vtkMTimeType>(arrays));
  for (int a = 0; a < arrays; ++a)
  {
    addPart(parts, attributes->GetAbstractArray(a));
  }
  addPart(parts, attributes ? attributes->GetGlobalIds() : nullptr);
  addPart(parts, attributes ? attributes->GetGhostArray() : nullptr);
}

void addCells(PartList& parts, vtkCellArray* cells)
{
  addPart(parts, cells);
  addPart(parts, cells ? cells->GetOffsetsArray() : nullptr);
  addPart(parts, cells ? cells->GetConnectivityArray() : nullptr);
}
} // namespace

vtkGPUMeshInputKey vtkGPUMeshInputKey::Of(vtkPointSet* input, vtkMultiProcessController* controller)
{
  vtkGPUMeshInputKey key;
  key.Input = input;
  key.Points = input->GetNumberOfPoints();
  key.Cells = input->GetNumberOfCells();
  key.Controller = controller;
  key.Processes = controller ? controller->GetNumberOfProcesses() : 1;
  PartList& parts = key.Parts;
  addPart(parts, input->GetPoints());
  addPart(parts, input->GetPoints() ? input->GetPoints()->GetData() : nullptr);
  addAttributes(parts, input->GetPointData());
  addAttributes(parts, input->GetCellData());
  if (auto* grid = vtkUnstructuredGrid::SafeDownCast(input))
  {
    key.Known = true;
    addCells(parts, grid->GetCells());
    addPart(parts, grid->GetCellTypesArray());
    addPart(parts, grid->GetFaces());
    addPart(parts, grid->GetFaceLocations());
  }
  else if (auto* polydata = vtkPolyData::SafeDownCast(input))
  {
    key.Known = true;
    for (vtkCellArray* cells :
      { polydata->GetVerts(), polydata->GetLines(), polydata->GetPolys(), polydata->GetStrips() })
    {
      addCells(parts, cells);
    }
  }
  return key;
}

bool vtkGPUMeshInputKey::Matches(const vtkGPUMeshInputKey& other) const
{
  return this->Known && other.Known && this->Input == other.Input && this->Parts == other.Parts &&
    this->Points == other.Points && this->Cells == other.Cells && this->Controller == other.Controller &&
    this->Processes == other.Processes;
}

bool vtkGPUMeshInputKey::EveryProcess(bool matches, vtkMultiProcessController* controller)
{
  long long all = matches ? 1 : 0;
  vtkGPUMeshDistributed::AllReduce(controller, &all, 1, vtkCommunicator::MIN_OP);
  return all != 0;
}
