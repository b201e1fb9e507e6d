#include "vtkGPUMeshExtractedPolyData.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshOutputArrays.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkCellTypes.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/HostMemory.h"

#include <algorithm>
#include <string>

namespace
{
// Output cells of one kind (verts, lines or polys): point ids in the input's numbering until
// renumbered, and each one's input cell.
// Host vectors as large as the output, in memory whose first touch is cheap (HostMemory.h: on
// the project's VMs 4 KiB page faults cost more than the work, 0.4 s for 1.5M edges).
using Ids = gpumesh::HostVector<vtkIdType>;

struct OutputCells
{
  Ids offsets{ 0 };
  Ids connectivity;
  Ids source;

  void Add(const vtkIdType* ids, vtkIdType n, vtkIdType cell)
  {
    this->connectivity.insert(this->connectivity.end(), ids, ids + n);
    this->offsets.push_back(static_cast<vtkIdType>(this->connectivity.size()));
    this->source.push_back(cell);
  }
  vtkIdType Count() const { return static_cast<vtkIdType>(this->source.size()); }
};

struct LowerCells
{
  OutputCells verts, lines, polys;
};

// A cell of dimension 2 or less, as vtkDataSetSurfaceFilter passes it on.
void addLowerCell(LowerCells& out, int type, vtkIdType n, const vtkIdType* ids, vtkIdType cell, vtkIdType meshCell)
{
  switch (type)
  {
    case VTK_EMPTY_CELL:
      return;
    case VTK_VERTEX:
    case VTK_POLY_VERTEX:
      out.verts.Add(ids, n, cell);
      return;
    case VTK_LINE:
    case VTK_POLY_LINE:
      out.lines.Add(ids, n, cell);
      return;
    case VTK_TRIANGLE:
    case VTK_QUAD:
    case VTK_POLYGON:
      out.polys.Add(ids, n, cell);
      return;
    case VTK_PIXEL:
    {
      const vtkIdType quad[4] = { ids[0], ids[1], ids[3], ids[2] };
      out.polys.Add(quad, 4, cell);
      return;
    }
    case VTK_TRIANGLE_STRIP:
      for (vtkIdType i = 0; i + 2 < n; ++i)
      {
        const vtkIdType triangle[3] = { ids[i + (i % 2)], ids[i + 1 - (i % 2)], ids[i + 2] };
        out.polys.Add(triangle, 3, cell);
      }
      return;
    default:
      throw gpumesh::Error("Cell " + std::to_string(meshCell) + " is a " + vtkGPUMeshAdapter::CellTypeName(type) +
        ", which GPU Extract Surface does not handle (linear cells only)");
  }
}

// The cells of dimension 2 or less among the first `cells` of `mesh`, in cell order.
LowerCells lowerCells(vtkPointSet* mesh, vtkIdType cells, const std::vector<vtkIdType>& inputCell)
{
  LowerCells out;
  const auto input = [&](vtkIdType c) { return inputCell.empty() ? c : inputCell[c]; };
  if (auto* grid = vtkUnstructuredGrid::SafeDownCast(mesh))
  {
    vtkUnsignedCharArray* types = grid->GetCellTypesArray();
    if (!types)
      return out;
    const unsigned char* type = types->GetPointer(0);
    vtkCellArray* cellArray = grid->GetCells();
    vtkIdType n = 0;
    const vtkIdType* ids = nullptr;
    for (vtkIdType c = 0; c < cells; ++c)
    {
      if (type[c] != VTK_EMPTY_CELL && vtkCellTypes::GetDimension(type[c]) < 3)
      {
        cellArray->GetCellAtId(c, n, ids);
        addLowerCell(out, type[c], n, ids, input(c), c);
      }
    }
    return out;
  }
  auto* poly = vtkPolyData::SafeDownCast(mesh);
  if (!poly)
    return out;
  // A vtkPolyData numbers its verts, then lines, polys and strips.
  vtkIdType c = 0;
  const std::pair<vtkCellArray*, int> arrays[] = { { poly->GetVerts(), VTK_POLY_VERTEX },
    { poly->GetLines(), VTK_POLY_LINE }, { poly->GetPolys(), VTK_POLYGON }, { poly->GetStrips(), VTK_TRIANGLE_STRIP } };
  for (const auto& [array, type] : arrays)
  {
    const vtkIdType count = array ? array->GetNumberOfCells() : 0;
    vtkIdType n = 0;
    const vtkIdType* ids = nullptr;
    for (vtkIdType k = 0; k < count && c < cells; ++k, ++c)
    {
      array->GetCellAtId(k, n, ids);
      addLowerCell(out, type, n, ids, input(c), c);
    }
  }
  return out;
}

vtkSmartPointer<vtkIdTypeArray> idArray(const Ids& values, const char* name = nullptr)
{
  auto array = vtkGPUMeshOutputArrays::New<vtkIdTypeArray>(static_cast<vtkIdType>(values.size()));
  if (!values.empty())
    vtkGPUMeshOutputArrays::Copy(array->GetPointer(0), values.data(), values.size() * sizeof(vtkIdType));
  if (name)
    array->SetName(name);
  return array;
}

// `cells` in the output's point numbering (`newId` per input point).
vtkSmartPointer<vtkCellArray> outputCellArray(OutputCells& cells, const Ids& newId)
{
  vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(cells.connectivity.size()), [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType i = begin; i < end; ++i)
      cells.connectivity[i] = newId[cells.connectivity[i]];
  });
  auto array = vtkSmartPointer<vtkCellArray>::New();
  array->SetData(idArray(cells.offsets), idArray(cells.connectivity));
  return array;
}

