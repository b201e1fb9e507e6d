#include "vtkGPULongestEdgeRefinement.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkDoubleArray.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkSMPTools.h"
#include "vtkTypeInt32Array.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/LongestEdgeRefinement.h"

#include <algorithm>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkGPULongestEdgeRefinement);

namespace
{
// The first cell that is not a triangle (an error path: a plain loop is fine here).
void requireTriangles(vtkPointSet* input, const gpumesh::DeviceMesh& mesh)
{
  const auto& groups = mesh.groups();
  if (groups.size() == 1 && groups.front().kind == gpumesh::CellKind::Triangle &&
    static_cast<vtkIdType>(groups.front().count) == input->GetNumberOfCells())
  {
    return;
  }
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

gpumesh::ValueType valueType(vtkDataArray* array)
{
  switch (array->GetDataType())
  {
    case VTK_SIGNED_CHAR:
    case VTK_CHAR:
      return gpumesh::ValueType::Int8;
    case VTK_UNSIGNED_CHAR:
      return gpumesh::ValueType::UInt8;
    case VTK_SHORT:
      return gpumesh::ValueType::Int16;
    case VTK_UNSIGNED_SHORT:
      return gpumesh::ValueType::UInt16;
    case VTK_INT:
      return gpumesh::ValueType::Int32;
    case VTK_UNSIGNED_INT:
      return gpumesh::ValueType::UInt32;
    case VTK_LONG:
    case VTK_LONG_LONG:
    case VTK_ID_TYPE:
      return sizeof(long) == 8 || array->GetDataType() != VTK_LONG ? gpumesh::ValueType::Int64
                                                                   : gpumesh::ValueType::Int32;
    case VTK_UNSIGNED_LONG:
    case VTK_UNSIGNED_LONG_LONG:
      return gpumesh::ValueType::UInt64;
    case VTK_FLOAT:
      return gpumesh::ValueType::Float32;
    default:
      return gpumesh::ValueType::Float64;
  }
}

// The marked cells, decided on the device from the array as it is (no host pass over it).
gpumesh::MarkedCells markedCells(gpumesh::DeviceRun& run, vtkDataArray* array, double threshold)
{
  vtkSmartPointer<vtkDataArray> values = array;
  if (!array->HasStandardMemoryLayout() || array->GetDataType() == VTK_BIT)
  {
    values = vtkSmartPointer<vtkDoubleArray>::New();
    values->DeepCopy(array);
  }
  return gpumesh::markCells(run, values->GetVoidPointer(0), valueType(values),
    static_cast<std::size_t>(values->GetNumberOfTuples()), values->GetNumberOfComponents(), threshold);
}

// Old points as they are, then the new ones: straight from the device when it computed in the
// input's type without a shift, else as exact midpoints of their parents in the input's type.
// Point data is interpolated at the new points (the mean of the two parents).
void buildPoints(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedTriangles& refined, const std::vector<cl_int2>& parents)
{
  const vtkIdType old = input->GetNumberOfPoints();
  const auto added = static_cast<vtkIdType>(parents.size());
  const vtkIdType total = old + added;
  vtkDataArray* source = input->GetPoints() ? input->GetPoints()->GetData() : nullptr;
  vtkSmartPointer<vtkDataArray> xyz;
  const int deviceType = run.precision() == gpumesh::Precision::Double ? VTK_DOUBLE : VTK_FLOAT;
  const bool shifted = refined.origin[0] != 0.0 || refined.origin[1] != 0.0 || refined.origin[2] != 0.0;
  if (source && source->GetDataType() == deviceType && !shifted)
  {
    xyz = vtk::TakeSmartPointer(source->NewInstance());
    xyz->SetNumberOfComponents(3);
    xyz->SetNumberOfTuples(total);
    std::copy_n(static_cast<const char*>(source->GetVoidPointer(0)), 3 * old * source->GetDataTypeSize(),
      static_cast<char*>(xyz->GetVoidPointer(0)));
    if (deviceType == VTK_DOUBLE)
      run.download(refined.newPoints, static_cast<double*>(xyz->GetVoidPointer(3 * old)), 3 * parents.size(), "new points");
    else
      run.download(refined.newPoints, static_cast<float*>(xyz->GetVoidPointer(3 * old)), 3 * parents.size(), "new points");
  }
  else
  {
    xyz = vtkSmartPointer<vtkDoubleArray>::New();
    if (source)
      xyz = vtk::TakeSmartPointer(source->NewInstance());
    xyz->SetNumberOfComponents(3);
    xyz->SetNumberOfTuples(total);
    for (vtkIdType p = 0; p < old; ++p)
      xyz->SetTuple(p, source->GetTuple(p));
    // Parents always have smaller ids, so one pass in order suffices.
    double a[3], b[3];
    for (vtkIdType k = 0; k < added; ++k)
    {
      xyz->GetTuple(parents[k].s[0], a);
      xyz->GetTuple(parents[k].s[1], b);
      const double mid[3] = { 0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2]) };
      xyz->SetTuple(old + k, mid);
    }
  }
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  output->SetPoints(points);

