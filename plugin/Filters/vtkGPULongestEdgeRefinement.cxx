#include "vtkGPULongestEdgeRefinement.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/LongestEdgeRefinement.h"

#include <cmath>
#include <numeric>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkGPULongestEdgeRefinement);

namespace
{
void requireTriangles(vtkPointSet* input)
{
  for (vtkIdType c = 0; c < input->GetNumberOfCells(); ++c)
  {
    const int type = input->GetCellType(c);
    if (type != VTK_TRIANGLE)
    {
      throw gpumesh::Error("Cell " + std::to_string(c) + " is a " +
        vtkGPUMeshAdapter::CellTypeName(type) +
        ": GPU Longest Edge Refinement refines triangles only (apply Triangulate first)");
    }
  }
}

// The cells whose mark (magnitude for vectors) is above the threshold; NaN never marks.
std::vector<cl_int> markedCells(vtkDataArray* array, double threshold)
{
  std::vector<cl_int> marked;
  const int components = array->GetNumberOfComponents();
  for (vtkIdType c = 0; c < array->GetNumberOfTuples(); ++c)
  {
    double value = 0.0;
    if (components == 1)
    {
      value = array->GetComponent(c, 0);
    }
    else
    {
      for (int k = 0; k < components; ++k)
        value += array->GetComponent(c, k) * array->GetComponent(c, k);
      value = std::sqrt(value);
    }
    if (value > threshold)
      marked.push_back(static_cast<cl_int>(c));
  }
  return marked;
}

// New points at the exact midpoints of their parents, in the input's precision; point data
// interpolated there. Parents always have smaller ids, so one pass in order suffices.
void buildPoints(vtkPointSet* input, vtkPointSet* output, const std::vector<cl_int2>& parents)
{
  const vtkIdType old = input->GetNumberOfPoints();
  const vtkIdType total = old + static_cast<vtkIdType>(parents.size());
  vtkNew<vtkPoints> points;
  points->SetDataType(input->GetPoints() ? input->GetPoints()->GetDataType() : VTK_FLOAT);
  points->SetNumberOfPoints(total);
  for (vtkIdType p = 0; p < old; ++p)
    points->SetPoint(p, input->GetPoint(p));
  double a[3], b[3];
  for (std::size_t k = 0; k < parents.size(); ++k)
  {
    points->GetPoint(parents[k].s[0], a);
    points->GetPoint(parents[k].s[1], b);
    points->SetPoint(old + static_cast<vtkIdType>(k), 0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2]));
  }
  output->SetPoints(points);

  vtkPointData* in = input->GetPointData();
  vtkPointData* out = output->GetPointData();
  for (int i = 0; i < in->GetNumberOfArrays(); ++i)
  {
    vtkAbstractArray* source = in->GetAbstractArray(i);
    vtkSmartPointer<vtkAbstractArray> array = vtk::TakeSmartPointer(source->NewInstance());
    array->DeepCopy(source);
    array->Resize(total);
    array->SetNumberOfTuples(total);
    for (std::size_t k = 0; k < parents.size(); ++k)
      array->InterpolateTuple(old + static_cast<vtkIdType>(k), parents[k].s[0], array, parents[k].s[1], array, 0.5);
    out->AddArray(array);
  }
  out->CopyAllOn();
  for (int attribute = 0; attribute < vtkDataSetAttributes::NUM_ATTRIBUTES; ++attribute)
    if (vtkAbstractArray* active = in->GetAbstractAttribute(attribute))
      out->SetActiveAttribute(active->GetName(), attribute);
}

void buildCells(vtkPointSet* input, vtkPointSet* output, const std::vector<cl_int>& triangles,
  const std::vector<cl_int>& parent)
{
  const auto count = static_cast<vtkIdType>(parent.size());
  vtkNew<vtkIdTypeArray> connectivity;
  connectivity->SetNumberOfValues(3 * count);
  for (vtkIdType i = 0; i < 3 * count; ++i)
    connectivity->SetValue(i, triangles[static_cast<std::size_t>(i)]);
  vtkNew<vtkCellArray> cells;
  cells->SetData(3, connectivity);
  if (auto* polydata = vtkPolyData::SafeDownCast(output))
    polydata->SetPolys(cells);
  else
    vtkUnstructuredGrid::SafeDownCast(output)->SetCells(VTK_TRIANGLE, cells);

  vtkCellData* in = input->GetCellData();
  vtkCellData* out = output->GetCellData();
  out->CopyAllocate(in, count);
  vtkNew<vtkIdTypeArray> parentIds;
  parentIds->SetName("ParentCellId");
  parentIds->SetNumberOfValues(count);
  for (vtkIdType c = 0; c < count; ++c)
  {
    out->CopyData(in, parent[static_cast<std::size_t>(c)], c);
    parentIds->SetValue(c, parent[static_cast<std::size_t>(c)]);
  }
  out->AddArray(parentIds);
}
} // namespace

vtkGPULongestEdgeRefinement::vtkGPULongestEdgeRefinement()
{
  this->SetInputArrayToProcess(
    0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, vtkDataSetAttributes::SCALARS);
}

void vtkGPULongestEdgeRefinement::ExecuteOnDevice(
  vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  if (this->Passes < 1)
  {
    throw gpumesh::Error("Passes must be at least 1 (it is " + std::to_string(this->Passes) + ")");
  }
  requireTriangles(input);
  std::vector<cl_int> marked;
  if (this->RefineAll)
  {
    marked.resize(static_cast<std::size_t>(input->GetNumberOfCells()));
    std::iota(marked.begin(), marked.end(), 0);
  }
  else
  {
    vtkDataArray* array =
      this->GetRequiredCellArray(inputVector, "Mark Array (or turn Refine All on)");
    marked = markedCells(array, this->MarkThreshold);
  }
  this->UpdateProgress(0.05);

  const gpumesh::HostMesh host = vtkGPUMeshAdapter::ToHostMesh(input);
  gpumesh::RefinedTriangles refined =
    gpumesh::refineLongestEdges(run, gpumesh::DeviceMesh(run, host), marked, this->Passes);
  this->UpdateProgress(0.6);

  std::vector<cl_int> triangles;
  std::vector<cl_int> parent;
  std::vector<cl_int2> pointParents(refined.newPointCount);
  refined.download(run, triangles, parent);
  run.download(refined.pointParents, pointParents.data(), pointParents.size(), "point parents");
  this->UpdateProgress(0.8);

  output->Initialize();
  buildPoints(input, output, pointParents);
  buildCells(input, output, triangles, parent);
  output->GetFieldData()->PassData(input->GetFieldData());
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "MarkedCells", refined.markedCount);
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "CreatedCells",
    refined.triangleCount - static_cast<std::size_t>(input->GetNumberOfCells()));
}

void vtkGPULongestEdgeRefinement::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  const char* array = this->GetChosenArrayName();
  os << indent << "MarkArray: " << (array ? array : "(active cell scalars)") << "\n";
  os << indent << "MarkThreshold: " << this->MarkThreshold << "\n";
  os << indent << "RefineAll: " << this->RefineAll << "\n";
  os << indent << "Passes: " << this->Passes << "\n";
}
