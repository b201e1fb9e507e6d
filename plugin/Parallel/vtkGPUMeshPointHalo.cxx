#include "vtkGPUMeshPointHalo.h"

#include "vtkGPUMeshCellArrays.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshIdMap.h"
#include "vtkGPUMeshPiece.h"

#include "vtkDataArray.h"
#include "vtkMultiProcessController.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkUnstructuredGrid.h"

#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <memory>

namespace
{
// A point as its holders tell each other: its uses by their owned cells and by all the cells of
// their ghosted piece, or exclusiveUses in both where the sender holds it exclusively (no
// ghost cell of the sender uses it: every cell around it is the sender's own).
struct HolderRecord
{
  long long Id;
  std::int32_t OwnedUses;
  std::int32_t AllUses;
};
constexpr std::int32_t exclusiveUses = -1;

} // namespace

vtkGPUMeshPointHalo::vtkGPUMeshPointHalo(
  const vtkGPUMeshDistributed::GhostedPiece& piece, vtkMultiProcessController* controller)
{
  const int rank = controller->GetLocalProcessId();
  const vtkGPUMeshPiece mesh = piece.View();
  const vtkIdType points = mesh.GetNumberOfPoints();
  // The input's box, found while the piece was built, grown by the points other processes sent.
  vtkGPUMeshNeighbors::Box box = piece.InputBox;
  for (vtkIdType p = piece.InputPoints; p < points; ++p)
  {
    double xyz[3];
    mesh.GetPoint(p, xyz);
    for (int c = 0; c < 3; ++c)
    {
      box[2 * c] = std::min(box[2 * c], xyz[c]);
      box[2 * c + 1] = std::max(box[2 * c + 1], xyz[c]);
    }
  }
  this->Neighbors = vtkGPUMeshNeighbors(controller, box);
  const std::size_t count = this->Neighbors.Count();
  // Calls visit(n) for each neighbour n whose box holds point p (no list made per point).
  const auto forBoxesHolding = [&](vtkIdType p, auto&& visit) {
    double xyz[3];
    mesh.GetPoint(p, xyz);
    for (std::size_t n = 0; n < count; ++n)
      if (vtkGPUMeshNeighbors::Contains(this->Neighbors.BoxOf(n), xyz))
        visit(n);
  };

  // The interface: the points of ghost cells, and their uses here. The ghost cells are the
  // piece's layer, or (a copied piece) the cells of its grid after the owned ones.
  // Counted on all threads: atomic.
  struct Uses
  {
    std::atomic<std::int32_t> Owned{ 0 }, All{ 0 };
  };
  // Per piece point: 0 off the interface, else 1 + its slot in the per-interface-point vectors
  // below (a dense table filled on all threads: the interface's points are read once per use).
  gpumesh::HostVector<std::int32_t> slotOf;
  std::unique_ptr<Uses[]> uses; // per slot
  std::vector<vtkIdType> interfacePoints; // per slot, ascending
  const auto slot = [&](vtkIdType p) { return static_cast<std::size_t>(slotOf[static_cast<std::size_t>(p)] - 1); };
  // The piece's cells as arrays of cells, each with the id of its first cell.
  std::vector<std::pair<vtkCellArray*, vtkIdType>> arrays;
  if (auto* grid = vtkUnstructuredGrid::SafeDownCast(mesh.Data))
  {
    arrays.emplace_back(grid->GetCells(), 0);
  }
  else if (auto* poly = vtkPolyData::SafeDownCast(mesh.Data))
  {
    vtkIdType first = 0;
    for (vtkCellArray* cells : { poly->GetVerts(), poly->GetLines(), poly->GetPolys(), poly->GetStrips() })
    {
      arrays.emplace_back(cells, first);
      first += cells ? cells->GetNumberOfCells() : 0;
    }
  }
  if (mesh.MoreCells)
  {
    arrays.emplace_back(mesh.MoreCells.Get(), mesh.Data->GetNumberOfCells());
  }
  if (piece.OwnedCells < mesh.GetNumberOfCells())
  {
    // The ghost cells' points flagged on all threads (cells share points: atomic flags), then
    // listed in ascending order: the interface's slots.
    std::unique_ptr<std::atomic<std::uint8_t>[]> flagged(new std::atomic<std::uint8_t>[static_cast<std::size_t>(points)]());
    for (const auto& [cells, first] : arrays)
    {
      if (!cells || first + cells->GetNumberOfCells() <= piece.OwnedCells)
        continue;
      const vtkIdType from = std::max<vtkIdType>(0, piece.OwnedCells - first);
      vtkGPUMeshCellArrays::WithStorage(cells, [&, cells = cells](const auto* offsets, const auto* ids) {
        vtkGPUMeshHostLoops::For(from, cells->GetNumberOfCells(), [&](vtkIdType begin, vtkIdType end) {
          for (vtkIdType c = begin; c < end; ++c)
            for (auto k = offsets[c]; k < offsets[c + 1]; ++k)
              flagged[static_cast<std::size_t>(ids[k])].store(1, std::memory_order_relaxed);
        });
      });
    }
    interfacePoints = vtkGPUMeshHostLoops::Where(
      points, [&](vtkIdType p) { return flagged[static_cast<std::size_t>(p)].load(std::memory_order_relaxed) != 0; });
    if (interfacePoints.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
      throw gpumesh::Error("The interface of this piece has too many points");
    slotOf.resize(static_cast<std::size_t>(points));
    vtkGPUMeshHostLoops::Fill(slotOf.begin(), slotOf.end(), std::int32_t(0));
    const auto interfaceCount = static_cast<vtkIdType>(interfacePoints.size());
    vtkGPUMeshHostLoops::For(0, interfaceCount, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType i = begin; i < end; ++i)
        slotOf[static_cast<std::size_t>(interfacePoints[static_cast<std::size_t>(i)])] = static_cast<std::int32_t>(i + 1);
    });
    uses.reset(new Uses[interfacePoints.size()]);
    // Counts the uses of interface points by cells [begin, end) of `cells` (numbered from
    // `first` in the piece; each listed as its number minus `shift`): the raw arrays are found
    // once per list, not once per cell.
    const auto countUses = [&](vtkCellArray* cells, vtkIdType first, const vtkIdType* begin, const vtkIdType* end,
                             vtkIdType shift) {
      vtkGPUMeshCellArrays::WithStorage(cells, [&](const auto* offsets, const auto* ids) {
        vtkGPUMeshHostLoops::For(0, end - begin, [&](vtkIdType from, vtkIdType to) {
          for (vtkIdType i = from; i < to; ++i)
          {
            const vtkIdType c = begin[i] - shift;
            const bool owned = first + c < piece.OwnedCells;
            for (auto k = offsets[c]; k < offsets[c + 1]; ++k)
              if (const std::int32_t s = slotOf[static_cast<std::size_t>(ids[k])])
              {
                Uses& u = uses[static_cast<std::size_t>(s - 1)];
                u.All.fetch_add(1, std::memory_order_relaxed);
                if (owned)
                  u.Owned.fetch_add(1, std::memory_order_relaxed);
              }
          }
        });
      });
    };
    // The owned cells around the interface are among those that touch a shared point, found
    // while the piece was built, when they are the input's cells in order: no pass over the
    // piece's cells then. A copied piece without some input cells searches them all.
    const bool ownedCellsKnown = piece.OwnedInputCell.empty();
    for (const auto& [cells, first] : arrays)
    {
      if (!cells)
        continue;
      if (ownedCellsKnown)
      {
        // The listed cells (ascending piece numbers) of this array.
        const std::vector<vtkIdType>& known = piece.InterfaceCells;
        const auto begin = std::lower_bound(known.begin(), known.end(), first);
        const auto end = std::lower_bound(begin, known.end(), first + cells->GetNumberOfCells());
        countUses(cells, first, known.data() + (begin - known.begin()), known.data() + (end - known.begin()), first);
        if (first + cells->GetNumberOfCells() <= piece.OwnedCells)
          continue;
      }
      const auto touching = vtkGPUMeshCellArrays::CellsTouching(cells, 0, slotOf, [&, first = first](vtkIdType c) {
        return !ownedCellsKnown || first + c >= piece.OwnedCells;
      });
      countUses(cells, first, touching.data(), touching.data() + touching.size(), 0);
    }
  }

  // The points other processes can hold: the interface, then the points of cells sent as ghosts
  // that no ghost cell here uses. Every cell around one of the latter is this piece's own (a
  // process with a cell there would share the point and have sent that cell): this process
  // owns it, exclusively.
  const std::size_t interfaceCount = interfacePoints.size();
  std::vector<vtkIdType> held = interfacePoints;
  vtkGPUMeshIdMap heldOfId(interfaceCount + piece.SentPoints.size());
  for (std::size_t i = 0; i < interfaceCount; ++i)
    heldOfId.Emplace(piece.GlobalPointId(interfacePoints[i]), static_cast<vtkIdType>(i));
  for (vtkIdType p : piece.SentPoints)
    if (slotOf.empty() || slotOf[static_cast<std::size_t>(p)] == 0)
      if (heldOfId.Emplace(piece.GlobalPointId(p), static_cast<vtkIdType>(held.size())).second)
        held.push_back(p);

  // One round: every holder of a point tells every neighbour whose box holds it (all its other
  // holders among them) its uses there, so that all of them find the same owner: the lowest
  // rank holding every cell around it (the owned uses of all holders add up to the cells
  // around it; a ghost layer can miss cells of a process that touches this one at a single
  // point: that process is not an owner), or the one process that holds it exclusively. Each
  // side then lists what goes each way in the order of the records: no requests, no answers.
  std::vector<std::vector<HolderRecord>> records(count);
  std::vector<std::vector<std::int32_t>> recorded(count); // per neighbour: the held index of each record
  for (std::size_t i = 0; i < held.size(); ++i)
  {
    const vtkIdType p = held[i];
    HolderRecord record{ piece.GlobalPointId(p), exclusiveUses, exclusiveUses };
    if (i < interfaceCount)
      record = { record.Id, uses[i].Owned.load(), uses[i].All.load() };
    forBoxesHolding(p, [&](std::size_t n) {
      records[n].push_back(record);
      recorded[n].push_back(static_cast<std::int32_t>(i));
    });
  }
  const auto heard = this->Neighbors.ExchangeValues(records);
  // Each record heard as the held index of its point, or -1 for a point this piece lacks.
  std::vector<std::vector<vtkIdType>> heardHeld(count);
  for (std::size_t n = 0; n < count; ++n)
  {
    heardHeld[n].resize(heard[n].size());
    vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(heard[n].size()), [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType r = begin; r < end; ++r)
        heardHeld[n][r] = heldOfId.Find(heard[n][r].Id);
    });
  }
  // A point some process holds exclusively is that process's; any other interface point is the
  // lowest rank's that holds every cell around it.
  std::vector<long long> cellsAround(interfaceCount); // per interface point
  for (std::size_t i = 0; i < interfaceCount; ++i)
    cellsAround[i] = uses[i].Owned.load();
  std::vector<int> ownerOf(held.size(), -1); // per held point: the owner's rank, or -1
  std::vector<int> exclusiveHolders(held.size(), 0);
  for (std::size_t i = interfaceCount; i < held.size(); ++i)
  {
    ownerOf[i] = rank;
    exclusiveHolders[i] = 1;
  }
  for (std::size_t n = 0; n < count; ++n)
    for (std::size_t r = 0; r < heard[n].size(); ++r)
    {
      const vtkIdType i = heardHeld[n][r];
      if (i < 0)
        continue;
      if (heard[n][r].OwnedUses == exclusiveUses)
      {
        ++exclusiveHolders[i];
        const int sender = this->Neighbors.Ranks()[n];
        ownerOf[i] = ownerOf[i] < 0 ? sender : std::min(ownerOf[i], sender);
      }
      else if (static_cast<std::size_t>(i) < interfaceCount)
        cellsAround[i] += heard[n][r].OwnedUses;
    }
  for (std::size_t i = 0; i < interfaceCount; ++i)
    if (exclusiveHolders[i] == 0 && uses[i].Owned > 0 && uses[i].All == cellsAround[i])
      ownerOf[i] = rank;
  for (std::size_t n = 0; n < count; ++n)
    for (std::size_t r = 0; r < heard[n].size(); ++r)
    {
      const vtkIdType i = heardHeld[n][r];
      const HolderRecord& record = heard[n][r];
      if (i < 0 || static_cast<std::size_t>(i) >= interfaceCount || exclusiveHolders[i] > 0 ||
        record.OwnedUses <= 0 || record.AllUses != cellsAround[i])
        continue;
      const int sender = this->Neighbors.Ranks()[n];
      ownerOf[i] = ownerOf[i] < 0 ? sender : std::min(ownerOf[i], sender);
    }
  for (std::size_t i = 0; i < held.size() && this->Missing.empty(); ++i)
  {
    const bool ownedUses = i < interfaceCount && uses[i].Owned > 0;
    const std::string id = std::to_string(piece.GlobalPointId(held[i]));
    if (exclusiveHolders[i] > 1 || (exclusiveHolders[i] == 1 && ownedUses))
      this->Missing = "Point with global id " + id +
        " has cells of several processes around it, yet one of them holds it alone (inconsistent global point ids?)";
    else if (ownerOf[i] < 0 && ownedUses)
      this->Missing = "No process holds every cell around the point with global id " + id +
        " (the ghost layer is incomplete there)";
    else if (ownerOf[i] < 0)
      this->Missing = "Point with global id " + id +
        " is used by cells of this process but no process owns it (inconsistent global point ids?)";
  }

  // What goes to neighbour n: the points of its records this process owns, in their order;
  // what comes from it: the points of the records sent to it that it owns, in theirs.
  this->PublishedStart.assign(1, 0);
  this->ReceivedStart.assign(1, 0);
  std::vector<std::vector<std::uint64_t>> planned(count); // per neighbour: points published, their ids' sum
  for (std::size_t n = 0; n < count; ++n)
  {
    std::uint64_t publishedIds = 0; // wraps
    for (std::size_t r = 0; r < heard[n].size(); ++r)
    {
      const vtkIdType i = heardHeld[n][r];
      if (i >= 0 && ownerOf[i] == rank)
      {
        this->Published.push_back(static_cast<std::int32_t>(held[i]));
        publishedIds += static_cast<std::uint64_t>(heard[n][r].Id);
      }
    }
    this->PublishedStart.push_back(this->Published.size());
    planned[n] = { this->PublishedStart[n + 1] - this->PublishedStart[n], publishedIds };
    for (std::int32_t i : recorded[n])
      if (ownerOf[i] == this->Neighbors.Ranks()[n])
        this->ReceivedPoints.push_back(static_cast<std::int32_t>(held[i]));
    this->ReceivedStart.push_back(this->ReceivedPoints.size());
  }
  // Both sides of each pair must have listed the same points (they do where the global ids are
  // consistent): each exchange's sizes come from these lists.
  const auto agreed = this->Neighbors.ExchangeValues(planned);
  for (std::size_t n = 0; n < count && this->Missing.empty(); ++n)
  {
    std::uint64_t expectedIds = 0;
    for (std::size_t k = this->ReceivedStart[n]; k < this->ReceivedStart[n + 1]; ++k)
      expectedIds += static_cast<std::uint64_t>(piece.GlobalPointId(this->ReceivedPoints[k]));
    const std::uint64_t expected = this->ReceivedStart[n + 1] - this->ReceivedStart[n];
    if (agreed[n].size() != 2 || agreed[n][0] != expected || agreed[n][1] != expectedIds)
      this->Missing = "Process " + std::to_string(this->Neighbors.Ranks()[n]) + " sends " +
        (agreed[n].size() == 2 ? std::to_string(agreed[n][0]) : std::string("an unknown number of")) +
        " points' values to this process, which expects " + std::to_string(expected) +
        " (inconsistent global point ids?)";
  }
}

