#include "vtkGPULongestEdgeRefinement.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkDoubleArray.h"
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
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshOutputArrays.h"
#include "vtkGPUMeshRefinedTetrahedra.h"
#include "vtkGPUMeshRunReport.h"

#include "vtkCommunicator.h"
#include "vtkMultiProcessController.h"

#include "gpumesh/algorithms/refinement/LongestEdgeRefinement.h"
#include "gpumesh/algorithms/refinement/TetraRefinement.h"
#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/runtime/HostMemory.h"
#include "gpumesh/topology/BoundaryEdges.h"

#include <algorithm>
#include <array>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

vtkStandardNewMacro(vtkGPULongestEdgeRefinement);

namespace
{
// Below one marked triangle in this many, the output's triangles are built from the input's.
constexpr std::size_t fewMarks = 8;

// Whether the mesh is of tetrahedra (else triangles); any other kind, or the two mixed, is an
// error naming the first offending cell (an error path: a plain loop is fine here).
bool requireTrianglesOrTetrahedra(vtkPointSet* input, const gpumesh::DeviceMesh& mesh)
{
  const gpumesh::DeviceCellGroup* sole = mesh.soleFixedSizeGroup();
  if (sole && (sole->kind == gpumesh::CellKind::Triangle || sole->kind == gpumesh::CellKind::Tetra))
  {
    return sole->kind == gpumesh::CellKind::Tetra;
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
  return false;
}

// Under MPI every process must refine the same kind, or their exchanges would not match: a
// piece without cells takes the others' kind, and triangles on one process with tetrahedra on
// another are an error on all of them (as a serial mesh of both kinds is). Collective.
bool agreedTetrahedra(bool tetrahedra, vtkPointSet* input, vtkMultiProcessController* controller)
{
  if (!controller)
  {
    return tetrahedra;
  }
  const long long none = controller->GetNumberOfProcesses();
  const long long rank = controller->GetLocalProcessId();
  const bool hasCells = input->GetNumberOfCells() > 0;
  // The first process with triangles and the first with tetrahedra.
  long long first[2] = { hasCells && !tetrahedra ? rank : none, hasCells && tetrahedra ? rank : none };
  vtkGPUMeshDistributed::AllReduce(controller, first, 2, vtkCommunicator::MIN_OP);
  if (first[0] < none && first[1] < none)
  {
    throw gpumesh::Error("Process " + std::to_string(first[0]) + " has triangles and process " +
      std::to_string(first[1]) +
      " tetrahedra: GPU Longest Edge Refinement refines triangles or tetrahedra, one kind per mesh");
  }
  return first[1] < none;
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
// Point data is interpolated at the new points (the mean of the two parents). The parents come
// down from the device only when something needs them.
void buildPoints(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined)
{
  const vtkIdType old = input->GetNumberOfPoints();
  const auto added = static_cast<vtkIdType>(refined.newPointCount);
  const vtkIdType total = old + added;
  std::vector<cl_int2> parents;
  const auto downloadParents = [&] {
    if (parents.empty() && added > 0)
    {
      parents.resize(refined.newPointCount);
      run.download(refined.pointParents, parents.data(), parents.size(), "point parents");
    }
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
      run.download(refined.newPoints, static_cast<double*>(xyz->GetVoidPointer(3 * old)), 3 * refined.newPointCount, "new points");
    else
      run.download(refined.newPoints, static_cast<float*>(xyz->GetVoidPointer(3 * old)), 3 * refined.newPointCount, "new points");
  }
  else
  {
    downloadParents();
    xyz = vtkSmartPointer<vtkDoubleArray>::New();
    if (source)
      xyz = vtk::TakeSmartPointer(source->NewInstance());
    xyz->SetNumberOfComponents(3);
    xyz->SetNumberOfTuples(total);
    if (source)
      xyz->InsertTuples(0, old, 0, source);
    // Parents always have smaller ids (a later pass's point may have an earlier pass's points
    // as parents), so one pass in order suffices; it covers the new points only.
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
    downloadParents();
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

// The input's triangles (3 ids each, in cell order) narrowed to 32 bits, in parallel, at the
// start of memory reserved for twice as many (the appended triangles follow them there). The
// ids were checked when the device mesh was built.
struct NarrowedTriangles
{
  vtkGPUMeshOutputArrays::Reservation ids{ nullptr, &gpumesh::freeHostMemory };
  vtkIdType capacity = 0; ///< triangles
};

NarrowedTriangles narrowedTriangles(vtkPointSet* input)
{
  auto* polydata = vtkPolyData::SafeDownCast(input);
  vtkCellArray* cells = polydata ? polydata->GetPolys() : vtkUnstructuredGrid::SafeDownCast(input)->GetCells();
  const vtkIdType ids = cells->GetNumberOfConnectivityIds();
  NarrowedTriangles narrowed;
  narrowed.capacity = 2 * input->GetNumberOfCells();
  narrowed.ids = vtkGPUMeshOutputArrays::Reserve(3 * static_cast<std::size_t>(narrowed.capacity) * sizeof(vtkTypeInt32));
  auto* out = static_cast<vtkTypeInt32*>(narrowed.ids.get());
  if (cells->IsStorage64Bit())
  {
    const vtkTypeInt64* in = cells->GetConnectivityArray64()->GetPointer(0);
    vtkSMPTools::For(0, ids, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType i = begin; i < end; ++i)
        out[i] = static_cast<vtkTypeInt32>(in[i]);
    });
  }
  else
  {
    vtkGPUMeshOutputArrays::Copy(out, cells->GetConnectivityArray32()->GetPointer(0), ids * sizeof(vtkTypeInt32));
  }
  return narrowed;
}

// Triangles straight into a 32-bit vtkCellArray; cell data gathered from the parents.
// `inputTriangles` (one pass only): the input's triangles narrowed while the device refined;
// only the kept triangles that changed (the parents of the appended ones, each replaced by its
// first child) then come down, instead of all of them.
void buildCells(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined, std::future<NarrowedTriangles>& inputTriangles)
{
  using vtkGPUMeshOutputArrays::New;
  const auto count = static_cast<vtkIdType>(refined.cellCount);
  const auto kept = static_cast<vtkIdType>(refined.keptCount);
  const vtkIdType appended = count - kept;
  const bool identity = refined.keptParent.empty();

  // Parents first: the appended triangles' parents are the kept triangles that changed.
  auto parentIds = New<vtkIdTypeArray>(count);
  parentIds->SetName("ParentCellId");
  vtkIdType* parentId = parentIds->GetPointer(0);
  const vtkIdType downloadedFrom = identity ? kept : 0;
  auto downloaded = New<vtkTypeInt32Array>(count - downloadedFrom);
  if (!identity)
    run.download(refined.keptParent, downloaded->GetPointer(0), refined.keptCount, "parents");
  run.download(refined.appendedParent, downloaded->GetPointer(kept - downloadedFrom), static_cast<std::size_t>(appended),
    "parents");
  const vtkTypeInt32* fromDevice = downloaded->GetPointer(0);
  vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      parentId[c] = c < downloadedFrom ? c : fromDevice[c - downloadedFrom];
  });

  auto connectivity = vtkSmartPointer<vtkTypeInt32Array>::New();
  NarrowedTriangles narrowed;
  if (inputTriangles.valid())
    narrowed = inputTriangles.get();
  if (narrowed.ids && identity && count <= narrowed.capacity)
  {
    vtkGPUMeshOutputArrays::Adopt(connectivity, std::move(narrowed.ids), 3 * count);
    std::vector<std::int32_t> changed(fromDevice + (kept - downloadedFrom), fromDevice + (count - downloadedFrom));
    changed.erase(std::unique(changed.begin(), changed.end()), changed.end());
    const std::vector<cl_int> firstChildren = gpumesh::gather(run, refined.kept, 3, changed, "refined triangles");
    vtkTypeInt32* corners = connectivity->GetPointer(0);
    for (std::size_t i = 0; i < changed.size(); ++i)
      std::copy_n(&firstChildren[3 * i], 3, corners + 3 * static_cast<vtkIdType>(changed[i]));
  }
  else
  {
    vtkGPUMeshOutputArrays::Allocate(connectivity, 3 * count);
    run.download(refined.kept, connectivity->GetPointer(0), 3 * refined.keptCount, "refined triangles");
  }
  downloaded = nullptr;
  run.download(refined.appended, connectivity->GetPointer(3 * kept), 3 * static_cast<std::size_t>(appended),
    "appended triangles");
  auto offsets = New<vtkTypeInt32Array>(count + 1);
  vtkTypeInt32* offset = offsets->GetPointer(0);
  vtkSMPTools::For(0, count + 1, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      offset[c] = static_cast<vtkTypeInt32>(3 * c);
  });
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);
  if (auto* polydata = vtkPolyData::SafeDownCast(output))
    polydata->SetPolys(cells);
  else
    vtkUnstructuredGrid::SafeDownCast(output)->SetCells(VTK_TRIANGLE, cells);

  // Cell data: after a first pass the kept triangles are their own parents, so their values
  // are one contiguous (parallel) copy; only the appended children (few, for a few marks) are
  // gathered.
  vtkGPUMeshOutputArrays::CopyParentCellData(input->GetCellData(), output->GetCellData(), parentIds,
    identity ? kept : 0);
  output->GetCellData()->AddArray(parentIds);
}
// The edges a piece shares with other processes (the cut), and the closure's exchange across
// them: after each propagation round every process lists the cut edges it divided (by their
// global point ids), and each divides those it shares, until no process divided a new one.
class CutEdgeExchange
{
public:
  using Key = std::pair<long long, long long>;

