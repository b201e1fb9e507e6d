#include "vtkGPUMeshRefinedMesh.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshHostLoops.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkTimerLog.h"
#include "vtkTypeInt32Array.h"
#include "vtkUnstructuredGrid.h"

#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vtkGPUMeshRefinedMesh
{

namespace
{
// Below one marked triangle in this many, the output's triangles are built from the input's.
constexpr std::size_t fewMarks = 8;

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

NarrowedTriangles narrowedTriangles(vtkPointSet* input, unsigned threads)
{
  auto* polydata = vtkPolyData::SafeDownCast(input);
  vtkCellArray* cells = polydata ? polydata->GetPolys() : vtkUnstructuredGrid::SafeDownCast(input)->GetCells();
  const vtkIdType ids = cells->GetNumberOfConnectivityIds();
  NarrowedTriangles narrowed;
  narrowed.capacity = 2 * input->GetNumberOfCells();
  narrowed.ids =
    vtkGPUMeshOutputArrays::Reserve(3 * static_cast<std::size_t>(narrowed.capacity) * sizeof(vtkTypeInt32));
  auto* out = static_cast<vtkTypeInt32*>(narrowed.ids.get());
  if (cells->IsStorage64Bit())
  {
    const vtkTypeInt64* in = cells->GetConnectivityArray64()->GetPointer(0);
    gpumesh::parallelFor(0, ids, 0, threads,
      [&](std::int64_t begin, std::int64_t end) {
        for (std::int64_t i = begin; i < end; ++i)
          out[i] = static_cast<vtkTypeInt32>(in[i]);
      });
  }
  else
  {
    vtkGPUMeshOutputArrays::Copy(out, cells->GetConnectivityArray32()->GetPointer(0), ids * sizeof(vtkTypeInt32));
  }
  return narrowed;
}
} // namespace

gpumesh::MarkedCells MarkCells(gpumesh::DeviceRun& run, vtkDataArray* array, double threshold)
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

// An error path: a plain loop over the cells is fine here.
gpumesh::CellKind RefinedKind(vtkPointSet* input, const gpumesh::DeviceMesh& mesh)
{
  const gpumesh::DeviceCellGroup* sole = mesh.soleFixedSizeGroup();
  if (sole && (sole->kind == gpumesh::CellKind::Triangle || sole->kind == gpumesh::CellKind::Tetra))
  {
    return sole->kind;
  }
  const int first = input->GetNumberOfCells() > 0 ? input->GetCellType(0) : VTK_TRIANGLE;
  const int expected = first == VTK_TETRA ? VTK_TETRA : VTK_TRIANGLE;
  for (vtkIdType c = 0; c < input->GetNumberOfCells(); ++c)
  {
    const int type = input->GetCellType(c);
    if (type != expected)
    {
      throw gpumesh::Error("Cell " + std::to_string(c) + " is a " + vtkGPUMeshAdapter::CellTypeName(type) +
        (c == 0 ? std::string(": GPU Longest Edge Refinement refines triangles (apply Triangulate first) or "
                              "tetrahedra (apply Tetrahedralize first)")
                : std::string(" in a mesh of ") + vtkGPUMeshAdapter::CellTypeName(expected) +
              "s: GPU Longest Edge Refinement refines triangles or tetrahedra, one kind per mesh"));
    }
  }
  return gpumesh::CellKind::Triangle;
}

std::future<NarrowedTriangles> NarrowTrianglesMeanwhile(
  const gpumesh::DeviceRun& run, vtkPointSet* input, std::size_t markedCount, int passes, bool hostPassesMeanwhile)
{
  const auto cells = static_cast<std::size_t>(input->GetNumberOfCells());
  if (run.info().isGPU && passes == 1 && cells > 0 && markedCount * fewMarks < cells)
  {
    // Where the filter's own loops run meanwhile, on half the threads: those loops get threads
    // of their own (gpumesh::parallelFor), and all of them at once would be twice as many
    // threads as the filter's share of the cores. Else on all: the device refines meanwhile.
    const unsigned all = vtkGPUMeshHostLoops::Threads();
    return std::async(std::launch::async, narrowedTriangles, input, hostPassesMeanwhile ? std::max(1u, all / 2) : all);
  }
  return {};
}

void BuildPoints(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined)
{
  const vtkIdType old = input->GetNumberOfPoints();
  const auto added = static_cast<vtkIdType>(refined.newPointCount);
  const vtkIdType total = old + added;
  // The new points' parents come down only when something needs them.
  std::vector<cl_int2> parents;
  std::optional<vtkGPUMeshOutputArrays::Midpoints> between;
  const auto midpoints = [&]() -> const vtkGPUMeshOutputArrays::Midpoints& {
    if (!between)
    {
      parents.resize(refined.newPointCount);
      if (added > 0)
        run.download(refined.pointParents, parents.data(), parents.size(), "point parents");
      between.emplace(reinterpret_cast<const vtkTypeInt32*>(parents.data()), old, added);
    }
    return *between;
  };
  vtkDataArray* source = input->GetPoints() ? input->GetPoints()->GetData() : nullptr;
  vtkSmartPointer<vtkDataArray> xyz;
  const int deviceType = run.precision() == gpumesh::Precision::Double ? VTK_DOUBLE : VTK_FLOAT;
  const bool shifted = refined.origin[0] != 0.0 || refined.origin[1] != 0.0 || refined.origin[2] != 0.0;
  if (source && source->GetDataType() == deviceType && source->HasStandardMemoryLayout() && !shifted)
  {
    xyz = vtkGPUMeshOutputArrays::NewLike(source, total);
    vtkGPUMeshOutputArrays::CopyTuples(xyz, source, old);
    if (deviceType == VTK_DOUBLE)
      run.download(refined.newPoints, static_cast<double*>(xyz->GetVoidPointer(3 * old)), 3 * refined.newPointCount,
        "new points");
    else
      run.download(refined.newPoints, static_cast<float*>(xyz->GetVoidPointer(3 * old)), 3 * refined.newPointCount,
        "new points");
  }
  else
  {
    if (source)
    {
      xyz = vtkGPUMeshOutputArrays::NewLike(source, total);
      vtkGPUMeshOutputArrays::CopyTuples(xyz, source, old);
    }
    else
    {
      xyz = vtkGPUMeshOutputArrays::New<vtkDoubleArray>(total, 3);
    }
    midpoints().Interpolate(xyz);
  }
  vtkNew<vtkPoints> points;
  points->SetData(xyz);
  output->SetPoints(points);

  vtkPointData* in = input->GetPointData();
  vtkPointData* out = output->GetPointData();
  for (int i = 0; i < in->GetNumberOfArrays(); ++i)
  {
    vtkAbstractArray* from = in->GetAbstractArray(i);
    if (added > 0 && vtkGPUMeshOutputArrays::IsLabel(in, from, true))
      continue;
    vtkSmartPointer<vtkAbstractArray> array = vtkGPUMeshOutputArrays::NewOutputLike(from, total);
    vtkGPUMeshOutputArrays::CopyTuples(array, from, old);
    midpoints().Interpolate(array);
    out->AddArray(array);
  }
  vtkGPUMeshOutputArrays::PassActiveAttributes(in, out);
}

void BuildCells(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined, std::future<NarrowedTriangles>& inputTriangles)
{
  using vtkGPUMeshOutputArrays::New;
  const auto count = static_cast<vtkIdType>(refined.cellCount);
  const auto kept = static_cast<vtkIdType>(refined.keptCount);
  const vtkIdType appended = count - kept;
  const auto vertices = static_cast<vtkIdType>(refined.verticesPerCell());
  // After a first pass (keptParent empty) the kept cells are their own parents.
  const bool identity = refined.keptParent.empty();

  // Parents first: the appended cells' parents are the kept cells that changed.
  vtkTimerLog::MarkStartEvent("GPUMesh: parent ids");
  const vtkIdType downloadedFrom = identity ? kept : 0;
  auto downloaded = New<vtkTypeInt32Array>(count - downloadedFrom);
  if (!identity)
    run.download(refined.keptParent, downloaded->GetPointer(0), refined.keptCount, "parents");
  run.download(refined.appendedParent, downloaded->GetPointer(kept - downloadedFrom),
    static_cast<std::size_t>(appended), "parents");
  const vtkTypeInt32* fromDevice = downloaded->GetPointer(0);
  vtkTimerLog::MarkEndEvent("GPUMesh: parent ids");

  // Cell data, with `ParentCellId`: after a first pass the kept cells are their own parents, so
  // their values are a contiguous copy; the others are gathered from their parents, every array
  // in the same pass over the parents.
  {
    vtkTimerLogScope scope("GPUMesh: cell data");
    auto parentIds = New<vtkIdTypeArray>(count);
    parentIds->SetName("ParentCellId");
    vtkGPUMeshOutputArrays::CopyParentCellData(
      input->GetCellData(), output->GetCellData(), parentIds, downloadedFrom, fromDevice, appended == 0);
    output->GetCellData()->AddArray(parentIds);
  }

  // The cells straight into a 32-bit vtkCellArray. With the input's triangles narrowed while
  // the device refined, only the kept triangles that changed (the parents of the appended ones,
  // each replaced by its first child) come down, instead of all of them.
  auto connectivity = vtkSmartPointer<vtkTypeInt32Array>::New();
  NarrowedTriangles narrowed;
  if (inputTriangles.valid())
    narrowed = inputTriangles.get();
  if (narrowed.ids && identity && count <= narrowed.capacity)
  {
    vtkGPUMeshOutputArrays::Adopt(connectivity, std::move(narrowed.ids), vertices * count);
    std::vector<std::int32_t> changed(fromDevice + (kept - downloadedFrom), fromDevice + (count - downloadedFrom));
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    const std::vector<cl_int> firstChildren =
      gpumesh::gather(run, refined.kept, static_cast<int>(vertices), changed, "refined cells");
    vtkTypeInt32* corners = connectivity->GetPointer(0);
    for (std::size_t i = 0; i < changed.size(); ++i)
      std::copy_n(&firstChildren[vertices * i], vertices, corners + vertices * static_cast<vtkIdType>(changed[i]));
  }
  else
  {
    vtkGPUMeshOutputArrays::Allocate(connectivity, vertices * count);
    run.download(refined.kept, connectivity->GetPointer(0), vertices * refined.keptCount, "refined cells");
  }
  downloaded = nullptr;
  run.download(refined.appended, connectivity->GetPointer(vertices * kept),
    static_cast<std::size_t>(vertices * appended), "appended cells");
  auto offsets = New<vtkTypeInt32Array>(count + 1);
  vtkTypeInt32* offset = offsets->GetPointer(0);
  vtkGPUMeshHostLoops::For(0, count + 1, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      offset[c] = static_cast<vtkTypeInt32>(vertices * c);
  });
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);
  if (auto* polydata = vtkPolyData::SafeDownCast(output))
    polydata->SetPolys(cells);
  else
    vtkUnstructuredGrid::SafeDownCast(output)->SetCells(
      refined.kind == gpumesh::CellKind::Tetra ? VTK_TETRA : VTK_TRIANGLE, cells);
}

} // namespace vtkGPUMeshRefinedMesh
