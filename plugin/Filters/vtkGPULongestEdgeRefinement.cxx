#include "vtkGPULongestEdgeRefinement.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshRunReport.h"

#include "vtkCommunicator.h"
#include "vtkMultiProcessController.h"

#include "gpumesh/LongestEdgeRefinement.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
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
// The edges a piece shares with other processes (the cut), and the closure's exchange across
// them: after each propagation round every process lists the cut edges it divided (by their
// global point ids), and each divides those it shares, until no process divided a new one.
class CutEdgeExchange
{
public:
  using Key = std::pair<long long, long long>;

  // Collective: the boundary edges (used by one triangle here) of all pieces are gathered;
  // those that another process has too are the cut.
  CutEdgeExchange(vtkPointSet* input, const std::vector<long long>& globalIds,
    vtkMultiProcessController* controller)
    : Controller(controller)
  {
    std::map<Key, std::pair<int, cl_int>> uses; // key -> (triangles using it, a slot)
    vtkNew<vtkIdList> corners;
    for (vtkIdType t = 0; t < input->GetNumberOfCells(); ++t)
    {
      input->GetCellPoints(t, corners);
      for (int j = 0; j < 3 && corners->GetNumberOfIds() == 3; ++j)
      {
        auto& use = uses[key(globalIds, corners->GetId(j), corners->GetId((j + 1) % 3))];
        ++use.first;
        use.second = static_cast<cl_int>(3 * t + j);
      }
    }
    std::vector<long long> boundary;
    for (const auto& [edge, use] : uses)
    {
      if (use.first == 1)
      {
        boundary.insert(boundary.end(), { edge.first, edge.second });
        this->SlotOf[edge] = use.second;
      }
    }
    std::map<Key, int> holders;
    for (const auto& [owner, values] : this->Gathered(boundary))
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
    for (const auto& [edge, slot] : this->SlotOf)
    {
      this->KeyOf[slot] = edge;
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
} // namespace

vtkGPULongestEdgeRefinement::vtkGPULongestEdgeRefinement()
{
  this->SetInputArrayToProcess(
    0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, vtkDataSetAttributes::SCALARS);
}

void vtkGPULongestEdgeRefinement::ExecuteOnDevice(
  vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  std::vector<cl_int> marked;
  // Checks of this piece: under MPI every process learns whether one failed before any
  // exchange starts.
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    if (this->Passes < 1)
    {
      throw gpumesh::Error("Passes must be at least 1 (it is " + std::to_string(this->Passes) + ")");
    }
    if (controller && this->Passes != 1)
    {
      throw gpumesh::Error("Under MPI the refinement conforms across processes one pass at a time: "
                           "set Passes to 1 and chain filters for more (Passes is " +
        std::to_string(this->Passes) + ")");
    }
    requireTriangles(input);
    if (this->RefineAll)
    {
      marked.resize(static_cast<std::size_t>(input->GetNumberOfCells()));
      std::iota(marked.begin(), marked.end(), 0);
    }
    else if (!controller || input->GetNumberOfCells() > 0) // an empty piece may carry no arrays
    {
      vtkDataArray* array =
        this->GetRequiredCellArray(inputVector, "Mark Array (or turn Refine All on)");
      marked = markedCells(array, this->MarkThreshold);
    }
  });
  this->UpdateProgress(0.05);

  gpumesh::RefinedTriangles refined;
  if (controller)
  {
    // The closure crosses the cuts; ties go by global point id; one origin for all processes,
    // so edge lengths, and so the longest edges, are the same on both sides of a cut.
    gpumesh::DistributedRefinement distributed;
    const std::vector<long long> globalIds = vtkGPUMeshDistributed::GlobalPointIds(input, controller);
    distributed.tieIds.assign(globalIds.begin(), globalIds.end());
    const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller);
    CutEdgeExchange cut(input, globalIds, controller);
    distributed.exchange = [&cut](const std::vector<cl_int>& divided, std::vector<cl_int>& forced,
                             bool failed) { return cut(divided, forced, failed); };
    std::optional<gpumesh::DeviceMesh> mesh;
    vtkGPUMeshDistributed::AllSucceed(controller, [&] {
      mesh.emplace(run, vtkGPUMeshAdapter::ToHostMesh(input, &origin));
    });
    refined = gpumesh::refineLongestEdges(run, std::move(*mesh), marked, this->Passes, &distributed);
    if (cut.AnyFailed)
    {
      throw gpumesh::Error("Another process failed to refine its piece (see its error)");
    }
  }
  else
  {
    const gpumesh::HostMesh host = vtkGPUMeshAdapter::ToHostMesh(input);
    refined = gpumesh::refineLongestEdges(run, gpumesh::DeviceMesh(run, host), marked, this->Passes);
  }
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