  // Collective: the boundary edges of all pieces (gpumesh::boundaryEdgeSlots, found on the
  // device) are gathered by their global point ids; those that another process has too are the
  // cut.
  CutEdgeExchange(const gpumesh::BoundaryEdgeSlots& boundary, const std::vector<long long>& globalIds,
    vtkMultiProcessController* controller)
    : Controller(controller)
  {
    for (std::size_t i = 0; i < boundary.slots.size(); ++i)
    {
      const Key edge = key(globalIds, boundary.ends[i].s[0], boundary.ends[i].s[1]);
      this->SlotOf.emplace(edge, boundary.slots[i]); // the first slot of the edge
      // The closure reports an edge by whichever of its slots claimed it: know them all.
      this->KeyOf[boundary.slots[i]] = edge;
    }
    std::vector<long long> mine;
    for (const auto& [edge, slot] : this->SlotOf)
    {
      mine.insert(mine.end(), { edge.first, edge.second });
    }
    std::map<Key, int> holders;
    for (const auto& [owner, values] : this->Gathered(mine))
    {
      for (std::size_t i = 0; i + 1 < values.size(); i += 2)
      {
        ++holders[{ values[i], values[i + 1] }];
      }
    }
    for (auto it = this->SlotOf.begin(); it != this->SlotOf.end();)
    {
      it = holders[it->first] > 1 ? std::next(it) : this->SlotOf.erase(it);
    }
    for (auto it = this->KeyOf.begin(); it != this->KeyOf.end();)
    {
      it = this->SlotOf.count(it->second) ? std::next(it) : this->KeyOf.erase(it);
    }
  }

