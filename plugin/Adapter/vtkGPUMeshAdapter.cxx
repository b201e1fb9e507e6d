#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshOutputArrays.h"
#include "vtkGPUMeshPiece.h"

#include "vtkCellArray.h"
#include "vtkCellType.h"
#include "vtkCellTypes.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFloatArray.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkTimerLog.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include "gpumesh/runtime/Error.h"

namespace vtkGPUMeshAdapter
{

namespace
{
// VTK's cell types as the core's kinds; everything not listed is an error naming the cell.
const gpumesh::CellTypeTable& vtkCellTypeTable()
{
  static const gpumesh::CellTypeTable table = [] {
    using gpumesh::CellKind;
    gpumesh::CellTypeTable t;
    for (int code : { VTK_EMPTY_CELL, VTK_VERTEX, VTK_POLY_VERTEX })
      t.entries[code] = gpumesh::CellTypeTable::leftOut;
    t.set(VTK_LINE, CellKind::Line);
    t.set(VTK_POLY_LINE, CellKind::PolyLine);
    t.set(VTK_TRIANGLE, CellKind::Triangle);
    t.set(VTK_TRIANGLE_STRIP, CellKind::TriangleStrip);
    t.set(VTK_QUAD, CellKind::Quad);
    t.set(VTK_PIXEL, CellKind::Quad, true); // corners in raster order
    t.set(VTK_POLYGON, CellKind::Polygon);
    t.set(VTK_TETRA, CellKind::Tetra);
    t.set(VTK_HEXAHEDRON, CellKind::Hexahedron);
    t.set(VTK_VOXEL, CellKind::Hexahedron, true);
    t.set(VTK_WEDGE, CellKind::Wedge);
    t.set(VTK_PYRAMID, CellKind::Pyramid);
    t.describe = [](int code) { return CellTypeName(code); };
    return t;
  }();
  return table;
}

gpumesh::CellSection describeCells(vtkCellArray* cells, gpumesh::SectionLayout layout, vtkIdType firstCellId)
{
  gpumesh::CellSection section;
  section.layout = layout;
  section.firstCellId = firstCellId;
  section.cellCount = cells ? cells->GetNumberOfCells() : 0;
  if (section.cellCount == 0)
  {
    return section;
  }
  section.indices64 = cells->IsStorage64Bit();
  if (section.indices64)
  {
    section.offsets = cells->GetOffsetsArray64()->GetPointer(0);
    section.connectivity = cells->GetConnectivityArray64()->GetPointer(0);
  }
  else
  {
    section.offsets = cells->GetOffsetsArray32()->GetPointer(0);
    section.connectivity = cells->GetConnectivityArray32()->GetPointer(0);
  }
  return section;
}
} // namespace

std::string CellTypeName(int vtkCellType)
{
  const char* name = vtkCellTypes::GetClassNameFromTypeId(vtkCellType);
  return name && *name ? name : "cell type " + std::to_string(vtkCellType);
}

gpumesh::Precision ResolvePrecision(int property, vtkPointSet* input)
{
  if (property == 1) // vtkGPUMeshFilter::PRECISION_SINGLE
    return gpumesh::Precision::Single;
  if (property == 2) // vtkGPUMeshFilter::PRECISION_DOUBLE
    return gpumesh::Precision::Double;
  vtkPoints* points = input->GetPoints();
  return points && points->GetDataType() == VTK_FLOAT ? gpumesh::Precision::Single : gpumesh::Precision::Double;
}

MeshDescription DescribeMesh(vtkPointSet* input, gpumesh::Precision precision)
{
  vtkTimerLogScope scope("GPUMesh: describe mesh");
  MeshDescription description;
  gpumesh::MeshView& view = description.view;
  // The input outlives every DeviceMesh a filter makes from it and is not modified meanwhile.
  view.readInPlace = true;
  vtkPoints* points = input->GetPoints();
  if (points && points->GetNumberOfPoints() > 0)
  {
    vtkDataArray* data = points->GetData();
    if (!vtkFloatArray::FastDownCast(data) && !vtkDoubleArray::FastDownCast(data))
    {
      description.convertedPoints = vtkSmartPointer<vtkDoubleArray>::New();
      description.convertedPoints->DeepCopy(data);
      data = description.convertedPoints;
    }
    view.points.count = data->GetNumberOfTuples();
    view.points.isDouble = data->GetDataType() == VTK_DOUBLE;
    view.points.xyz = data->GetVoidPointer(0);
    if (view.points.roundedIn(precision))
    {
      // Doubles rounded to float keep more of a distant mesh's shape relative to its centre.
      double bounds[6];
      data->GetRange(bounds, 0);
      data->GetRange(bounds + 2, 1);
      data->GetRange(bounds + 4, 2);
      for (int c = 0; c < 3; ++c)
        view.points.origin[c] = 0.5 * (bounds[2 * c] + bounds[2 * c + 1]);
    }
  }

  if (auto* grid = vtkUnstructuredGrid::SafeDownCast(input))
  {
    gpumesh::CellSection section = describeCells(grid->GetCells(), gpumesh::SectionLayout::ByTypeCode, 0);
    if (section.cellCount > 0)
    {
      section.typeCodes = grid->GetCellTypesArray()->GetPointer(0);
      section.table = &vtkCellTypeTable();
    }
    view.sections.push_back(section);
  }
  else if (auto* polydata = vtkPolyData::SafeDownCast(input))
  {
    // Cell ids of a vtkPolyData run through its vertices, lines, polygons, then strips.
    const std::pair<vtkCellArray*, gpumesh::SectionLayout> parts[4] = {
      { polydata->GetVerts(), gpumesh::SectionLayout::LeftOut },
      { polydata->GetLines(), gpumesh::SectionLayout::Lines },
      { polydata->GetPolys(), gpumesh::SectionLayout::Polygons },
      { polydata->GetStrips(), gpumesh::SectionLayout::Strips } };
    vtkIdType first = 0;
    for (const auto& [cells, layout] : parts)
    {
      view.sections.push_back(describeCells(cells, layout, first));
      first += view.sections.back().cellCount;
    }
  }
  else
  {
    throw gpumesh::Error(std::string("GPUMesh filters take vtkPolyData or vtkUnstructuredGrid, not ") +
      input->GetClassName());
  }
  return description;
}

MeshDescription DescribeMesh(const vtkGPUMeshPiece& piece, gpumesh::Precision precision)
{
  MeshDescription description = DescribeMesh(piece.Data, precision);
  if (!piece.MoreCells && !piece.MorePoints)
  {
    return description;
  }
  gpumesh::MeshView& view = description.view;
  vtkDataArray* more = piece.MorePoints;
  const vtkIdType morePoints = more ? more->GetNumberOfTuples() : 0;
  if (morePoints > 0)
  {
    // The tail in the type the head went in (double for a type the device does not take).
    const int type = view.points.count > 0 ? (view.points.isDouble ? VTK_DOUBLE : VTK_FLOAT)
      : more->GetDataType() == VTK_FLOAT                    ? VTK_FLOAT
                                                            : VTK_DOUBLE;
    if (more->GetDataType() != type)
    {
      description.convertedTail = type == VTK_FLOAT ? vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkFloatArray>::New())
                                                    : vtkSmartPointer<vtkDataArray>(vtkSmartPointer<vtkDoubleArray>::New());
      description.convertedTail->DeepCopy(more);
      more = description.convertedTail;
    }
    view.points.isDouble = type == VTK_DOUBLE;
    view.points.tailXyz = more->GetVoidPointer(0);
    view.points.tailCount = morePoints;
    view.points.count += morePoints;
  }
  if (piece.MoreCells && piece.MoreCells->GetNumberOfCells() > 0)
  {
    gpumesh::CellSection section =
      describeCells(piece.MoreCells, gpumesh::SectionLayout::ByTypeCode, piece.Data->GetNumberOfCells());
    section.typeCodes = piece.MoreTypes->GetPointer(0);
    section.table = &vtkCellTypeTable();
    view.sections.push_back(section);
  }
  return description;
}

