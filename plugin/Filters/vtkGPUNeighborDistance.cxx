#include "vtkGPUNeighborDistance.h"

#include "vtkCellData.h"
#include "vtkDoubleArray.h"
#include "vtkFloatArray.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"

#include "gpumesh/NeighborDistance.h"

#include <cmath>
#include <vector>

vtkStandardNewMacro(vtkGPUNeighborDistance);

namespace
{
// Per-cell results on the host, for the cells of the mesh they were computed on.
struct CellResults
{
  std::vector<float> minimum;
  std::vector<float> maximum;
  std::vector<float> mean;
  std::vector<cl_int> count;
  std::vector<cl_float4> centroids; // relative to `origin`; empty unless asked for
  std::array<double, 3> origin{ 0.0, 0.0, 0.0 };
};

template <typename T>
std::vector<T> downloaded(gpumesh::DeviceRun& run, const gpumesh::DeviceBuffer<T>& values,
  std::size_t count, const char* what)
{
  std::vector<T> host(count);
  run.download(values, host.data(), count, what);
  return host;
}

CellResults computeOnDevice(gpumesh::DeviceRun& run, vtkPointSet* mesh,
  const std::array<double, 3>* origin, bool centroids, vtkGPUNeighborDistance* progress)
{
  const std::size_t cells = static_cast<std::size_t>(mesh->GetNumberOfCells());
  const gpumesh::HostMesh host = vtkGPUMeshAdapter::ToHostMesh(mesh, origin);
  progress->UpdateProgress(0.1);
  const gpumesh::DeviceMesh device(run, host);
  progress->UpdateProgress(0.2);
  const gpumesh::CellEntities sides(run, device, gpumesh::EntityType::Sides);
  progress->UpdateProgress(0.6);
  const auto centres = gpumesh::computeCentroids(run, device);
  const gpumesh::NeighborDistances distances =
    gpumesh::computeNeighborDistances(run, device, sides, centres);
  progress->UpdateProgress(0.8);

  CellResults results;
  results.minimum = downloaded(run, distances.minimum, cells, "MinNeighborDistance");
  results.maximum = downloaded(run, distances.maximum, cells, "MaxNeighborDistance");
  results.mean = downloaded(run, distances.mean, cells, "MeanNeighborDistance");
  results.count = downloaded(run, distances.count, cells, "NeighborCount");
  if (centroids)
  {
    results.centroids = downloaded(run, centres, cells, "centroids");
  }
  results.origin = host.origin();
  return results;
}

// The output's arrays: cell c takes the results of cell source[c], or NaN and a count of -1
// when source[c] is -1 (a ghost cell of the input, whose owner holds its values).
void addArrays(const CellResults& results, const std::vector<vtkIdType>& source, bool withCentroids,
  vtkPointSet* output)
{
  const vtkIdType cells = static_cast<vtkIdType>(source.size());
  const auto floats = [&](const char* name, const std::vector<float>& values) {
    vtkNew<vtkFloatArray> array;
    array->SetName(name);
    array->SetNumberOfTuples(cells);
    for (vtkIdType c = 0; c < cells; ++c)
    {
      array->SetValue(c, source[c] < 0 ? NAN : values[source[c]]);
    }
    output->GetCellData()->AddArray(array);
  };
  floats("MinNeighborDistance", results.minimum);
  floats("MaxNeighborDistance", results.maximum);
  floats("MeanNeighborDistance", results.mean);
  vtkNew<vtkIntArray> count;
  count->SetName("NeighborCount");
  count->SetNumberOfTuples(cells);
  for (vtkIdType c = 0; c < cells; ++c)
  {
    count->SetValue(c, source[c] < 0 ? -1 : results.count[source[c]]);
  }
  output->GetCellData()->AddArray(count);

  if (!withCentroids)
  {
    return;
  }
  // Centroids come back relative to the origin, in float; the array adds the origin back in the
  // precision of the input points.
  vtkSmartPointer<vtkDataArray> centroids;
  if (output->GetPoints() && output->GetPoints()->GetDataType() == VTK_DOUBLE)
    centroids = vtkSmartPointer<vtkDoubleArray>::New();
  else
    centroids = vtkSmartPointer<vtkFloatArray>::New();
  centroids->SetName("Centroid");
  centroids->SetNumberOfComponents(3);
  centroids->SetNumberOfTuples(cells);
  for (vtkIdType c = 0; c < cells; ++c)
  {
    for (int k = 0; k < 3; ++k)
    {
      centroids->SetComponent(c, k,
        source[c] < 0 ? NAN
                      : static_cast<double>(results.centroids[source[c]].s[k]) + results.origin[k]);
    }
  }
  output->GetCellData()->AddArray(centroids);
}
} // namespace

void vtkGPUNeighborDistance::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  const vtkIdType cells = input->GetNumberOfCells();
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  if (!controller)
  {
    std::vector<vtkIdType> identity(static_cast<std::size_t>(cells));
    for (vtkIdType c = 0; c < cells; ++c)
    {
      identity[c] = c;
    }
    const CellResults results = computeOnDevice(run, input, nullptr, this->ComputeCentroids, this);
    addArrays(results, identity, this->ComputeCentroids, output);
    return;
  }

  // Distributed: the owned cells plus one layer of ghost cells give every owned cell all its
  // neighbours; one origin for all processes makes each value the serial one.
  const vtkGPUMeshDistributed::GhostedPiece piece =
    vtkGPUMeshDistributed::BuildGhostedPiece(input, controller);
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller);
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    const CellResults results =
      computeOnDevice(run, piece.Mesh, &origin, this->ComputeCentroids, this);
    std::vector<vtkIdType> source(static_cast<std::size_t>(cells), -1);
    for (std::size_t c = 0; c < piece.InputCell.size(); ++c)
    {
      if (piece.InputCell[c] >= 0)
      {
        source[piece.InputCell[c]] = static_cast<vtkIdType>(c);
      }
    }
    addArrays(results, source, this->ComputeCentroids, output);
  });
}

void vtkGPUNeighborDistance::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ComputeCentroids: " << this->ComputeCentroids << "\n";
}
