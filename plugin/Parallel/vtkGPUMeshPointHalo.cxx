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
#include <cstring>
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
  // The input's box, found while the piece was built, grown by the points other processes sent
  // (a box per block of them on all threads, then joined).
  vtkGPUMeshNeighbors::Box box = piece.InputBox;
  {
    const std::vector<std::vector<vtkGPUMeshNeighbors::Box>> blockBoxes =
      vtkGPUMeshHostLoops::Lists<vtkGPUMeshNeighbors::Box>(points - piece.InputPoints, 1,
        [&](vtkIdType first, vtkIdType last, const auto& add) {
          vtkGPUMeshNeighbors::Box grown = vtkGPUMeshNeighbors::EmptyBox();
          for (vtkIdType p = piece.InputPoints + first; p < piece.InputPoints + last; ++p)
          {
            double xyz[3];
            mesh.GetPoint(p, xyz);
            for (int c = 0; c < 3; ++c)
            {
              grown[2 * c] = std::min(grown[2 * c], xyz[c]);
              grown[2 * c + 1] = std::max(grown[2 * c + 1], xyz[c]);
            }
          }
          add(0, grown);
        });
    for (const vtkGPUMeshNeighbors::Box& grown : blockBoxes[0])
      for (int c = 0; c < 3; ++c)
      {
        box[2 * c] = std::min(box[2 * c], grown[2 * c]);
        box[2 * c + 1] = std::max(box[2 * c + 1], grown[2 * c + 1]);
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
    // Uses by owned cells in the high 32 bits, by all cells in the low: one atomic add a use.
    std::atomic<std::uint64_t> Counts{ 0 };
    std::int32_t Owned() const { return static_cast<std::int32_t>(this->Counts.load(std::memory_order_relaxed) >> 32); }
    std::int32_t All() const
    {
      return static_cast<std::int32_t>(this->Counts.load(std::memory_order_relaxed) & 0xffffffffu);
    }
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
        vtkGPUMeshHostLoops::For(from, cells->GetNumberOfCells(), vtkGPUMeshHostLoops::SmallLoop, [&](vtkIdType begin, vtkIdType end) {
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
    vtkGPUMeshHostLoops::For(0, interfaceCount, vtkGPUMeshHostLoops::SmallLoop, [&](vtkIdType begin, vtkIdType end) {
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
        vtkGPUMeshHostLoops::For(0, end - begin, vtkGPUMeshHostLoops::SmallLoop, [&](vtkIdType from, vtkIdType to) {
          for (vtkIdType i = from; i < to; ++i)
          {
            const vtkIdType c = begin[i] - shift;
            const bool owned = first + c < piece.OwnedCells;
            for (auto k = offsets[c]; k < offsets[c + 1]; ++k)
              if (const std::int32_t s = slotOf[static_cast<std::size_t>(ids[k])])
              {
                uses[static_cast<std::size_t>(s - 1)].Counts.fetch_add(
                  owned ? (std::uint64_t(1) << 32) + 1 : 1, std::memory_order_relaxed);
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

  // The lists below are made on all threads in fixed blocks joined in order
  // (vtkGPUMeshHostLoops::Lists): the same lists as one loop's. Each message names the first
  // offending point in interface order, as one loop would.
  const auto interfaceCount = static_cast<vtkIdType>(interfacePoints.size());
  const auto pointOf = [&](vtkIdType i) { return interfacePoints[static_cast<std::size_t>(i)]; };

  // Round 1: the owner of an interface point is the lowest rank holding every cell around it
  // (the owned uses of all holders add up to the cells around it). A ghost layer can miss cells
  // of a process that touches this one at a single point: that process is not an owner. Every
  // holder with owned cells there is a neighbour (its box and this one hold the point).
  const std::vector<std::vector<InterfaceRecord>> records = vtkGPUMeshHostLoops::Lists<InterfaceRecord>(
    interfaceCount, count, [&](vtkIdType first, vtkIdType last, const auto& add) {
      for (vtkIdType i = first; i < last; ++i)
      {
        const Uses& u = uses[static_cast<std::size_t>(i)];
        const std::int32_t owned = u.Owned();
        if (owned > 0)
          forBoxesHolding(pointOf(i), [&](std::size_t n) {
            add(n, InterfaceRecord{ piece.GlobalPointId(pointOf(i)), owned, u.All() });
          });
      }
    });
  const auto heard = this->Neighbors.ExchangeValues(records);
  vtkGPUMeshIdMap interfaceOfId(interfacePoints.size());
  vtkGPUMeshHostLoops::For(0, interfaceCount, vtkGPUMeshHostLoops::SmallLoop, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType i = begin; i < end; ++i)
      interfaceOfId.EmplaceLowest(piece.GlobalPointId(pointOf(i)), i);
  });
  // The owners, on one thread: these passes read and update what other threads wrote just
  // before (the map, the counts), and on a 64-core host that took twice as long on all threads.
  std::vector<long long> cellsAround(interfacePoints.size()); // per slot
  for (std::size_t i = 0; i < interfacePoints.size(); ++i)
    cellsAround[i] = uses[i].Owned();
  for (const auto& fromNeighbor : heard)
    for (const InterfaceRecord& record : fromNeighbor)
    {
      const vtkIdType i = interfaceOfId.Find(record.Id);
      if (i >= 0)
        cellsAround[static_cast<std::size_t>(i)] += record.OwnedUses;
    }
  std::vector<int> ownerOf(interfacePoints.size()); // per slot: the owner's rank, or -1
  for (std::size_t i = 0; i < interfacePoints.size(); ++i)
    ownerOf[i] = uses[i].Owned() > 0 && uses[i].All() == cellsAround[i] ? rank : -1;
  for (std::size_t n = 0; n < count; ++n)
    for (const InterfaceRecord& record : heard[n])
    {
      const vtkIdType i = interfaceOfId.Find(record.Id);
      if (i < 0 || record.AllUses != cellsAround[static_cast<std::size_t>(i)])
        continue;
      int& owner = ownerOf[static_cast<std::size_t>(i)];
      if (owner < 0 || this->Neighbors.Ranks()[n] < owner)
        owner = this->Neighbors.Ranks()[n];
    }
  for (std::size_t i = 0; i < interfacePoints.size(); ++i)
  {
    if (ownerOf[i] < 0 && uses[i].Owned() > 0)
    {
      this->Missing = "No process holds every cell around the point with global id " +
        std::to_string(piece.GlobalPointId(interfacePoints[i])) + " (the ghost layer is incomplete there)";
      break;
    }
  }
  // A point off the interface is used by owned cells only: this process owns it.
  const auto owns = [&](vtkIdType p) {
    return slotOf.empty() || slotOf[static_cast<std::size_t>(p)] == 0 || ownerOf[slot(p)] == rank;
  };

  // Round 2: each process asks its neighbours for the interface points it does not own; those
  // that own one of them answer with the positions they will send. What another process can
  // ask for is a point of the cells this one sent it as ghosts, or of its own ghost cells.
  // Per neighbour: the global ids asked for, and the piece points they are.
  struct Request
  {
    long long Id;
    vtkIdType Point;
  };
  const std::vector<std::vector<Request>> requests = vtkGPUMeshHostLoops::Lists<Request>(
    interfaceCount, count + 1, [&](vtkIdType first, vtkIdType last, const auto& add) {
      for (vtkIdType i = first; i < last; ++i)
      {
        const vtkIdType p = pointOf(i);
        if (owns(p))
          continue;
        add(count, Request{ 0, p }); // the last list: every point needed
        forBoxesHolding(p, [&](std::size_t n) { add(n, Request{ piece.GlobalPointId(p), p }); });
      }
    });
  std::vector<std::vector<long long>> requestedIds(count);
  for (std::size_t n = 0; n < count; ++n)
  {
    requestedIds[n].resize(requests[n].size());
    vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(requests[n].size()), vtkGPUMeshHostLoops::SmallLoop, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType r = begin; r < end; ++r)
        requestedIds[n][static_cast<std::size_t>(r)] = requests[n][static_cast<std::size_t>(r)].Id;
    });
  }
  const auto asked = this->Neighbors.ExchangeValues(requestedIds);
  // What can be asked for: the interface points, then the points sent as ghosts (looked up in
  // the interface's map first, not copied into a second one).
  vtkGPUMeshIdMap sentOfId(piece.SentPoints.size()); // on one thread, as the owners above
  for (vtkIdType p : piece.SentPoints)
    if (interfaceOfId.Find(piece.GlobalPointId(p)) < 0)
      sentOfId.Emplace(piece.GlobalPointId(p), p);
  const auto offered = [&](long long id) -> vtkIdType {
    const vtkIdType i = interfaceOfId.Find(id);
    return i >= 0 ? pointOf(i) : sentOfId.Find(id);
  };
  // Per neighbour: the positions in its request of the points this process owns and sends.
  std::vector<std::vector<std::int32_t>> answers(count);
  this->PublishedStart.assign(1, 0);
  for (std::size_t n = 0; n < count; ++n)
  {
    std::vector<std::vector<std::int32_t>> found = vtkGPUMeshHostLoops::Lists<std::int32_t>(
      static_cast<vtkIdType>(asked[n].size()), 2, [&](vtkIdType first, vtkIdType last, const auto& add) {
        for (vtkIdType a = first; a < last; ++a)
        {
          const vtkIdType p = offered(asked[n][static_cast<std::size_t>(a)]);
          if (p >= 0 && owns(p))
          {
            add(0, static_cast<std::int32_t>(a));
            add(1, static_cast<std::int32_t>(p));
          }
        }
      });
    answers[n] = std::move(found[0]);
    this->Published.insert(this->Published.end(), found[1].begin(), found[1].end());
    this->PublishedStart.push_back(this->Published.size());
  }
  const auto answered = this->Neighbors.ExchangeValues(answers);
  std::vector<int> suppliers(interfacePoints.size()); // per slot (a needed point is an interface point)
  this->ReceivedStart.assign(1, 0);
  for (std::size_t n = 0; n < count; ++n)
  {
    for (std::int32_t r : answered[n])
    {
      if (r < 0 || static_cast<std::size_t>(r) >= requests[n].size())
      {
        if (this->Missing.empty())
          this->Missing = "Process " + std::to_string(this->Neighbors.Ranks()[n]) +
            " answered a halo request it was not sent";
        continue;
      }
      const vtkIdType p = requests[n][static_cast<std::size_t>(r)].Point;
      this->ReceivedPoints.push_back(static_cast<std::int32_t>(p));
      ++suppliers[slot(p)];
    }
    this->ReceivedStart.push_back(this->ReceivedPoints.size());
  }
  // The points needed: every interface point this process does not own, in interface order.
  for (const Request& need : requests[count])
  {
    const vtkIdType p = need.Point;
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

void vtkGPUMeshPointHalo::Exchange(gpumesh::DeviceRun& run, const OnDevice& points, gpumesh::RealBuffer& values)
{
  const std::size_t count = this->Neighbors.Count();
  const std::vector<double> mine = points.Published.gather(run, values, 4);
  std::vector<double> received(4 * this->ReceivedPoints.size());
  // Values travel in the run's precision (Single: floats, exact both ways), and each side knows
  // from the plan how many it gets: no round of sizes.
  const auto exchange = [&](auto zero) {
    using Real = decltype(zero);
    std::vector<vtkGPUMeshNeighbors::Buffer> sent(count);
    std::vector<std::size_t> expected(count);
    for (std::size_t n = 0; n < count; ++n)
    {
      sent[n].resize(4 * (this->PublishedStart[n + 1] - this->PublishedStart[n]) * sizeof(Real));
      for (std::size_t i = 4 * this->PublishedStart[n], k = 0; i < 4 * this->PublishedStart[n + 1]; ++i, ++k)
      {
        const auto value = static_cast<Real>(mine[i]);
        std::memcpy(sent[n].data() + k * sizeof value, &value, sizeof value);
      }
      expected[n] = 4 * (this->ReceivedStart[n + 1] - this->ReceivedStart[n]) * sizeof(Real);
    }
    const std::vector<vtkGPUMeshNeighbors::Buffer> heard = this->Neighbors.Exchange(sent, expected);
    for (std::size_t n = 0; n < count; ++n)
    {
      for (std::size_t k = 0; k < heard[n].size() / sizeof(Real); ++k)
      {
        Real value;
        std::memcpy(&value, heard[n].data() + k * sizeof value, sizeof value);
        received[4 * this->ReceivedStart[n] + k] = value;
      }
    }
  };
  if (run.precision() == gpumesh::Precision::Double)
    exchange(0.0);
  else
    exchange(0.0f);
  points.Received.scatter(run, values, 4, received);
}