// The tuples `ids` of every array of `in`, into `out`, with in's active attributes.
void gather(vtkDataSetAttributes* in, vtkDataSetAttributes* out, const Ids& ids)
{
  const auto count = static_cast<vtkIdType>(ids.size());
  std::vector<vtkSmartPointer<vtkAbstractArray>> arrays;
  std::vector<vtkAbstractArray*> to, from;
  for (int a = 0; a < in->GetNumberOfArrays(); ++a)
  {
    from.push_back(in->GetAbstractArray(a));
    arrays.push_back(vtkGPUMeshOutputArrays::NewOutputLike(from.back(), count));
    to.push_back(arrays.back());
  }
  vtkGPUMeshOutputArrays::GatherArrays(to, from, count, 0, ids.data()); // all arrays in one pass
  for (const auto& array : arrays)
    out->AddArray(array);
  vtkGPUMeshOutputArrays::PassActiveAttributes(in, out);
}
void Assemble(vtkPointSet* input, LowerCells& out, const vtkGPUMeshExtractedPolyData::Options& options, vtkPolyData* output);
} // namespace

namespace vtkGPUMeshExtractedPolyData
{

void Build(vtkPointSet* input, vtkPointSet* mesh, vtkIdType cells, const std::vector<vtkIdType>& inputCell,
  const gpumesh::BoundaryFaces& faces, const Options& options, vtkPolyData* output)
{
  LowerCells out = lowerCells(mesh, cells, inputCell);
  // The faces after the 2D cells, as vtkDataSetSurfaceFilter orders them.
  OutputCells& polys = out.polys;
  const std::size_t faceCount = faces.cells.size();
  polys.connectivity.reserve(polys.connectivity.size() + 4 * faceCount);
  polys.offsets.reserve(polys.offsets.size() + faceCount);
  polys.source.reserve(polys.source.size() + faceCount);
  for (std::size_t f = 0; f < faceCount; ++f)
  {
    const cl_int4& v = faces.vertices[f];
    const vtkIdType ids[4] = { v.s[0], v.s[1], v.s[2], v.s[3] };
    const vtkIdType c = faces.cells[f];
    polys.Add(ids, v.s[3] < 0 ? 3 : 4, inputCell.empty() ? c : inputCell[c]);
  }

  Assemble(input, out, options, output);
}

void BuildEdges(vtkPointSet* input, const std::vector<vtkIdType>& inputCell, const gpumesh::ExtractedEdges& edges,
  const Options& options, vtkPolyData* output)
{
  LowerCells out;
  OutputCells& lines = out.lines;
  const std::size_t count = edges.cells.size();
  lines.connectivity.reserve(2 * count);
  lines.offsets.reserve(count + 1);
  lines.source.reserve(count);
  for (std::size_t e = 0; e < count; ++e)
  {
    const vtkIdType ids[2] = { edges.ends[e].s[0], edges.ends[e].s[1] };
    const vtkIdType c = edges.cells[e];
    lines.Add(ids, 2, inputCell.empty() ? c : inputCell[c]);
  }
  Assemble(input, out, options, output);
}

} // namespace vtkGPUMeshExtractedPolyData

namespace
{
// The output of `out` (input point ids), its points those it uses, in input order.
void Assemble(vtkPointSet* input, LowerCells& out, const vtkGPUMeshExtractedPolyData::Options& options, vtkPolyData* output)
{
  // The points used, in input order.
  const vtkIdType inputPoints = input->GetNumberOfPoints();
  Ids newId(static_cast<std::size_t>(inputPoints), 0);
  for (const OutputCells* kind : { &out.verts, &out.lines, &out.polys })
  {
    for (vtkIdType p : kind->connectivity)
    {
      if (p < 0 || p >= inputPoints)
      {
        throw gpumesh::Error("An output cell refers to point " + std::to_string(p) + ", which the input (" +
          std::to_string(inputPoints) + " points) does not have");
      }
      newId[p] = 1;
    }
  }
  Ids usedPoints;
  usedPoints.reserve(static_cast<std::size_t>(inputPoints)); // pages never written cost nothing
  for (vtkIdType p = 0; p < inputPoints; ++p)
  {
    if (newId[p])
    {
      newId[p] = static_cast<vtkIdType>(usedPoints.size());
      usedPoints.push_back(p);
    }
  }
  const auto pointCount = static_cast<vtkIdType>(usedPoints.size());

  vtkNew<vtkPoints> points;
  if (pointCount > 0 || input->GetPoints())
  {
    vtkDataArray* xyz = input->GetPoints()->GetData();
    vtkSmartPointer<vtkAbstractArray> data = vtkGPUMeshOutputArrays::NewOutputLike(xyz, pointCount);
    vtkGPUMeshOutputArrays::GatherArrays({ data.Get() }, { xyz }, pointCount, 0, usedPoints.data());
    points->SetData(vtkDataArray::SafeDownCast(data));
  }
  output->SetPoints(points);
  output->SetVerts(outputCellArray(out.verts, newId));
  output->SetLines(outputCellArray(out.lines, newId));
  output->SetPolys(outputCellArray(out.polys, newId));

  gather(input->GetPointData(), output->GetPointData(), usedPoints);
  Ids sources;
  sources.reserve(static_cast<std::size_t>(out.verts.Count() + out.lines.Count() + out.polys.Count()));
  for (const OutputCells* kind : { &out.verts, &out.lines, &out.polys })
    sources.insert(sources.end(), kind->source.begin(), kind->source.end());
  gather(input->GetCellData(), output->GetCellData(), sources);
  if (options.PassPointIds)
    output->GetPointData()->AddArray(idArray(usedPoints, "vtkOriginalPointIds"));
  if (options.PassCellIds)
    output->GetCellData()->AddArray(idArray(sources, "vtkOriginalCellIds"));
}

} // namespace
