#include "vtkGPUNeighborDistance.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkSMPTools.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshGhostedPieceCache.h"
#include "vtkGPUMeshOutputArrays.h"

#include "gpumesh/algorithms/NeighborDistance.h"

#include <array>
#include <cmath>
#include <string>
#include <vector>


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
    vtkSMPTools::For(0, cells, [&](vtkIdType begin, vtkIdType end) {
      double* xyz = shifted->GetPointer(3 * begin);
      for (vtkIdType i = 0; i < 3 * (end - begin); ++i)
        xyz[i] += origin[i % 3];
    });
    array = shifted;
  }
  cellData->AddArray(array);
}
// The arrays of every cell of `mesh` into `cellData`. `origin`: the one of a distributed run,
// shared by all processes.
void computeArrays(gpumesh::DeviceRun& run, vtkPointSet* mesh, const std::array<double, 3>* origin,
  bool withCentroids, vtkGPUNeighborDistance* progress, vtkCellData* cellData)
{
  const vtkIdType cells = mesh->GetNumberOfCells();
  auto description = vtkGPUMeshAdapter::DescribeMesh(mesh, run.precision());
  if (origin)
  {
    description.view.points.origin = *origin;
  }
  progress->UpdateProgress(0.1);
  const gpumesh::DeviceMesh device(run, description.view);
  progress->UpdateProgress(0.2);
  const gpumesh::CellEntities sides(run, device, gpumesh::EntityType::Sides);
  progress->UpdateProgress(0.6);
  const gpumesh::Centroids centroids = gpumesh::computeCentroids(run, device);
  const gpumesh::NeighborDistances distances =
    gpumesh::computeNeighborDistances(run, device, sides, centroids);
  progress->UpdateProgress(0.8);

  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.minimum, cells, 1, "MinNeighborDistance"));
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.maximum, cells, 1, "MaxNeighborDistance"));
  cellData->AddArray(vtkGPUMeshAdapter::DownloadArray(run, distances.mean, cells, 1, "MeanNeighborDistance"));
  addCounts(run, distances.count, cells, cellData);
  if (withCentroids)
  {
    addCentroids(run, device, centroids, cells, cellData);
  }
}

} // namespace

vtkGPUNeighborDistance::vtkGPUNeighborDistance()
  : GhostedPieceCache(std::make_unique<vtkGPUMeshGhostedPieceCache>())
{
}

vtkGPUNeighborDistance::~vtkGPUNeighborDistance() = default;

vtkIdType vtkGPUNeighborDistance::GetGhostedPieceBuildCount()
{
  return this->GhostedPieceCache->GetBuildCount();
}

void vtkGPUNeighborDistance::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  if (!controller)
  {
    computeArrays(run, input, nullptr, this->ComputeCentroids, this, output->GetCellData());
    return;
  }

  // Distributed: the owned cells plus one layer of ghost cells give every owned cell all its
  // neighbours; one origin for all processes makes each value the serial one.
  const vtkIdType cells = input->GetNumberOfCells();
  const vtkGPUMeshDistributed::GhostedPiece& piece =
    this->GhostedPieceCache->Get(input, controller, output->GetFieldData());
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller);
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    vtkNew<vtkCellData> pieceArrays;
    computeArrays(run, piece.Mesh, &origin, this->ComputeCentroids, this, pieceArrays);
    const std::vector<vtkIdType> source = vtkGPUMeshDistributed::PieceEntries(piece.InputCell, cells);
    for (int a = 0; a < pieceArrays->GetNumberOfArrays(); ++a)
    {
      vtkDataArray* array = pieceArrays->GetArray(a);
      const bool counts = std::string(array->GetName()) == "NeighborCount";
      output->GetCellData()->AddArray(vtkGPUMeshDistributed::InputArrayOfPiece(array, source, counts ? -1.0 : NAN));
    }
  });
}

void vtkGPUNeighborDistance::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ComputeCentroids: " << this->ComputeCentroids << "\n";
  os << indent << "GhostedPieceBuildCount: " << this->GhostedPieceCache->GetBuildCount() << "\n";
}