  // gpumesh::DistributedRefinement::exchange. Collective.
  bool operator()(const std::vector<cl_int>& divided, std::vector<cl_int>& forced, bool failed)
  {
    std::vector<long long> mine = { failed ? 1 : 0 };
    for (cl_int slot : divided)
    {
      const auto found = this->KeyOf.find(slot);
      if (found != this->KeyOf.end())
      {
        mine.insert(mine.end(), { found->second.first, found->second.second });
      }
    }
    bool anyDivided = false;
    const int rank = this->Controller->GetLocalProcessId();
    for (const auto& [process, values] : this->Gathered(mine))
    {
      this->AnyFailed |= !values.empty() && values[0] != 0;
      anyDivided |= values.size() > 1;
      for (std::size_t i = 1; process != rank && i + 1 < values.size(); i += 2)
      {
        const auto found = this->SlotOf.find({ values[i], values[i + 1] });
        if (found != this->SlotOf.end())
        {
          forced.push_back(found->second);
        }
      }
    }
    return anyDivided && !this->AnyFailed;
  }

  bool AnyFailed = false;

private:
  static Key key(const std::vector<long long>& ids, vtkIdType a, vtkIdType b)
  {
    return { std::min(ids[a], ids[b]), std::max(ids[a], ids[b]) };
  }