  vtkPointData* in = input->GetPointData();
  vtkPointData* out = output->GetPointData();
  for (int i = 0; i < in->GetNumberOfArrays(); ++i)
  {
    vtkAbstractArray* from = in->GetAbstractArray(i);
    vtkSmartPointer<vtkAbstractArray> array = vtk::TakeSmartPointer(from->NewInstance());
    array->DeepCopy(from);
    array->Resize(total);
    array->SetNumberOfTuples(total);
    for (vtkIdType k = 0; k < added; ++k)
      array->InterpolateTuple(old + k, parents[k].s[0], array, parents[k].s[1], array, 0.5);
    out->AddArray(array);
  }
  for (int attribute = 0; attribute < vtkDataSetAttributes::NUM_ATTRIBUTES; ++attribute)
    if (vtkAbstractArray* active = in->GetAbstractAttribute(attribute))
      out->SetActiveAttribute(active->GetName(), attribute);
}

// Triangles straight into a 32-bit vtkCellArray; cell data gathered from the parents.
void buildCells(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedTriangles& refined)
{
  const auto count = static_cast<vtkIdType>(refined.triangleCount);
  const auto kept = static_cast<vtkIdType>(refined.keptCount);
  vtkNew<vtkTypeInt32Array> connectivity;
  connectivity->SetNumberOfValues(3 * count);
  run.download(refined.triangles, connectivity->GetPointer(0), 3 * refined.keptCount, "refined triangles");
  run.download(refined.appended, connectivity->GetPointer(3 * kept), 3 * (refined.triangleCount - refined.keptCount),
    "appended triangles");
  vtkNew<vtkTypeInt32Array> offsets;
  offsets->SetNumberOfValues(count + 1);
  vtkSMPTools::For(0, count + 1, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      offsets->SetValue(c, static_cast<vtkTypeInt32>(3 * c));
  });
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);
  if (auto* polydata = vtkPolyData::SafeDownCast(output))
    polydata->SetPolys(cells);
  else
    vtkUnstructuredGrid::SafeDownCast(output)->SetCells(VTK_TRIANGLE, cells);

  // Parents: the kept triangles are their own parents in a first pass (keptParent empty).
  vtkNew<vtkIdTypeArray> parentIds;
  parentIds->SetName("ParentCellId");
  parentIds->SetNumberOfValues(count);
  std::vector<cl_int> parents(refined.triangleCount);
  if (!refined.keptParent.empty())
    run.download(refined.keptParent, parents.data(), refined.keptCount, "parents");
  run.download(refined.appendedParent, parents.data() + kept, refined.triangleCount - refined.keptCount, "parents");
  const bool identity = refined.keptParent.empty();
  vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      parentIds->SetValue(c, identity && c < kept ? c : parents[static_cast<std::size_t>(c)]);
  });

  // Cell data: after a first pass the kept triangles are their own parents, so their values
  // are one contiguous copy; only the appended children (few, for a few marks) are gathered.
  vtkCellData* in = input->GetCellData();
  vtkCellData* out = output->GetCellData();
  const vtkIdType gatheredFrom = identity ? kept : 0;
  vtkNew<vtkIdList> from;
  from->SetArray(parentIds->GetPointer(gatheredFrom), count - gatheredFrom);
  for (int i = 0; i < in->GetNumberOfArrays(); ++i)
  {
    vtkAbstractArray* source = in->GetAbstractArray(i);
    vtkSmartPointer<vtkAbstractArray> array = vtk::TakeSmartPointer(source->NewInstance());
    array->SetName(source->GetName());
    array->SetNumberOfComponents(source->GetNumberOfComponents());
    array->SetNumberOfTuples(count);
    if (gatheredFrom > 0)
      array->InsertTuples(0, gatheredFrom, 0, source);
    array->InsertTuplesStartingAt(gatheredFrom, from, source);
    out->AddArray(array);
  }
  from->Release(); // the ids stay parentIds'
  for (int attribute = 0; attribute < vtkDataSetAttributes::NUM_ATTRIBUTES; ++attribute)
    if (vtkAbstractArray* active = in->GetAbstractAttribute(attribute))
      out->SetActiveAttribute(active->GetName(), attribute);
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
  const auto description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
  gpumesh::DeviceMesh mesh(run, description.view);
  requireTriangles(input, mesh);
  vtkDataArray* marks =
    this->RefineAll ? nullptr : this->GetRequiredCellArray(inputVector, "Mark Array (or turn Refine All on)");
  gpumesh::MarkedCells marked = marks
    ? markedCells(run, marks, this->MarkThreshold)
    : gpumesh::allCells(run, static_cast<std::size_t>(input->GetNumberOfCells()));
  this->UpdateProgress(0.1);

  const gpumesh::RefinedTriangles refined =
    gpumesh::refineLongestEdges(run, std::move(mesh), std::move(marked), this->Passes);
  this->UpdateProgress(0.6);

  std::vector<cl_int2> pointParents(refined.newPointCount);
  run.download(refined.pointParents, pointParents.data(), pointParents.size(), "point parents");
  output->Initialize();
  buildPoints(run, input, output, refined, pointParents);
  this->UpdateProgress(0.8);
  buildCells(run, input, output, refined);
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
