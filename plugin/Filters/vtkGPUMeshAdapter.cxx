#include "vtkGPUMeshAdapter.h"

#include "vtkCellArray.h"
#include "vtkCellIterator.h"
#include "vtkCellType.h"
#include "vtkCellTypes.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFloatArray.h"
#include "vtkIdList.h"
#include "vtkNew.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkSmartPointer.h"
#include "vtkUnstructuredGrid.h"

#include "gpumesh/Error.h"

#include <cfloat>
#include <cmath>

namespace vtkGPUMeshAdapter
{

namespace
{
struct KindAndOrder
{
  bool supported = false;
  bool leftOut = false;
  gpumesh::CellKind kind = gpumesh::CellKind::Line;
  std::vector<int> order; // VTK vertex index for each core vertex slot (empty: same order)
};

KindAndOrder classify(int type)
{
  using gpumesh::CellKind;
  switch (type)
  {
    case VTK_EMPTY_CELL:
    case VTK_VERTEX:
    case VTK_POLY_VERTEX:
      return { true, true, CellKind::Line, {} };
    case VTK_LINE:
      return { true, false, CellKind::Line, {} };
    case VTK_POLY_LINE:
      return { true, false, CellKind::PolyLine, {} };
    case VTK_TRIANGLE:
      return { true, false, CellKind::Triangle, {} };
    case VTK_TRIANGLE_STRIP:
      return { true, false, CellKind::TriangleStrip, {} };
    case VTK_QUAD:
      return { true, false, CellKind::Quad, {} };
    case VTK_PIXEL: // pixels number their corners in raster order
      return { true, false, CellKind::Quad, { 0, 1, 3, 2 } };
    case VTK_POLYGON:
      return { true, false, CellKind::Polygon, {} };
    case VTK_TETRA:
      return { true, false, CellKind::Tetra, {} };
    case VTK_HEXAHEDRON:
      return { true, false, CellKind::Hexahedron, {} };
    case VTK_VOXEL:
      return { true, false, CellKind::Hexahedron, { 0, 1, 3, 2, 4, 5, 7, 6 } };
    case VTK_WEDGE:
      return { true, false, CellKind::Wedge, {} };
    case VTK_PYRAMID:
      return { true, false, CellKind::Pyramid, {} };
    default:
      return {};
  }
}

template <typename Real>
bool copyPointsAs(vtkDataArray* data, gpumesh::HostMesh& mesh)
{
  using ArrayType = std::conditional_t<std::is_same<Real, float>::value, vtkFloatArray, vtkDoubleArray>;
  auto* typed = ArrayType::FastDownCast(data);
  if (!typed)
  {
    return false;
  }
  mesh.setPoints(typed->GetPointer(0), typed->GetNumberOfTuples());
  return true;
}
} // namespace

std::string CellTypeName(int vtkCellType)
{
  const char* name = vtkCellTypes::GetClassNameFromTypeId(vtkCellType);
  return name && *name ? name : "cell type " + std::to_string(vtkCellType);
}

gpumesh::HostMesh ToHostMesh(vtkPointSet* input)
{
  gpumesh::HostMesh mesh;
  vtkPoints* points = input->GetPoints();
  if (points && points->GetNumberOfPoints() > 0)
  {
    vtkDataArray* data = points->GetData();
    if (!copyPointsAs<float>(data, mesh) && !copyPointsAs<double>(data, mesh))
    {
      vtkNew<vtkDoubleArray> converted;
      converted->DeepCopy(data);
      mesh.setPoints(converted->GetPointer(0), converted->GetNumberOfTuples());
    }
  }
  mesh.setCellCount(input->GetNumberOfCells());

  // Walk the cell arrays directly (a vtkCellIterator costs a virtual call and a copy per cell).
  std::vector<std::int64_t> ids;
  const auto addCell = [&](vtkIdType cellId, int type, vtkIdType n, const vtkIdType* pointIds) {
    const KindAndOrder how = classify(type);
    if (!how.supported)
    {
      throw gpumesh::Error("Cell " + std::to_string(cellId) + " is a " + CellTypeName(type) +
        ", which GPUMesh filters do not handle (supported: lines, polylines, triangles, strips, "
        "quads, pixels, polygons, tetrahedra, hexahedra, voxels, wedges, pyramids)");
    }
    if (how.leftOut)
    {
      return;
    }
    if (!how.order.empty() && n != static_cast<vtkIdType>(how.order.size()))
    {
      throw gpumesh::Error("Cell " + std::to_string(cellId) + " is a " + CellTypeName(type) +
        " with " + std::to_string(n) + " points");
    }
    ids.resize(static_cast<std::size_t>(n));
    for (vtkIdType k = 0; k < n; ++k)
    {
      ids[static_cast<std::size_t>(k)] = pointIds[how.order.empty() ? k : how.order[k]];
    }
    mesh.addCell(cellId, how.kind, ids.data(), n);
  };

  vtkIdType n = 0;
  const vtkIdType* pointIds = nullptr;
  if (auto* grid = vtkUnstructuredGrid::SafeDownCast(input))
  {
    vtkCellArray* cells = grid->GetCells();
    for (vtkIdType c = 0; cells && c < grid->GetNumberOfCells(); ++c)
    {
      cells->GetCellAtId(c, n, pointIds);
      addCell(c, grid->GetCellType(c), n, pointIds);
    }
  }
  else if (auto* polydata = vtkPolyData::SafeDownCast(input))
  {
    // Cell ids of a vtkPolyData run through its vertices, lines, polygons, then strips.
    vtkIdType cellId = 0;
    vtkCellArray* arrays[4] = { polydata->GetVerts(), polydata->GetLines(), polydata->GetPolys(),
      polydata->GetStrips() };
    for (int a = 0; a < 4; ++a)
    {
      for (vtkIdType c = 0; arrays[a] && c < arrays[a]->GetNumberOfCells(); ++c, ++cellId)
      {
        arrays[a]->GetCellAtId(c, n, pointIds);
        addCell(cellId, polydata->GetCellType(cellId), n, pointIds);
      }
    }
  }
  else
  {
    vtkSmartPointer<vtkCellIterator> cell = vtkSmartPointer<vtkCellIterator>::Take(input->NewCellIterator());
    for (cell->InitTraversal(); !cell->IsDoneWithTraversal(); cell->GoToNextCell())
    {
      addCell(cell->GetCellId(), cell->GetCellType(), cell->GetNumberOfPoints(),
        cell->GetPointIds()->GetPointer(0));
    }
  }
  return mesh;
}

std::vector<float> ToFloats(vtkDataArray* array)
{
  const vtkIdType tuples = array->GetNumberOfTuples();
  const int components = array->GetNumberOfComponents();
  std::vector<float> values(static_cast<std::size_t>(tuples) * static_cast<std::size_t>(components));
  std::size_t next = 0;
  for (vtkIdType t = 0; t < tuples; ++t)
  {
    for (int c = 0; c < components; ++c)
    {
      const double value = array->GetComponent(t, c);
      if (std::isfinite(value) && std::abs(value) > FLT_MAX)
      {
        throw gpumesh::Error("Array '" + std::string(array->GetName() ? array->GetName() : "") +
          "' holds " + gpumesh::formatNumber(value) + " at tuple " + std::to_string(t) +
          ", which does not fit in single precision");
      }
      values[next++] = static_cast<float>(value);
    }
  }
  return values;
}

} // namespace vtkGPUMeshAdapter
