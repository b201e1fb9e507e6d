#include "vtkGPUMeshDistributedRefinement.h"

#include "vtkGPUMeshDistributed.h"

#include "vtkCommunicator.h"
#include "vtkMultiProcessController.h"

#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vtkGPUMeshDistributedRefinement
{

namespace
{
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
} // namespace

gpumesh::CellKind AgreedKind(gpumesh::CellKind pieceKind, bool pieceHasCells, vtkMultiProcessController* controller)
{
  if (!controller)
  {
    return pieceKind;
  }
  const bool tetrahedra = pieceKind == gpumesh::CellKind::Tetra;
  const long long none = controller->GetNumberOfProcesses();
  const long long rank = controller->GetLocalProcessId();
  // The first process with triangles and the first with tetrahedra.
  long long first[2] = { pieceHasCells && !tetrahedra ? rank : none, pieceHasCells && tetrahedra ? rank : none };
  vtkGPUMeshDistributed::AllReduce(controller, first, 2, vtkCommunicator::MIN_OP);
  if (first[0] < none && first[1] < none)
  {
    throw gpumesh::Error("Process " + std::to_string(first[0]) + " has triangles and process " +
      std::to_string(first[1]) +
      " tetrahedra: GPU Longest Edge Refinement refines triangles or tetrahedra, one kind per mesh");
  }
  return first[1] < none ? gpumesh::CellKind::Tetra : gpumesh::CellKind::Triangle;
}

gpumesh::RefinedSimplices RefinePiece(vtkPointSet* input, vtkMultiProcessController* controller,
  const gpumesh::BoundaryEdgeSlots& boundary,
  const std::function<gpumesh::RefinedSimplices(const gpumesh::DistributedRefinement*)>& refine)
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
  gpumesh::RefinedSimplices refined = refine(&distributed);
  if (cut.AnyFailed)
  {
    throw gpumesh::Error("Another process failed to refine its piece (see its error)");
  }
  return refined;
}

} // namespace vtkGPUMeshDistributedRefinement
