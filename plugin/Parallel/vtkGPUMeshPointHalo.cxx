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
// An interface point as its holders tell each other: its uses by their owned cells and by all
// the cells of their ghosted piece.
struct InterfaceRecord
{
  long long Id;
  long long OwnedUses;
  long long AllUses;
};

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

  // Round 1: the owner of an interface point is the lowest rank holding every cell around it
  // (the owned uses of all holders add up to the cells around it). A ghost layer can miss cells
  // of a process that touches this one at a single point: that process is not an owner. Every
  // holder with owned cells there is a neighbour (its box and this one hold the point).
  std::vector<std::vector<InterfaceRecord>> records(count);
  for (vtkIdType p : interfacePoints)
  {
    const Uses& u = uses[slot(p)];
    if (u.Owned > 0)
      forBoxesHolding(p, [&](std::size_t n) { records[n].push_back({ piece.GlobalPointId(p), u.Owned, u.All }); });
  }
  const auto heard = this->Neighbors.ExchangeValues(records);
  vtkGPUMeshIdMap interfaceOfId(interfacePoints.size());
  for (vtkIdType p : interfacePoints)
    interfaceOfId.Emplace(piece.GlobalPointId(p), p);
  std::vector<long long> cellsAround(interfacePoints.size()); // per slot
  for (vtkIdType p : interfacePoints)
    cellsAround[slot(p)] = uses[slot(p)].Owned;
  for (const auto& fromNeighbor : heard)
    for (const InterfaceRecord& record : fromNeighbor)
    {
      const vtkIdType found = interfaceOfId.Find(record.Id);
      if (found >= 0)
        cellsAround[slot(found)] += record.OwnedUses;
    }
  std::vector<int> ownerOf(interfacePoints.size()); // per slot: the owner's rank, or -1
  for (vtkIdType p : interfacePoints)
    ownerOf[slot(p)] = uses[slot(p)].Owned > 0 && uses[slot(p)].All == cellsAround[slot(p)] ? rank : -1;
  for (std::size_t n = 0; n < count; ++n)
    for (const InterfaceRecord& record : heard[n])
    {
      const vtkIdType found = interfaceOfId.Find(record.Id);
      if (found < 0 || record.AllUses != cellsAround[slot(found)])
        continue;
      int& owner = ownerOf[slot(found)];
      if (owner < 0 || this->Neighbors.Ranks()[n] < owner)
        owner = this->Neighbors.Ranks()[n];
    }
  for (vtkIdType p : interfacePoints)
  {
    if (ownerOf[slot(p)] < 0 && uses[slot(p)].Owned > 0 && this->Missing.empty())
    {
      this->Missing = "No process holds every cell around the point with global id " +
        std::to_string(piece.GlobalPointId(p)) + " (the ghost layer is incomplete there)";
    }
  }
  // A point off the interface is used by owned cells only: this process owns it.
  const auto owns = [&](vtkIdType p) {
    return slotOf.empty() || slotOf[static_cast<std::size_t>(p)] == 0 || ownerOf[slot(p)] == rank;
  };

  // Round 2: each process asks its neighbours for the interface points it does not own; those
  // that own one of them answer with the positions they will send. What another process can
  // ask for is a point of the cells this one sent it as ghosts, or of its own ghost cells.
  std::vector<std::vector<long long>> requests(count);
  std::vector<std::vector<vtkIdType>> requested(count);
  std::vector<vtkIdType> needed;
  for (vtkIdType p : interfacePoints)
  {
    if (owns(p))
      continue;
    needed.push_back(p);
    forBoxesHolding(p, [&](std::size_t n) {
      requests[n].push_back(piece.GlobalPointId(p));
      requested[n].push_back(p);
    });
  }
  const auto asked = this->Neighbors.ExchangeValues(requests);
  // What can be asked for: the interface points, then the points sent as ghosts (looked up in
  // the interface's map first, not copied into a second one).
  vtkGPUMeshIdMap sentOfId(piece.SentPoints.size());
  for (vtkIdType p : piece.SentPoints)
    if (interfaceOfId.Find(piece.GlobalPointId(p)) < 0)
      sentOfId.Emplace(piece.GlobalPointId(p), p);
  const auto offered = [&](long long id) -> vtkIdType {
    const vtkIdType found = interfaceOfId.Find(id);
    return found >= 0 ? found : sentOfId.Find(id);
  };
  std::vector<std::vector<std::int32_t>> answers(count);
  this->PublishedStart.assign(1, 0);
  for (std::size_t n = 0; n < count; ++n)
  {
    for (std::size_t i = 0; i < asked[n].size(); ++i)
    {
      const vtkIdType p = offered(asked[n][i]);
      if (p >= 0 && owns(p))
      {
        answers[n].push_back(static_cast<std::int32_t>(i));
        this->Published.push_back(static_cast<std::int32_t>(p));
      }
    }
    this->PublishedStart.push_back(this->Published.size());
  }
  const auto answered = this->Neighbors.ExchangeValues(answers);
  std::vector<int> suppliers(interfacePoints.size()); // per slot (a needed point is an interface point)
  this->ReceivedStart.assign(1, 0);
  for (std::size_t n = 0; n < count; ++n)
  {
    for (std::int32_t i : answered[n])
    {
      const vtkIdType p = requested[n].at(static_cast<std::size_t>(i));
      this->ReceivedPoints.push_back(static_cast<std::int32_t>(p));
      ++suppliers[slot(p)];
    }
    this->ReceivedStart.push_back(this->ReceivedPoints.size());
  }
  for (vtkIdType p : needed)
  {
    if (suppliers[slot(p)] != 1 && this->Missing.empty())
    {
      this->Missing = "Point with global id " + std::to_string(piece.GlobalPointId(p)) +
        " is used by cells of this process but " + (suppliers[slot(p)] ? "several processes own it" : "no process owns it") +
        " (inconsistent global point ids?)";
    }
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