gpumesh::RealBuffer UploadArray(gpumesh::DeviceRun& run, vtkDataArray* values, vtkDataArray* more)
{
  if (!more || more->GetNumberOfValues() == 0)
  {
    return UploadArray(run, values);
  }
  const auto head = static_cast<std::size_t>(values->GetNumberOfValues());
  const auto tail = static_cast<std::size_t>(more->GetNumberOfValues());
  const gpumesh::RealBuffer first = UploadArray(run, values);
  const gpumesh::RealBuffer second = UploadArray(run, more);
  gpumesh::RealBuffer both = run.allocateReal(head + tail, std::string("array '") + (values->GetName() ? values->GetName() : "") + "'");
  run.copyReal(first, both, head, "array");
  run.copyReal(second, both, tail, "array", head);
  return both;
}

gpumesh::RealBuffer UploadArray(gpumesh::DeviceRun& run, vtkDataArray* array)
{
  vtkTimerLogScope scope("GPUMesh: upload array");
  const std::string name = std::string("array '") + (array->GetName() ? array->GetName() : "") + "'";
  const auto values = static_cast<std::size_t>(array->GetNumberOfValues());
  if (auto* floats = vtkFloatArray::FastDownCast(array))
    return run.uploadReal(floats->GetPointer(0), values, name);
  vtkSmartPointer<vtkDoubleArray> doubles = vtkDoubleArray::FastDownCast(array);
  if (!doubles)
  {
    doubles = vtkSmartPointer<vtkDoubleArray>::New();
    doubles->DeepCopy(array);
  }
  return run.uploadReal(doubles->GetPointer(0), values, name);
}

vtkSmartPointer<vtkDataArray> DownloadArray(gpumesh::DeviceRun& run, const gpumesh::RealBuffer& values,
  vtkIdType tuples, int components, const char* name)
{
  vtkTimerLogScope scope("GPUMesh: download array");
  const auto fill = [&](auto array) -> vtkSmartPointer<vtkDataArray> {
    array->SetName(name);
    array->SetNumberOfComponents(components);
    vtkGPUMeshOutputArrays::Allocate(array, tuples);
    run.download(values, array->GetPointer(0), static_cast<std::size_t>(tuples) * components,
      name ? name : "points");
    return array;
  };
  if (run.precision() == gpumesh::Precision::Double)
    return fill(vtkSmartPointer<vtkDoubleArray>::New());
  return fill(vtkSmartPointer<vtkFloatArray>::New());
}

} // namespace vtkGPUMeshAdapter