  // Every process's `mine`, by rank.
  std::vector<std::pair<int, std::vector<long long>>> Gathered(const std::vector<long long>& mine)
  {
    const int processes = this->Controller->GetNumberOfProcesses();
    const vtkIdType count = static_cast<vtkIdType>(mine.size());
    std::vector<vtkIdType> counts(processes), offsets(processes, 0);
    this->Controller->AllGather(&count, counts.data(), 1);
    for (int p = 1; p < processes; ++p)
    {
      offsets[p] = offsets[p - 1] + counts[p - 1];
    }
    std::vector<long long> all(static_cast<std::size_t>(std::max<vtkIdType>(offsets.back() + counts.back(), 1)));
    const long long none = 0;
    this->Controller->AllGatherV(mine.empty() ? &none : mine.data(), all.data(), count, counts.data(), offsets.data());
    std::vector<std::pair<int, std::vector<long long>>> byProcess;
    for (int p = 0; p < processes; ++p)
    {
      byProcess.emplace_back(p, std::vector<long long>(all.begin() + offsets[p], all.begin() + offsets[p] + counts[p]));
    }
    return byProcess;
  }

  vtkMultiProcessController* Controller;
  std::map<Key, cl_int> SlotOf;
  std::map<cl_int, Key> KeyOf;
};
// `refine(distributed)`: the core's refinement of this piece. Under MPI (a controller) the
// closure crosses the cuts through a CutEdgeExchange, and ties go by global point id.
template <typename Refine>
auto refineThisPiece(vtkPointSet* input, vtkMultiProcessController* controller,
  const gpumesh::BoundaryEdgeSlots& boundary, Refine refine)
{
  if (!controller)
  {
    return refine(nullptr);
  }
  gpumesh::DistributedRefinement distributed;
  const std::vector<long long> globalIds = vtkGPUMeshDistributed::GlobalPointIds(input, controller);
  distributed.tieIds.assign(globalIds.begin(), globalIds.end());
  CutEdgeExchange cut(boundary, globalIds, controller);
  distributed.exchange = [&cut](const std::vector<cl_int>& divided, std::vector<cl_int>& forced, bool failed) {
    return cut(divided, forced, failed);
  };
  auto refined = refine(&distributed);
  if (cut.AnyFailed)
  {
    throw gpumesh::Error("Another process failed to refine its piece (see its error)");
  }
  return refined;
}

