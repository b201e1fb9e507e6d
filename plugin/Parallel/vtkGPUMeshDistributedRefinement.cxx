#include "vtkGPUMeshDistributedRefinement.h"

#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshPieceInterface.h"

#include "vtkCommunicator.h"
#include "vtkMultiProcessController.h"
#include "vtkTimerLog.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/HostSort.h"
#include "gpumesh/topology/BoundaryEdges.h"

#include <algorithm>
#include <exception>
#include <iterator>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vtkGPUMeshDistributedRefinement
{

namespace
{
gpumesh::Error AnotherProcessFailed()
{
  return gpumesh::Error("Another process failed to refine its piece (see its error)");
}

// The edges a piece shares with its neighbours (the cut) in one pass's mesh, and the closure's
// exchange across them: after each propagation round every process sends each neighbour the
// cut edges the two share that it divided (by their global point ids), and each divides those
// it receives, until no process divided a new one. Sorted flat tables, searched by halving: the
// cut is built again for every pass and its lookups run in every round.
class CutEdgeExchange
{
public:
  using Key = std::pair<long long, long long>;

  // The neighbours (indices into the interface's Neighbors) holding a cut edge.
  struct Holders
  {
    const std::size_t* First = nullptr;
    const std::size_t* Last = nullptr;
    const std::size_t* begin() const { return this->First; }
    const std::size_t* end() const { return this->Last; }
  };

  // Collective: a boundary edge of this piece (BoundaryEdgesOnInterface) whose two points a
  // neighbour holds too is offered to that neighbour; the edges both offer each other are their
  // cut.
  CutEdgeExchange(const gpumesh::BoundaryEdgeSlots& boundary, vtkGPUMeshPieceInterface& interface,
    vtkMultiProcessController* controller)
    : Controller(controller)
    , Neighbors(interface.Neighbors)
  {
    const auto& ids = interface.GlobalIds;
    const std::size_t count = this->Neighbors.Count();
    const unsigned threads = vtkGPUMeshHostLoops::Threads();
    // The tables below hold a few entries per interface point (a 10M-tetrahedron box on 4
    // processes: about 230,000 slots a process): sorted and searched on all threads.
    std::vector<std::vector<vtkIdType>> shared(count);
    for (std::size_t n = 0; n < count; ++n)
    {
      shared[n] = interface.Shared[n];
      if (!std::is_sorted(shared[n].begin(), shared[n].end()))
        gpumesh::parallelSort(shared[n], threads);
    }
    const auto holds = [&](std::size_t n, vtkIdType p) {
      return std::binary_search(shared[n].begin(), shared[n].end(), p);
    };
    // Every boundary slot by its edge's key, in the boundary's order within a key: an edge's
    // first slot divides it here, and the closure reports it by whichever slot claimed it.
    struct Slot
    {
      Key key;
      std::size_t index;
    };
    std::vector<Slot> slots(boundary.slots.size());
    for (std::size_t i = 0; i < slots.size(); ++i)
    {
      const long long a = ids[boundary.ends[i].s[0]], b = ids[boundary.ends[i].s[1]];
      slots[i] = { { std::min(a, b), std::max(a, b) }, i };
    }
    gpumesh::parallelSort(
      slots, [](const Slot& x, const Slot& y) { return x.key != y.key ? x.key < y.key : x.index < y.index; }, threads);
    // Each offer's first slot, per neighbour in key order.
    const std::vector<std::vector<std::size_t>> offeredSlots = vtkGPUMeshHostLoops::Lists<std::size_t>(
      static_cast<vtkIdType>(slots.size()), count, 1 << 12, [&](vtkIdType first, vtkIdType last, const auto& add) {
        for (auto i = static_cast<std::size_t>(first); i < static_cast<std::size_t>(last); ++i)
        {
          if (i > 0 && slots[i].key == slots[i - 1].key)
            continue;
          const vtkIdType a = boundary.ends[slots[i].index].s[0], b = boundary.ends[slots[i].index].s[1];
          for (std::size_t n = 0; n < count; ++n)
          {
            if (holds(n, a) && holds(n, b))
              add(n, i);
          }
        }
      });
    std::vector<std::vector<long long>> offered(count);
    for (std::size_t n = 0; n < count; ++n)
    {
      offered[n].reserve(2 * offeredSlots[n].size());
      for (std::size_t i : offeredSlots[n])
        offered[n].insert(offered[n].end(), { slots[i].key.first, slots[i].key.second });
    }
    const auto heard = this->Neighbors.ExchangeValues(offered);
    // The (first slot, neighbour) pairs of the cut: an offer the neighbour made too. Both lists
    // in key order: one walk through the two.
    std::vector<std::pair<std::size_t, std::size_t>> cut;
    for (std::size_t n = 0; n < count; ++n)
    {
      std::vector<Key> theirs;
      theirs.reserve(heard[n].size() / 2);
      for (std::size_t i = 0; i + 1 < heard[n].size(); i += 2)
        theirs.emplace_back(heard[n][i], heard[n][i + 1]);
      if (!std::is_sorted(theirs.begin(), theirs.end())) // a neighbour sends them in key order
        gpumesh::parallelSort(theirs, threads);
      auto at = theirs.begin();
      for (std::size_t i : offeredSlots[n])
      {
        at = std::lower_bound(at, theirs.end(), slots[i].key);
        if (at != theirs.end() && *at == slots[i].key)
          cut.emplace_back(i, n);
      }
    }
    gpumesh::parallelSort(cut, threads);
    for (std::size_t c = 0; c < cut.size(); ++c)
    {
      if (c == 0 || cut[c].first != cut[c - 1].first)
      {
        const std::size_t first = cut[c].first;
        this->Edges.push_back({ slots[first].key, boundary.slots[slots[first].index] });
        this->HolderStart.push_back(this->HolderList.size());
        for (std::size_t i = first; i < slots.size() && slots[i].key == slots[first].key; ++i)
          this->EdgeOfSlot.emplace_back(boundary.slots[slots[i].index], this->Edges.size() - 1);
      }
      this->HolderList.push_back(cut[c].second);
    }
    this->HolderStart.push_back(this->HolderList.size());
    gpumesh::parallelSort(this->EdgeOfSlot, threads);
  }

  // A copy of `kept` (a cut found in an earlier execution) that exchanges with the neighbours
  // of `interface`, a copy of the interface `kept` was found with.
  CutEdgeExchange(const CutEdgeExchange& kept, vtkGPUMeshPieceInterface& interface)
    : Controller(kept.Controller)
    , Neighbors(interface.Neighbors)
    , Edges(kept.Edges)
    , HolderStart(kept.HolderStart)
    , HolderList(kept.HolderList)
    , EdgeOfSlot(kept.EdgeOfSlot)
  {
  }

  // gpumesh::DistributedRefinement::exchange. Collective.
  bool operator()(const std::vector<cl_int>& divided, std::vector<cl_int>& forced, bool failed)
  {
    const std::size_t count = this->Neighbors.Count();
    std::vector<std::vector<long long>> sent(count);
    long long flags[2] = { failed ? 1 : 0, 0 }; // any failed, any divided a cut edge
    for (cl_int slot : divided)
    {
      const auto found = std::lower_bound(this->EdgeOfSlot.begin(), this->EdgeOfSlot.end(),
        std::pair<cl_int, std::size_t>(slot, 0));
      if (found == this->EdgeOfSlot.end() || found->first != slot)
        continue;
      flags[1] = 1;
      const Key& edge = this->Edges[found->second].key;
      for (std::size_t n : this->HoldersAt(found->second))
        sent[n].insert(sent[n].end(), { edge.first, edge.second });
    }
    vtkGPUMeshDistributed::AllReduce(this->Controller, flags, 2, vtkCommunicator::MAX_OP);
    this->AnyFailed |= flags[0] != 0;
    const auto heard = this->Neighbors.ExchangeValues(sent);
    for (const auto& values : heard)
    {
      for (std::size_t i = 0; i + 1 < values.size(); i += 2)
      {
        const std::size_t e = this->Find({ values[i], values[i + 1] });
        if (e < this->Edges.size())
          forced.push_back(this->Edges[e].slot);
      }
    }
    return flags[1] != 0 && !this->AnyFailed;
  }

  // Every slot of a cut edge, ascending (gpumesh::DistributedRefinement::cutSlots): the only
  // divisions operator() acts on.
  std::vector<cl_int> Slots() const
  {
    std::vector<cl_int> slots;
    slots.reserve(this->EdgeOfSlot.size());
    for (const auto& entry : this->EdgeOfSlot)
      slots.push_back(entry.first);
    return slots;
  }

  // The neighbours holding `edge` too; none when it is not on the cut.
  Holders HoldersOf(const Key& edge) const
  {
    const std::size_t e = this->Find(edge);
    return e < this->Edges.size() ? this->HoldersAt(e) : Holders{};
  }

  bool AnyFailed = false;

private:
  struct CutEdge
  {
    Key key;
    cl_int slot; // the slot that divides it here
  };
  // The index of `edge` in Edges, or Edges.size().
  std::size_t Find(const Key& edge) const
  {
    const auto found = std::lower_bound(this->Edges.begin(), this->Edges.end(), edge,
      [](const CutEdge& cutEdge, const Key& key) { return cutEdge.key < key; });
    return found != this->Edges.end() && found->key == edge ? static_cast<std::size_t>(found - this->Edges.begin())
                                                            : this->Edges.size();
  }
  Holders HoldersAt(std::size_t e) const
  {
    return { this->HolderList.data() + this->HolderStart[e], this->HolderList.data() + this->HolderStart[e + 1] };
  }

  vtkMultiProcessController* Controller;
  vtkGPUMeshNeighbors& Neighbors;
  std::vector<CutEdge> Edges;                           // the cut, by key
  std::vector<std::size_t> HolderStart;                 // Edges' holders: HolderList[HolderStart[e], HolderStart[e + 1])
  std::vector<std::size_t> HolderList;
  std::vector<std::pair<cl_int, std::size_t>> EdgeOfSlot; // every slot of a cut edge, ascending, and its edge
};

// The boundary edges of `mesh` (the piece, or a pass's refined piece) with both ends shared with
// neighbours: the only ones a cut can hold. Found among the few cells holding two shared points,
// not by matching the whole piece.
gpumesh::BoundaryEdgeSlots BoundaryEdgesOnInterface(
  gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh, const vtkGPUMeshPieceInterface& interface)
{
  vtkTimerLogScope scope("GPUMesh: boundary edges");
  std::vector<cl_int> shared;
  for (const auto& points : interface.Shared)
    shared.insert(shared.end(), points.begin(), points.end());
  return gpumesh::boundaryEdgeSlotsAmong(run, mesh, shared);
}

// After a pass, the new points (midpoints of the `parents` pairs, appended to the interface's
// points) take global ids, and those on the cut are shared with the neighbours holding their
// edge. Collective among neighbours. A cut edge's midpoint takes the id its lowest process
// gives, first + rank + processes * (its index among that process's own new points): unique
// without any count exchanged. That process sends it to the other holders. Returns whether
// every new point got its id (the closure divided each cut edge on all its processes).
bool AppendNewPoints(vtkGPUMeshPieceInterface& interface, const CutEdgeExchange& cut,
  const std::vector<cl_int2>& parents, long long first, vtkMultiProcessController* controller)
{
  using Key = CutEdgeExchange::Key;
  auto& ids = interface.GlobalIds;
  const std::size_t old = ids.size();
  const long long rank = controller->GetLocalProcessId();
  const long long processes = controller->GetNumberOfProcesses();
  const std::vector<int>& ranks = interface.Neighbors.Ranks();
  std::vector<std::vector<long long>> sent(interface.Neighbors.Count());
  std::vector<std::pair<Key, std::size_t>> awaited; // cut edges a lower process numbers: their new point's index in Added
  const std::size_t oldAdded = ids.Added.size();
  ids.Added.resize(oldAdded + parents.size(), -1);
  long long owned = 0;
  for (std::size_t i = 0; i < parents.size(); ++i)
  {
    const long long a = ids[static_cast<std::size_t>(parents[i].s[0])];
    const long long b = ids[static_cast<std::size_t>(parents[i].s[1])];
    const Key edge{ std::min(a, b), std::max(a, b) };
    const CutEdgeExchange::Holders holders = cut.HoldersOf(edge);
    if (std::all_of(holders.begin(), holders.end(), [&](std::size_t n) { return ranks[n] > rank; }))
    {
      ids.Added[oldAdded + i] = first + rank + processes * owned++;
      for (std::size_t n : holders)
        sent[n].insert(sent[n].end(), { edge.first, edge.second, ids.Added[oldAdded + i] });
    }
    else
    {
      awaited.emplace_back(edge, oldAdded + i);
    }
    for (std::size_t n : holders)
      interface.Shared[n].push_back(static_cast<vtkIdType>(old + i));
  }
  std::sort(awaited.begin(), awaited.end());
  const auto heard = interface.Neighbors.ExchangeValues(sent);
  for (const auto& values : heard)
  {
    for (std::size_t i = 0; i + 2 < values.size(); i += 3)
    {
      const Key edge{ values[i], values[i + 1] };
      const auto found = std::lower_bound(awaited.begin(), awaited.end(), std::make_pair(edge, std::size_t(0)));
      if (found != awaited.end() && found->first == edge)
        ids.Added[found->second] = values[i + 2];
    }
  }
  return std::find(ids.Added.begin() + static_cast<std::ptrdiff_t>(oldAdded), ids.Added.end(), -1) == ids.Added.end();
}

// gpumesh::DistributedRefinement::nextPass: global ids for the new points of `next`, the mesh
// the next pass refines, then its cut (its boundary edges on the interface, matched with the
// neighbours again). Collective; every process learns whether one failed before any exchange
// of the next pass.
void NextPass(gpumesh::DeviceRun& run, vtkMultiProcessController* controller, vtkGPUMeshPieceInterface& interface,
  std::optional<CutEdgeExchange>& cut, const gpumesh::DeviceMesh* next, const std::vector<cl_int2>& parents,
  bool failed)
{
  if (cut->AnyFailed) // every process knows since the closure's last round
  {
    if (failed)
      return;
    throw AnotherProcessFailed();
  }
  // Any failed, and the largest global id: the new points' ids come after it.
  long long flags[2] = { failed ? 1 : 0, interface.GlobalIds.Largest() };
  vtkGPUMeshDistributed::AllReduce(controller, flags, 2, vtkCommunicator::MAX_OP);
  if (failed)
    return;
  if (flags[0] != 0)
    throw AnotherProcessFailed();
  // Any new point without its id, any boundary edges not found.
  long long missing[2] = { AppendNewPoints(interface, *cut, parents, flags[1] + 1, controller) ? 0 : 1, 0 };
  gpumesh::BoundaryEdgeSlots boundary;
  std::exception_ptr error;
  try
  {
    boundary = BoundaryEdgesOnInterface(run, *next, interface);
  }
  catch (...)
  {
    error = std::current_exception();
    missing[1] = 1;
  }
  vtkGPUMeshDistributed::AllReduce(controller, missing, 2, vtkCommunicator::MAX_OP);
  if (error)
    std::rethrow_exception(error);
  if (missing[1] != 0)
    throw AnotherProcessFailed();
  if (missing[0] != 0)
    throw gpumesh::Error("Internal error: a cut edge was divided by some of the processes holding it only");
  cut.emplace(boundary, interface, controller);
}
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

// The first pass's cut of a piece and the interface it was found with, each exchanging with
// the interface's neighbours.
struct FirstCut::Found
{
  vtkGPUMeshPieceInterface Interface;
  vtkGPUMeshNeighbors::Box Box;
  std::optional<CutEdgeExchange> Cut;
};

FirstCut::FirstCut() = default;
FirstCut::~FirstCut() = default;

bool FirstCut::Reusable(vtkPointSet* input, vtkMultiProcessController* controller)
{
  vtkGPUMeshInputKey key = vtkGPUMeshInputKey::Of(input, controller);
  this->Reused = vtkGPUMeshInputKey::EveryProcess(this->Kept && key.Matches(this->Key), controller);
  if (!this->Reused)
    this->Kept.reset();
  this->Key = std::move(key);
  return this->Reused;
}

vtkGPUMeshPieceBox FirstCut::Box() const
{
  vtkGPUMeshPieceBox box;
  if (this->Reused)
    box.Box = this->Kept->Box;
  return box;
}

gpumesh::RefinedSimplices RefinePiece(vtkPointSet* input, const vtkGPUMeshPieceBox& box,
  vtkMultiProcessController* controller, gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh, FirstCut& first,
  const std::function<gpumesh::RefinedSimplices(const gpumesh::DistributedRefinement*)>& refine)
{
  if (!controller)
  {
    return refine(nullptr);
  }
  gpumesh::DistributedRefinement distributed;
  // This execution's interface and cut, which the passes after the first change: copies of
  // those kept, or found now (and copies of them kept).
  std::optional<vtkGPUMeshPieceInterface> found;
  std::optional<CutEdgeExchange> cut; // the current pass's
  if (first.Reused && first.Kept)
  {
    found.emplace(first.Kept->Interface);
    cut.emplace(*first.Kept->Cut, *found);
  }
  else
  {
    first.Kept.reset();
    vtkTimerLog::MarkStartEvent("GPUMesh: piece interface");
    found.emplace(vtkGPUMeshPieceInterface::Find(input, controller, &box));
    vtkTimerLog::MarkEndEvent("GPUMesh: piece interface");
    gpumesh::BoundaryEdgeSlots boundary;
    vtkGPUMeshDistributed::AllSucceed(controller, [&] { boundary = BoundaryEdgesOnInterface(run, mesh, *found); });
    vtkTimerLog::MarkStartEvent("GPUMesh: cut edges");
    cut.emplace(boundary, *found, controller);
    vtkTimerLog::MarkEndEvent("GPUMesh: cut edges");
    auto kept = std::make_unique<FirstCut::Found>();
    kept->Interface = *found;
    kept->Box = box.Box;
    kept->Cut.emplace(*cut, kept->Interface);
    first.Kept = std::move(kept);
  }
  vtkGPUMeshPieceInterface& interface = *found;
  // Ties go by global id. When the global ids increase with the piece's point ids they order
  // every cell's points as those do, and the point ids break ties as they would (in later
  // passes too: each pass numbers its new points in the order of their parents' ids): nothing
  // as large as the piece is copied or uploaded then. Otherwise the ids are copied once, on all
  // threads, for the device.
  vtkTimerLog::MarkStartEvent("GPUMesh: tie ids");
  if (!interface.GlobalIds.InputIncreasing())
  {
    const long long* ids = interface.GlobalIds.InputIds();
    distributed.tieIds.resize(interface.GlobalIds.InputSize());
    vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(distributed.tieIds.size()), [&](vtkIdType begin, vtkIdType end) {
      std::copy(ids + begin, ids + end, distributed.tieIds.begin() + begin);
    });
  }
  vtkTimerLog::MarkEndEvent("GPUMesh: tie ids");
  distributed.exchange = [&cut](const std::vector<cl_int>& divided, std::vector<cl_int>& forced, bool failed) {
    vtkTimerLogScope scope("GPUMesh: exchange cut edges");
    return (*cut)(divided, forced, failed);
  };
  distributed.cutSlots = [&cut] { return cut->Slots(); };
  distributed.nextPass = [&](const gpumesh::DeviceMesh* next, const std::vector<cl_int2>& parents, bool failed) {
    NextPass(run, controller, interface, cut, next, parents, failed);
  };
  gpumesh::RefinedSimplices refined = refine(&distributed);
  if (cut->AnyFailed)
  {
    throw AnotherProcessFailed();
  }
  return refined;
}

} // namespace vtkGPUMeshDistributedRefinement