void vtkGPUMeshPointHalo::CheckComplete() const
{
  if (!this->Missing.empty())
  {
    throw gpumesh::Error(this->Missing);
  }
}

vtkGPUMeshPointHalo::OnDevice vtkGPUMeshPointHalo::PointsOnDevice(gpumesh::DeviceRun& run, std::size_t points) const
{
  return { gpumesh::DeviceIndices(run, this->Published, points, "halo points"),
    gpumesh::DeviceIndices(run, this->ReceivedPoints, points, "halo points") };
}

namespace
{
// One exchange in the values' own precision: gathered on the device straight into `mine`
// (grouped by neighbour as Published is), sent from there, received into `theirs` (grouped as
// ReceivedPoints is) and scattered from there; the host converts and copies nothing.
template <typename Real>
void exchangeIn(gpumesh::DeviceRun& run, const vtkGPUMeshPointHalo::OnDevice& points, gpumesh::RealBuffer& values,
  vtkGPUMeshNeighbors& neighbors, const std::vector<std::size_t>& publishedStart,
  const std::vector<std::size_t>& receivedStart, gpumesh::HostVector<Real>& mine, gpumesh::HostVector<Real>& theirs)
{
  const std::size_t count = neighbors.Count();
  mine.resize(4 * points.Published.size());
  theirs.resize(4 * points.Received.size());
  points.Published.gather(run, values, 4, mine.data());
  std::vector<vtkGPUMeshNeighbors::OutgoingBytes> sent(count);
  std::vector<vtkGPUMeshNeighbors::IncomingBytes> received(count);
  for (std::size_t n = 0; n < count; ++n)
  {
    sent[n] = { reinterpret_cast<const char*>(mine.data() + 4 * publishedStart[n]),
      4 * (publishedStart[n + 1] - publishedStart[n]) * sizeof(Real) };
    received[n] = { reinterpret_cast<char*>(theirs.data() + 4 * receivedStart[n]),
      4 * (receivedStart[n + 1] - receivedStart[n]) * sizeof(Real) };
  }
  neighbors.Exchange(sent, received);
  points.Received.scatter(run, values, 4, theirs.data());
}
} // namespace

void vtkGPUMeshPointHalo::Exchange(gpumesh::DeviceRun& run, const OnDevice& points, gpumesh::RealBuffer& values)
{
  // Each side knows from the plan how many values it gets: no round of sizes.
  if (values.precision() == gpumesh::Precision::Double)
    exchangeIn(run, points, values, this->Neighbors, this->PublishedStart, this->ReceivedStart, this->SentDoubles,
      this->ReceivedDoubles);
  else
    exchangeIn(run, points, values, this->Neighbors, this->PublishedStart, this->ReceivedStart, this->SentFloats,
      this->ReceivedFloats);
}