// The tetrahedra's path: the core refines, the points are built as for triangles, the cells by
// vtkGPUMeshRefinedTetrahedra.
void refineTetrahedra(vtkGPULongestEdgeRefinement* filter, gpumesh::DeviceRun& run, vtkPointSet* input,
  vtkPointSet* output, gpumesh::DeviceMesh mesh, gpumesh::MarkedCells marked, vtkMultiProcessController* controller,
  const gpumesh::BoundaryEdgeSlots& boundary)
{
  gpumesh::RefinedSimplices refined =
    refineThisPiece(input, controller, boundary, [&](const gpumesh::DistributedRefinement* distributed) {
      return gpumesh::refineTetrahedra(run, std::move(mesh), std::move(marked), filter->GetPasses(), distributed);
    });
  filter->UpdateProgress(0.6);
  output->Initialize();
  buildPoints(run, input, output, refined);
  filter->UpdateProgress(0.8);
  vtkGPUMeshRefinedTetrahedra::BuildCells(run, input, output, refined);
  output->GetFieldData()->PassData(input->GetFieldData());
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "MarkedCells", refined.markedCount);
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "CreatedCells",
    refined.cellCount - static_cast<std::size_t>(input->GetNumberOfCells()));
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
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  if (controller && this->Passes != 1)
  {
    throw gpumesh::Error("Under MPI the refinement conforms across processes one pass at a time: "
                         "set Passes to 1 and chain filters for more (Passes is " +
      std::to_string(this->Passes) + ")");
  }
  // Under MPI one origin for all processes (used when double points run in Single precision),
  // so edge lengths, and so the longest edges, are the same on both sides of a cut.
  const std::array<double, 3> origin = controller
    ? vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller)
    : std::array<double, 3>{ 0.0, 0.0, 0.0 };
  vtkGPUMeshAdapter::MeshDescription description;
  std::optional<gpumesh::DeviceMesh> mesh;
  gpumesh::MarkedCells marked;
  gpumesh::BoundaryEdgeSlots boundary;
  bool tetrahedra = false;
  // Checks of this piece: under MPI every process learns whether one failed before any
  // exchange starts.
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
    if (controller)
    {
      description.view.points.origin = origin;
    }
    mesh.emplace(run, description.view);
    tetrahedra = requireTrianglesOrTetrahedra(input, *mesh);
    if (controller)
    {
      boundary = gpumesh::boundaryEdgeSlots(run, *mesh); // where the cuts can run
    }
    if (!this->RefineAll && (!controller || input->GetNumberOfCells() > 0)) // an empty piece may carry no arrays
    {
      vtkDataArray* marks = this->GetRequiredCellArray(inputVector, "Mark Array (or turn Refine All on)");
      marked = markedCells(run, marks, this->MarkThreshold);
    }
    else if (this->RefineAll)
    {
      marked = gpumesh::allCells(run, static_cast<std::size_t>(input->GetNumberOfCells()));
    }
  });
  tetrahedra = agreedTetrahedra(tetrahedra, input, controller);
  this->UpdateProgress(0.1);

  if (tetrahedra)
  {
    refineTetrahedra(this, run, input, output, std::move(*mesh), std::move(marked), controller, boundary);
    return;
  }

  // One pass with few marks leaves most triangles as they are: on a GPU, narrow the input's own
  // while the device refines (see buildCells). A CPU device's triangles are host memory already:
  // they come down as one copy into reused memory, where narrowing would compete with the
  // device for the cores and touch fresh memory.
  std::future<NarrowedTriangles> inputTriangles;
  if (run.info().isGPU && this->Passes == 1 && !this->RefineAll && input->GetNumberOfCells() > 0 &&
    marked.count * fewMarks < static_cast<std::size_t>(input->GetNumberOfCells()))
  {
    inputTriangles = std::async(std::launch::async, narrowedTriangles, input);
  }

  gpumesh::RefinedSimplices refined =
    refineThisPiece(input, controller, boundary, [&](const gpumesh::DistributedRefinement* distributed) {
      return gpumesh::refineLongestEdges(run, std::move(*mesh), std::move(marked), this->Passes, distributed);
    });
  this->UpdateProgress(0.6);

  output->Initialize();
  buildPoints(run, input, output, refined);
  this->UpdateProgress(0.8);
  buildCells(run, input, output, refined, inputTriangles);
  output->GetFieldData()->PassData(input->GetFieldData());
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "MarkedCells", refined.markedCount);
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "CreatedCells",
    refined.cellCount - static_cast<std::size_t>(input->GetNumberOfCells()));
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
