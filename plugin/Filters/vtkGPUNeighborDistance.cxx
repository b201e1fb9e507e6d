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

#include "gpumesh/NeighborDistance.h"

#include <vector>

vtkStandardNewMacro(vtkGPUNeighborDistance);

namespace
{
template <typename ArrayType, typename Value>
void addCellArray(gpumesh::DeviceRun& run, const gpumesh::DeviceBuffer<Value>& values,
  vtkIdType cells, const char* name, vtkPointSet* output)
{
  vtkNew<ArrayType> array;
  array->SetName(name);
  array->SetNumberOfTuples(cells);
  run.download(values, array->GetPointer(0), static_cast<std::size_t>(cells), name);
  output->GetCellData()->AddArray(array);
}

// Centroids come back relative to the mesh origin, in float; the array adds the origin back
// in the precision of the input points.
void addCentroids(gpumesh::DeviceRun& run, const gpumesh::DeviceBuffer<cl_float4>& centroids,
  const gpumesh::HostMesh& mesh, vtkPointSet* output)
{
  const vtkIdType cells = output->GetNumberOfCells();
  std::vector<cl_float4> host(static_cast<std::size_t>(cells));
  run.download(centroids, host.data(), host.size(), "centroids");
  vtkSmartPointer<vtkDataArray> array;
  if (output->GetPoints() && output->GetPoints()->GetDataType() == VTK_DOUBLE)
    array = vtkSmartPointer<vtkDoubleArray>::New();
  else
    array = vtkSmartPointer<vtkFloatArray>::New();
  array->SetName("Centroid");
  array->SetNumberOfComponents(3);
  array->SetNumberOfTuples(cells);
  for (vtkIdType c = 0; c < cells; ++c)
  {
    for (int k = 0; k < 3; ++k)
    {
      array->SetComponent(c, k, static_cast<double>(host[c].s[k]) + mesh.origin()[k]);
    }
  }
  output->GetCellData()->AddArray(array);
}
} // namespace

void vtkGPUNeighborDistance::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  const vtkIdType cells = input->GetNumberOfCells();
  const gpumesh::HostMesh host = vtkGPUMeshAdapter::ToHostMesh(input);
  this->UpdateProgress(0.1);
  const gpumesh::DeviceMesh mesh(run, host);
  this->UpdateProgress(0.2);
  const gpumesh::CellEntities sides(run, mesh, gpumesh::EntityType::Sides);
  this->UpdateProgress(0.6);
  const auto centroids = gpumesh::computeCentroids(run, mesh);
  const gpumesh::NeighborDistances distances =
    gpumesh::computeNeighborDistances(run, mesh, sides, centroids);
  this->UpdateProgress(0.8);

  addCellArray<vtkFloatArray>(run, distances.minimum, cells, "MinNeighborDistance", output);
  addCellArray<vtkFloatArray>(run, distances.maximum, cells, "MaxNeighborDistance", output);
  addCellArray<vtkFloatArray>(run, distances.mean, cells, "MeanNeighborDistance", output);
  addCellArray<vtkIntArray>(run, distances.count, cells, "NeighborCount", output);
  if (this->ComputeCentroids)
  {
    addCentroids(run, centroids, host, output);
  }
}

void vtkGPUNeighborDistance::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "ComputeCentroids: " << this->ComputeCentroids << "\n";
}
