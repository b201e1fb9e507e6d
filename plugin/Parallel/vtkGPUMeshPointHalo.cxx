#include "vtkGPUMeshPointHalo.h"

#include "vtkIdList.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkPointSet.h"

#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <limits>

namespace
{
// Every process's `mine` concatenated in rank order (counts and offsets per process too).
std::vector<long long> allGather(vtkMultiProcessController* controller, const std::vector<long long>& mine,
  std::vector<vtkIdType>& counts, std::vector<vtkIdType>& offsets)
{
  const int processes = controller->GetNumberOfProcesses();
  const vtkIdType count = static_cast<vtkIdType>(mine.size());
  counts.assign(static_cast<std::size_t>(processes), 0);
  controller->AllGather(&count, counts.data(), 1);
  offsets.assign(static_cast<std::size_t>(processes), 0);
  for (int p = 1; p < processes; ++p)
  {
    offsets[p] = offsets[p - 1] + counts[p - 1];
  }
  std::vector<long long> all(static_cast<std::size_t>(offsets.back() + counts.back()));
  // AllGatherV refuses a null buffer: give it one element to point at.
  const long long none = 0;
  long long sink = 0;
  controller->AllGatherV(mine.empty() ? &none : mine.data(), all.empty() ? &sink : all.data(), count,
    counts.data(), offsets.data());
  return all;
}
} // namespace

