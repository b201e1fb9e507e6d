#include "vtkGPUMeshPointHalo.h"

#include "vtkGPUMeshCellArrays.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshIdMap.h"
#include "vtkGPUMeshPiece.h"

#include "vtkDataArray.h"
#include "vtkMultiProcessController.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkUnstructuredGrid.h"

#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <atomic>
#include <limits>

namespace
{
// A point as its holders tell each other: its global id, and whether the sender has it among
// its input's points (1) or not (0). Two 64-bit fields: no padding bytes travel.
struct HolderRecord
{
  long long Id;
  long long InInput;
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

  // The interface: the points of the ghost cells, flagged on all threads (cells share points:
  // atomic flags), then listed in ascending order. The ghost cells are the piece's layer, or
  // (a copied piece) the cells of its grid after the owned ones.
  gpumesh::HostVector<std::atomic<std::uint8_t>> onInterface(static_cast<std::size_t>(points));
  vtkGPUMeshHostLoops::For(0, points, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType p = begin; p < end; ++p)
      onInterface[static_cast<std::size_t>(p)].store(0, std::memory_order_relaxed);
  });
  const auto flagPoints = [&](vtkCellArray* cells, vtkIdType from) {
    vtkGPUMeshCellArrays::WithStorage(cells, [&](const auto* offsets, const auto* ids) {
      vtkGPUMeshHostLoops::For(from, cells->GetNumberOfCells(), [&](vtkIdType begin, vtkIdType end) {
        for (vtkIdType c = begin; c < end; ++c)
          for (auto k = offsets[c]; k < offsets[c + 1]; ++k)
            onInterface[static_cast<std::size_t>(ids[k])].store(1, std::memory_order_relaxed);
      });
    });
  };
  if (mesh.MoreCells)
    flagPoints(mesh.MoreCells.Get(), 0);
  else if (piece.OwnedCells < mesh.GetNumberOfCells())
  {
    // A copied piece is an unstructured grid (BuildGhostedPiece).
    if (auto* grid = vtkUnstructuredGrid::SafeDownCast(mesh.Data))
      flagPoints(grid->GetCells(), piece.OwnedCells);
    else
      this->Missing = "Internal error: a copied ghosted piece that is not an unstructured grid";
  }

  // The points other processes can hold: the interface, then the points of the cells sent as
  // ghosts that no ghost cell here uses (those only this piece's cells surround).
  std::vector<vtkIdType> held = vtkGPUMeshHostLoops::Where(
    points, [&](vtkIdType p) { return onInterface[static_cast<std::size_t>(p)].load(std::memory_order_relaxed) != 0; });
  if (held.size() + piece.SentPoints.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
  {
    this->Missing = "The interface of this piece has too many points";
    held.clear(); // the rounds below still run, so that no other process waits for this one
  }
  vtkGPUMeshIdMap heldOfId(held.size() + (this->Missing.empty() ? piece.SentPoints.size() : 0));
  for (std::size_t i = 0; i < held.size(); ++i)
    heldOfId.Emplace(piece.GlobalPointId(held[i]), static_cast<vtkIdType>(i));
  if (this->Missing.empty())
    for (vtkIdType p : piece.SentPoints)
      if (onInterface[static_cast<std::size_t>(p)].load(std::memory_order_relaxed) == 0 &&
        heldOfId.Emplace(piece.GlobalPointId(p), static_cast<vtkIdType>(held.size())).second)
        held.push_back(p);

  // The owner of a point is the lowest rank that has it among its input's points. Every such
  // process holds every cell around it: any other process with a cell there has the point in
  // its input too, so the two share it and each sent the other its cells around it (the ghost
  // layer). A process that holds the point through ghost cells alone may lack some (those of a
  // process that touches it at that point only): it receives the point.
  // One round: every holder of a point tells every neighbour whose box holds it (all its other
  // holders among them) whether it has the point in its input, so that all of them find the
  // same owner; each side then lists what goes each way in the order of the records.
  // Per neighbour: the held index of each record, listed on all threads.
  const std::vector<std::vector<std::int32_t>> recorded = vtkGPUMeshHostLoops::Lists<std::int32_t>(
    static_cast<vtkIdType>(held.size()), count, 1 << 14, [&](vtkIdType first, vtkIdType last, const auto& add) {
      for (vtkIdType i = first; i < last; ++i)
        forBoxesHolding(held[i], [&](std::size_t n) { add(n, static_cast<std::int32_t>(i)); });
    });
  std::vector<std::vector<HolderRecord>> records(count);
  for (std::size_t n = 0; n < count; ++n)
  {
    records[n].resize(recorded[n].size());
    vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(recorded[n].size()), [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType r = begin; r < end; ++r)
      {
        const vtkIdType p = held[recorded[n][r]];
        records[n][r] = { piece.GlobalPointId(p), p < piece.InputPoints ? 1 : 0 };
      }
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
  std::vector<int> ownerOf(held.size(), -1); // per held point: the owner's rank, or -1
  for (std::size_t i = 0; i < held.size(); ++i)
    if (held[i] < piece.InputPoints)
      ownerOf[i] = rank;
  for (std::size_t n = 0; n < count; ++n)
  {
    const int sender = this->Neighbors.Ranks()[n];
    for (std::size_t r = 0; r < heard[n].size(); ++r)
    {
      const vtkIdType i = heardHeld[n][r];
      if (i >= 0 && heard[n][r].InInput && (ownerOf[i] < 0 || sender < ownerOf[i]))
        ownerOf[i] = sender;
    }
  }
  for (std::size_t i = 0; i < held.size() && this->Missing.empty(); ++i)
    if (ownerOf[i] < 0)
      this->Missing = "Point with global id " + std::to_string(piece.GlobalPointId(held[i])) +
        " is used by cells of this process but no process has it among its own points (inconsistent global point ids?)";

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
