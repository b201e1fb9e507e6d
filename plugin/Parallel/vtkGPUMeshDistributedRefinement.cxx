#include "vtkGPUMeshDistributedRefinement.h"

#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshPieceInterface.h"

#include "vtkCommunicator.h"
#include "vtkMultiProcessController.h"

#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <unordered_set>
#include <string>
#include <utility>
#include <vector>

namespace vtkGPUMeshDistributedRefinement
{

namespace
{
// The edges a piece shares with its neighbours (the cut), and the closure's exchange across
// them: after each propagation round every process sends each neighbour the cut edges the two
// share that it divided (by their global point ids), and each divides those it receives, until
// no process divided a new one.
class CutEdgeExchange
{
public:
  using Key = std::pair<long long, long long>;

  // Collective: a boundary edge of this piece (gpumesh::boundaryEdgeSlots, found on the
  // device) whose two points a neighbour holds too is offered to that neighbour; the edges both
  // offer each other are their cut.
  CutEdgeExchange(const gpumesh::BoundaryEdgeSlots& boundary, vtkGPUMeshPieceInterface& interface,
    vtkMultiProcessController* controller)
    : Controller(controller)
    , Neighbors(interface.Neighbors)
  {
    const std::vector<long long>& ids = interface.GlobalIds;
    const std::size_t count = this->Neighbors.Count();
    std::vector<std::vector<long long>> offered(count);
    std::vector<std::vector<Key>> offeredKeys(count);
    std::vector<std::unordered_set<vtkIdType>> shared(count);
    for (std::size_t n = 0; n < count; ++n)
      shared[n].insert(interface.Shared[n].begin(), interface.Shared[n].end());
    std::map<Key, cl_int> firstSlot;
    for (std::size_t i = 0; i < boundary.slots.size(); ++i)
    {
      const vtkIdType a = boundary.ends[i].s[0], b = boundary.ends[i].s[1];
      const Key edge{ std::min(ids[a], ids[b]), std::max(ids[a], ids[b]) };
      const bool first = firstSlot.emplace(edge, boundary.slots[i]).second;
      // The closure reports an edge by whichever of its slots claimed it: know them all.
      this->KeyOf[boundary.slots[i]] = edge;
      for (std::size_t n = 0; first && n < count; ++n)
      {
        if (shared[n].count(a) && shared[n].count(b))
        {
          offered[n].insert(offered[n].end(), { edge.first, edge.second });
          offeredKeys[n].push_back(edge);
        }
      }
    }
    const auto heard = this->Neighbors.ExchangeValues(offered);
    for (std::size_t n = 0; n < count; ++n)
    {
      std::set<Key> theirs;
      for (std::size_t i = 0; i + 1 < heard[n].size(); i += 2)
        theirs.insert({ heard[n][i], heard[n][i + 1] });
      for (const Key& edge : offeredKeys[n])
      {
        if (theirs.count(edge))
        {
          this->SlotOf.emplace(edge, firstSlot[edge]);
          this->SharedWith[edge].push_back(n);
        }
      }
    }
    for (auto it = this->KeyOf.begin(); it != this->KeyOf.end();)
    {
      it = this->SlotOf.count(it->second) ? std::next(it) : this->KeyOf.erase(it);
    }
  }

  // gpumesh::DistributedRefinement::exchange. Collective.
  bool operator()(const std::vector<cl_int>& divided, std::vector<cl_int>& forced, bool failed)
  {
    const std::size_t count = this->Neighbors.Count();
    std::vector<std::vector<long long>> sent(count);
    long long flags[2] = { failed ? 1 : 0, 0 }; // any failed, any divided a cut edge
    for (cl_int slot : divided)
    {
      const auto found = this->KeyOf.find(slot);
      if (found == this->KeyOf.end())
        continue;
      flags[1] = 1;
      for (std::size_t n : this->SharedWith[found->second])
        sent[n].insert(sent[n].end(), { found->second.first, found->second.second });
    }
    vtkGPUMeshDistributed::AllReduce(this->Controller, flags, 2, vtkCommunicator::MAX_OP);
    this->AnyFailed |= flags[0] != 0;
    const auto heard = this->Neighbors.ExchangeValues(sent);
    for (const auto& values : heard)
    {
      for (std::size_t i = 0; i + 1 < values.size(); i += 2)
      {
        const auto found = this->SlotOf.find({ values[i], values[i + 1] });
        if (found != this->SlotOf.end())
          forced.push_back(found->second);
      }
    }
    return flags[1] != 0 && !this->AnyFailed;
  }

  bool AnyFailed = false;

private:
  vtkMultiProcessController* Controller;
  vtkGPUMeshNeighbors& Neighbors;
  std::map<Key, cl_int> SlotOf;                   // cut edges: the slot that divides it here
  std::map<Key, std::vector<std::size_t>> SharedWith; // cut edges: the neighbours holding it
  std::map<cl_int, Key> KeyOf;                    // every slot of a cut edge
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
  vtkGPUMeshPieceInterface interface = vtkGPUMeshPieceInterface::Find(input, controller);
  distributed.tieIds.assign(interface.GlobalIds.begin(), interface.GlobalIds.end());
  CutEdgeExchange cut(boundary, interface, controller);
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