vtkGPUMeshPointHalo::vtkGPUMeshPointHalo(
  const vtkGPUMeshDistributed::GhostedPiece& piece, vtkMultiProcessController* controller)
  : Controller(controller)
{
  const int rank = controller->GetLocalProcessId();
  vtkPointSet* mesh = piece.Mesh;
  const std::size_t points = static_cast<std::size_t>(mesh->GetNumberOfPoints());

  // Per point: how many owned cells and how many cells in all use it here. Points of both
  // owned and ghost cells are on the interface with other processes.
  std::vector<long long> ownedUses(points, 0), allUses(points, 0);
  std::vector<std::uint8_t> ofGhostCell(points, 0);
  vtkNew<vtkIdList> cellPoints;
  for (vtkIdType c = 0; c < mesh->GetNumberOfCells(); ++c)
  {
    mesh->GetCellPoints(c, cellPoints);
    for (vtkIdType k = 0; k < cellPoints->GetNumberOfIds(); ++k)
    {
      const vtkIdType p = cellPoints->GetId(k);
      ++allUses[p];
      ownedUses[p] += !piece.GhostCell[c];
      ofGhostCell[p] |= piece.GhostCell[c];
    }
  }
  std::vector<long long> interface; // global id, owned uses, all uses
  for (std::size_t p = 0; p < points; ++p)
  {
    if (ownedUses[p] && ofGhostCell[p])
    {
      interface.insert(interface.end(), { piece.GlobalPointId[p], ownedUses[p], allUses[p] });
    }
  }

  // Round 1: the owner of an interface point is the lowest rank holding every cell around it
  // (the owned uses of all processes add up to the cells around it). A ghost layer can miss
  // cells of a process that touches this one at a single point: that process is not an owner.
  std::vector<vtkIdType> counts, offsets;
  const std::vector<long long> allInterfaces = allGather(controller, interface, counts, offsets);
  std::unordered_map<long long, long long> cellsAround;
  for (std::size_t i = 0; i < allInterfaces.size(); i += 3)
  {
    cellsAround[allInterfaces[i]] += allInterfaces[i + 1];
  }
  std::unordered_map<long long, int> ownerRank;
  for (int p = static_cast<int>(counts.size()) - 1; p >= 0; --p)
  {
    for (vtkIdType i = offsets[p]; i < offsets[p] + counts[p]; i += 3)
    {
      const long long id = allInterfaces[i];
      ownerRank.emplace(id, -1); // listed: an owner must hold the whole ball
      if (allInterfaces[i + 2] == cellsAround[id])
      {
        ownerRank[id] = p;
      }
    }
  }
  std::vector<std::uint8_t> owned(points, 0);
  for (std::size_t p = 0; p < points; ++p)
  {
    const auto found = ownerRank.find(piece.GlobalPointId[p]);
    if (found != ownerRank.end() && found->second < 0 && ownedUses[p] && this->Missing.empty())
    {
      this->Missing = "No process holds every cell around the point with global id " +
        std::to_string(found->first) + " (the ghost layer is incomplete there)";
    }
    owned[p] = ownedUses[p] && (found == ownerRank.end() || found->second == rank);
  }

  // Round 2: what each process needs. Points of no cell never move and are not exchanged.
  std::vector<long long> needed;
  std::vector<std::int32_t> neededPoints;
  std::unordered_map<long long, std::size_t> pieceIndex;
  for (std::size_t p = 0; p < points; ++p)
  {
    pieceIndex[piece.GlobalPointId[p]] = p;
    if (!owned[p] && allUses[p])
    {
      needed.push_back(piece.GlobalPointId[p]);
      neededPoints.push_back(static_cast<std::int32_t>(p));
    }
  }
  std::vector<long long> extras;
  for (long long id : piece.InputGlobalPointId)
  {
    if (!pieceIndex.count(id))
    {
      extras.push_back(id);
    }
  }
  std::vector<long long> mineAndExtras = needed;
  mineAndExtras.insert(mineAndExtras.end(), extras.begin(), extras.end());
  const std::vector<long long> allNeeded = allGather(controller, mineAndExtras, counts, offsets);
  std::vector<std::uint8_t> neededElsewhere(points, 0);
  for (int p = 0; p < static_cast<int>(counts.size()); ++p)
  {
    for (vtkIdType i = offsets[p]; i < offsets[p] + counts[p] && p != rank; ++i)
    {
      const auto found = pieceIndex.find(allNeeded[i]);
      if (found != pieceIndex.end())
      {
        neededElsewhere[found->second] = 1;
      }
    }
  }
  std::vector<long long> published;
  for (std::size_t p = 0; p < points; ++p)
  {
    if (owned[p] && neededElsewhere[p])
    {
      this->Published.push_back(static_cast<std::int32_t>(p));
      published.push_back(piece.GlobalPointId[p]);
    }
  }

  // Round 3: where each published point lands in the gathered list.
  const std::vector<long long> allPublished =
    allGather(controller, published, this->PublishedCounts, this->PublishedOffsets);
  std::unordered_map<long long, std::int64_t> position;
  for (std::size_t i = 0; i < allPublished.size(); ++i)
  {
    position.emplace(allPublished[i], static_cast<std::int64_t>(i));
  }
  const auto positionOf = [&](long long id) -> std::int64_t {
    const auto found = position.find(id);
    if (found == position.end())
    {
      this->Missing = "Point with global id " + std::to_string(id) +
        " is used by cells of this process but no process owns it (inconsistent global point ids?)";
      return -1;
    }
    return found->second;
  };
  for (std::size_t i = 0; i < needed.size(); ++i)
  {
    const std::int64_t from = positionOf(needed[i]);
    if (from >= 0)
    {
      this->ReceivedPoints.push_back(neededPoints[i]);
      this->ReceivedFrom.push_back(from);
    }
  }
  for (long long id : extras)
  {
    const std::int64_t from = positionOf(id);
    if (from >= 0)
    {
      this->ExtraFrom[id] = from;
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

void vtkGPUMeshPointHalo::Exchange(gpumesh::DeviceRun& run, gpumesh::RealBuffer& values)
{
  const std::vector<double> mine = gpumesh::gather(run, values, 4, this->Published, "halo points");
  std::vector<vtkIdType> counts(this->PublishedCounts), offsets(this->PublishedOffsets);
  for (std::size_t p = 0; p < counts.size(); ++p)
  {
    counts[p] *= 4;
    offsets[p] *= 4;
  }
  const std::size_t total = static_cast<std::size_t>(offsets.back() + counts.back());
  this->Gathered.assign(std::max<std::size_t>(total, 1), 0.0);
  const auto sent = static_cast<vtkIdType>(mine.size());
  if (run.precision() == gpumesh::Precision::Double)
  {
    const double none = 0.0;
    this->Controller->AllGatherV(
      mine.empty() ? &none : mine.data(), this->Gathered.data(), sent, counts.data(), offsets.data());
  }
  else
  {
    // Single-precision values travel as floats (exact both ways).
    const std::vector<float> narrow(mine.begin(), mine.end());
    std::vector<float> gathered(this->Gathered.size(), 0.0f);
    const float none = 0.0f;
    this->Controller->AllGatherV(
      narrow.empty() ? &none : narrow.data(), gathered.data(), sent, counts.data(), offsets.data());
    std::copy(gathered.begin(), gathered.end(), this->Gathered.begin());
  }
  this->Bytes += (mine.size() + total) * gpumesh::realSize(run.precision());

  std::vector<double> received(4 * this->ReceivedPoints.size());
  for (std::size_t i = 0; i < this->ReceivedPoints.size(); ++i)
  {
    std::copy_n(&this->Gathered[4 * this->ReceivedFrom[i]], 4, &received[4 * i]);
  }
  gpumesh::scatter(run, values, 4, this->ReceivedPoints, received, "halo points");
}

const double* vtkGPUMeshPointHalo::ReceivedInputPoint(long long globalId) const
{
  const auto found = this->ExtraFrom.find(globalId);
  if (found == this->ExtraFrom.end() || this->Gathered.size() < 4 * (found->second + 1))
  {
    return nullptr;
  }
  return &this->Gathered[4 * found->second];
}
