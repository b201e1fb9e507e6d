#include "vtkGPUNeighborDistance.h"

#include "vtkCellData.h"
#include "vtkDoubleArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkSMPTools.h"

#include "vtkGPUMeshAdapter.h"

#include "gpumesh/NeighborDistance.h"


vtkStandardNewMacro(vtkGPUNeighborDistance);

namespace
{
// The neighbour counts straight into the output's array.
void addCounts(gpumesh::DeviceRun& run, const gpumesh::DeviceBuffer<cl_int>& counts, vtkIdType cells,
  vtkPointSet* output)
{
  vtkNew<vtkIntArray> array;
  array->SetName("NeighborCount");
  array->SetNumberOfTuples(cells);
  run.download(counts, array->GetPointer(0), static_cast<std::size_t>(cells), "NeighborCount");
  output->GetCellData()->AddArray(array);
}

// Centroids come back relative to the mesh origin (zero unless double points ran in Single
// precision), which is added back in double.
void addCentroids(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh,
  const gpumesh::Centroids& centroids, vtkPointSet* output)
{
  const vtkIdType cells = output->GetNumberOfCells();
  vtkSmartPointer<vtkDataArray> array = vtkGPUMeshAdapter::DownloadArray(
    run, gpumesh::centroidCoordinates(run, mesh, centroids), cells, 3, "Centroid");
  const auto& origin = mesh.origin();
  if (origin[0] != 0.0 || origin[1] != 0.0 || origin[2] != 0.0)
  {
    auto shifted = vtkSmartPointer<vtkDoubleArray>::New();
    shifted->DeepCopy(array);
    vtkSMPTools::For(0, cells, [&](vtkIdType begin, vtkIdType end) {
      double* xyz = shifted->GetPointer(3 * begin);
      for (vtkIdType i = 0; i < 3 * (end - begin); ++i)
        xyz[i] += origin[i % 3];
    });
    array = shifted;
  }
  output->GetCellData()->AddArray(array);
}
} // namespace

void vtkGPUNeighborDistance::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  const vtkIdType cells = input->GetNumberOfCells();
  const auto description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
  this->UpdateProgress(0.1);
  const gpumesh::DeviceMesh mesh(run, description.view);
  this->UpdateProgress(0.2);
  const gpumesh::CellEntities sides(run, mesh, gpumesh::EntityType::Sides);
  this->UpdateProgress(0.6);
  const gpumesh::Centroids centroids = gpumesh::computeCentroids(run, mesh);
  const gpumesh::NeighborDistances distances =
    gpumesh::computeNeighborDistances(run, mesh, sides, centroids);
  this->UpdateProgress(0.8);

  vtkCellData* cellData = output->GetCellData();
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.minimum, cells, 1, "MinNeighborDistance"));
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.maximum, cells, 1, "MaxNeighborDistance"));
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.mean, cells, 1, "MeanNeighborDistance"));
  addCounts(run, distances.count, cells, output);
  if (this->ComputeCentroids)
  {
    addCentroids(run, mesh, centroids, output);
  }
}

void vtkGPUNeighborDistance::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ComputeCentroids: " << this->ComputeCentroids << "\n";
}
