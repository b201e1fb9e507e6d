#include "vtkGPUMeshPointHalo.h"

#include "vtkIdList.h"
#include "vtkMultiProcessController.h"
#include "vtkNew.h"
#include "vtkPointSet.h"

#include "gpumesh/Error.h"
#include "gpumesh/IndexedCopy.h"

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

  // Points of owned cells, points of ghost cells; both: the interface with other processes.
  std::vector<std::uint8_t> ofOwnedCell(points, 0), ofGhostCell(points, 0);
  vtkNew<vtkIdList> cellPoints;
  for (vtkIdType c = 0; c < mesh->GetNumberOfCells(); ++c)
  {
    mesh->GetCellPoints(c, cellPoints);
    auto& used = piece.GhostCell[c] ? ofGhostCell : ofOwnedCell;
    for (vtkIdType k = 0; k < cellPoints->GetNumberOfIds(); ++k)
    {
      used[cellPoints->GetId(k)] = 1;
    }
  }
  std::vector<long long> interface;
  for (std::size_t p = 0; p < points; ++p)
  {
    if (ofOwnedCell[p] && ofGhostCell[p])
    {
      interface.push_back(piece.GlobalPointId[p]);
    }
  }

  // Round 1: the owner of an interface point is the lowest rank listing it.
  std::vector<vtkIdType> counts, offsets;
  const std::vector<long long> allInterfaces = allGather(controller, interface, counts, offsets);
  std::unordered_map<long long, int> lowestRank;
  for (int p = static_cast<int>(counts.size()) - 1; p >= 0; --p)
  {
    for (vtkIdType i = offsets[p]; i < offsets[p] + counts[p]; ++i)
    {
      lowestRank[allInterfaces[i]] = p;
    }
  }
  std::vector<std::uint8_t> owned(points, 0);
  for (std::size_t p = 0; p < points; ++p)
  {
    const auto found = lowestRank.find(piece.GlobalPointId[p]);
    owned[p] = ofOwnedCell[p] && (found == lowestRank.end() || found->second == rank);
  }

  // Round 2: what each process needs. Points of no cell never move and are not exchanged.
  std::vector<long long> needed;
  std::vector<std::int32_t> neededPoints;
  std::unordered_map<long long, std::size_t> pieceIndex;
  for (std::size_t p = 0; p < points; ++p)
  {
    pieceIndex[piece.GlobalPointId[p]] = p;
    if (!owned[p] && (ofOwnedCell[p] || ofGhostCell[p]))
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
  const auto positionOf = [&](long long id) {
    const auto found = position.find(id);
    if (found == position.end())
    {
      throw gpumesh::Error("Point with global id " + std::to_string(id) +
        " is used by cells of this process but no process owns it (inconsistent global point ids?)");
    }
    return found->second;
  };
  for (std::size_t i = 0; i < needed.size(); ++i)
  {
    this->ReceivedPoints.push_back(neededPoints[i]);
    this->ReceivedFrom.push_back(positionOf(needed[i]));
  }
  for (long long id : extras)
  {
    this->ExtraFrom[id] = positionOf(id);
  }
}

void vtkGPUMeshPointHalo::Exchange(gpumesh::DeviceRun& run, gpumesh::DeviceBuffer<cl_float4>& points)
{
  const std::vector<cl_float4> mine = gpumesh::gather(run, points, this->Published, "halo points");
  std::vector<vtkIdType> counts(this->PublishedCounts), offsets(this->PublishedOffsets);
  for (std::size_t p = 0; p < counts.size(); ++p)
  {
    counts[p] *= 4;
    offsets[p] *= 4;
  }
  const std::size_t total = static_cast<std::size_t>(offsets.back() + counts.back());
  this->Gathered.assign(std::max<std::size_t>(total, 1), 0.0f);
  const float none = 0.0f;
  this->Controller->AllGatherV(mine.empty() ? &none : &mine[0].s[0], this->Gathered.data(),
    static_cast<vtkIdType>(4 * mine.size()), counts.data(), offsets.data());
  this->Bytes += (4 * mine.size() + total) * sizeof(float);

  std::vector<cl_float4> received(this->ReceivedPoints.size());
  for (std::size_t i = 0; i < received.size(); ++i)
  {
    std::copy_n(&this->Gathered[4 * this->ReceivedFrom[i]], 4, &received[i].s[0]);
  }
  gpumesh::scatter(run, points, this->ReceivedPoints, received, "halo points");
}

const cl_float4* vtkGPUMeshPointHalo::ReceivedInputPoint(long long globalId) const
{
  const auto found = this->ExtraFrom.find(globalId);
  if (found == this->ExtraFrom.end() || this->Gathered.size() < 4 * (found->second + 1))
  {
    return nullptr;
  }
  return reinterpret_cast<const cl_float4*>(&this->Gathered[4 * found->second]);
}
