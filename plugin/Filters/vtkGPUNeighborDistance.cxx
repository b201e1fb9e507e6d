#include "vtkGPUNeighborDistance.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshOutputArrays.h"
#include "vtkGPUMeshPiece.h"

#include "gpumesh/algorithms/NeighborDistance.h"

#include <array>

vtkStandardNewMacro(vtkGPUNeighborDistance);

namespace
{
// The neighbour counts straight into the output's array.
void addCounts(gpumesh::DeviceRun& run, const gpumesh::DeviceBuffer<cl_int>& counts, vtkIdType cells,
  vtkCellData* cellData)
{
  vtkNew<vtkIntArray> array;
  array->SetName("NeighborCount");
  vtkGPUMeshOutputArrays::Allocate(array, cells);
  run.download(counts, array->GetPointer(0), static_cast<std::size_t>(cells), "NeighborCount");
  cellData->AddArray(array);
}

// Centroids come back relative to the mesh origin (zero unless double points ran in Single
// precision), which is added back in double.
void addCentroids(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh,
  const gpumesh::Centroids& centroids, vtkIdType cells, vtkCellData* cellData)
{
  vtkSmartPointer<vtkDataArray> array = vtkGPUMeshAdapter::DownloadArray(
    run, gpumesh::centroidCoordinates(run, mesh, centroids), cells, 3, "Centroid");
  const auto& origin = mesh.origin();
  if (origin[0] != 0.0 || origin[1] != 0.0 || origin[2] != 0.0)
  {
    auto shifted = vtkSmartPointer<vtkDoubleArray>::New();
    shifted->DeepCopy(array);
    vtkGPUMeshHostLoops::For(0, cells, [&](vtkIdType begin, vtkIdType end) {
      double* xyz = shifted->GetPointer(3 * begin);
      for (vtkIdType i = 0; i < 3 * (end - begin); ++i)
        xyz[i] += origin[i % 3];
    });
    array = shifted;
  }
  cellData->AddArray(array);
}
} // namespace

vtkGPUNeighborDistance::vtkGPUNeighborDistance() = default;

vtkGPUNeighborDistance::~vtkGPUNeighborDistance() = default;

void vtkGPUNeighborDistance::ComputeArrays(
  gpumesh::DeviceRun& run, const vtkGPUMeshPiece& mesh, const std::array<double, 3>* origin, vtkPointSet* result)
{
  const vtkIdType cells = mesh.GetNumberOfResultCells();
  auto description = vtkGPUMeshAdapter::DescribeMesh(mesh, run.precision());
  if (origin)
  {
    description.view.points.origin = *origin;
  }
  this->UpdateProgress(0.1);
  vtkTimerLog::MarkStartEvent("GPUMesh: upload mesh");
  const auto kept = vtkGPUMeshKeptMesh::Get(run, mesh, std::move(description));
  const gpumesh::DeviceMesh& device = *kept;
  vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
  vtkTimerLog::MarkStartEvent("GPUMesh: kernels");
  this->UpdateProgress(0.2);
  const gpumesh::CellEntities sides(run, device, gpumesh::EntityType::Sides);
  this->UpdateProgress(0.6);
  const gpumesh::Centroids centroids = gpumesh::computeCentroids(run, device);
  const gpumesh::NeighborDistances distances =
    gpumesh::computeNeighborDistances(run, device, sides, centroids);
  vtkTimerLog::MarkEndEvent("GPUMesh: kernels");
  this->UpdateProgress(0.8);

  vtkCellData* cellData = result->GetCellData();
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.minimum, cells, 1, "MinNeighborDistance"));
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.maximum, cells, 1, "MaxNeighborDistance"));
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.mean, cells, 1, "MeanNeighborDistance"));
  addCounts(run, distances.count, cells, cellData);
  if (this->ComputeCentroids)
  {
    addCentroids(run, device, centroids, cells, cellData);
  }
}

void vtkGPUNeighborDistance::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ComputeCentroids: " << this->ComputeCentroids << "\n";
}
