#include "vtkGPUMeshGhostedPieceCache.h"
#include "vtkGPUMeshRunReport.h"

#include "vtkAbstractArray.h"
#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkTimerLog.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include <chrono>

namespace
{
void addTime(std::vector<vtkMTimeType>& times, vtkObject* object)
{
  times.push_back(object ? object->GetMTime() : 0);
}

// The containers' own times and every array's: an array changed in place and marked Modified()
// does not always reach its container's time.
void addAttributes(std::vector<vtkMTimeType>& times, vtkFieldData* attributes)
{
  addTime(times, attributes);
  const int arrays = attributes ? attributes->GetNumberOfArrays() : 0;
  times.push_back(static_cast<vtkMTimeType>(arrays));
  for (int a = 0; a < arrays; ++a)
  {
    addTime(times, attributes->GetAbstractArray(a));
  }
}

void addCells(std::vector<vtkMTimeType>& times, vtkCellArray* cells)
{
  addTime(times, cells);
  addTime(times, cells ? cells->GetOffsetsArray() : nullptr);
  addTime(times, cells ? cells->GetConnectivityArray() : nullptr);
}
} // namespace

vtkGPUMeshGhostedPieceCache::Key vtkGPUMeshGhostedPieceCache::KeyOf(
  vtkPointSet* input, vtkMultiProcessController* controller)
{
  Key key;
  key.Input = input;
  key.Points = input->GetNumberOfPoints();
  key.Cells = input->GetNumberOfCells();
  key.Controller = controller;
  key.Processes = controller ? controller->GetNumberOfProcesses() : 1;
  auto& times = key.ModificationTimes;
  addTime(times, input);
  addTime(times, input->GetPoints());
  addTime(times, input->GetPoints() ? input->GetPoints()->GetData() : nullptr);
  addAttributes(times, input->GetPointData());
  addAttributes(times, input->GetCellData());
  if (auto* grid = vtkUnstructuredGrid::SafeDownCast(input))
  {
    key.Known = true;
    addCells(times, grid->GetCells());
    addTime(times, grid->GetCellTypesArray());
    addTime(times, grid->GetFaces());
    addTime(times, grid->GetFaceLocations());
  }
  else if (auto* polydata = vtkPolyData::SafeDownCast(input))
  {
    key.Known = true;
    for (vtkCellArray* cells :
      { polydata->GetVerts(), polydata->GetLines(), polydata->GetPolys(), polydata->GetStrips() })
    {
      addCells(times, cells);
    }
  }
  return key;
}

bool vtkGPUMeshGhostedPieceCache::Matches(const Key& key) const
{
  return this->Piece && key.Known && this->PieceKey.Known && this->PieceKey.Input == key.Input &&
    this->PieceKey.ModificationTimes == key.ModificationTimes && this->PieceKey.Points == key.Points &&
    this->PieceKey.Cells == key.Cells && this->PieceKey.Controller == key.Controller &&
    this->PieceKey.Processes == key.Processes;
}

const vtkGPUMeshDistributed::GhostedPiece& vtkGPUMeshGhostedPieceCache::Get(vtkPointSet* input,
  vtkMultiProcessController* controller, vtkFieldData* report, const vtkGPUMeshDistributed::PieceDevice* device)
{
  Key key = KeyOf(input, controller);
  // Building is collective: reuse only when every process can.
  long long reusable = this->Matches(key) ? 1 : 0;
  vtkGPUMeshDistributed::AllReduce(controller, &reusable, 1, vtkCommunicator::MIN_OP);
  this->Reused = reusable != 0;
  vtkGPUMeshRunReport::SetFieldCount(report, "GhostedPieceReused", this->Reused);
  if (this->Reused)
  {
    return *this->Piece;
  }
  this->Release(); // a failed build keeps nothing
  const auto start = std::chrono::steady_clock::now();
  vtkTimerLogScope scope("GPUMesh: build ghosted piece");
  auto piece = std::make_unique<vtkGPUMeshDistributed::GhostedPiece>(
    vtkGPUMeshDistributed::BuildGhostedPiece(input, controller, device));
  vtkGPUMeshRunReport::SetFieldValue(report, "GhostedPieceBuildMs",
    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  vtkGPUMeshRunReport::SetFieldCount(report, "GhostedPieceBytesExchanged", piece->BytesExchanged);
  vtkGPUMeshRunReport::SetFieldCount(report, "GhostedPieceCellsFoundOnDevice", piece->InterfaceCellsOnDevice);
  ++this->Builds;
  this->PieceKey = std::move(key);
  this->Piece = std::move(piece);
  return *this->Piece;
}

void vtkGPUMeshGhostedPieceCache::Release()
{
  this->Piece.reset();
  this->PieceKey = Key();
}
