#include "vtkGPUMeshPieceInterface.h"

#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshHostLoops.h"

#include "vtkArrayDispatch.h"
#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkDataArrayRange.h"
#include "vtkMultiProcessController.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"

#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/mesh/PointBoxes.h"
#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

namespace
{
using Box = vtkGPUMeshNeighbors::Box;

// A point as sent to a neighbour when global ids are generated: matched by its coordinates.
struct PointRecord
{
  double xyz[3];
  long long id;
};

struct CoordinatesHash
{
  std::size_t operator()(const std::array<double, 3>& p) const
  {
    std::size_t hash = 0;
    for (double value : p)
    {
      std::uint64_t bits;
      std::memcpy(&bits, &value, sizeof bits);
      hash = (hash ^ bits) * 0x100000001b3ull + (hash >> 29);
    }
    return hash;
  }
};

// +0.0 for -0.0: equal coordinates must hash alike.
std::array<double, 3> normalised(const double xyz[3])
{
  return { xyz[0] + 0.0, xyz[1] + 0.0, xyz[2] + 0.0 };
}

// The input points inside any neighbour's box (the only ones another process can hold),
// ascending, tested on all threads.
struct PointsInBoxes
{
  const std::vector<Box>* Boxes;
  std::vector<vtkIdType> Found;

  template <typename Array>
  void operator()(Array* xyz)
  {
    const auto values = vtk::DataArrayTupleRange<3>(xyz);
    this->Found = vtkGPUMeshHostLoops::Where(xyz->GetNumberOfTuples(), [&](vtkIdType p) {
      const double point[3] = { static_cast<double>(values[p][0]), static_cast<double>(values[p][1]),
        static_cast<double>(values[p][2]) };
      for (const Box& box : *this->Boxes)
      {
        if (vtkGPUMeshNeighbors::Contains(box, point))
          return true;
      }
      return false;
    });
  }
};

// The input's points in any of `boxes`, ascending: from the device where the box came from there
// (which may list a few more: see gpumesh::pointsInBoxes), else by a pass over the points.
std::vector<vtkIdType> pointsInBoxes(vtkPointSet* input, const std::vector<Box>& boxes, const vtkGPUMeshPieceBox* box)
{
  PointsInBoxes finder;
  finder.Boxes = &boxes;
  if (boxes.empty() || input->GetNumberOfPoints() == 0)
  {
    return finder.Found;
  }
  if (box && box->Mesh)
  {
    const std::vector<cl_int> found = gpumesh::pointsInBoxes(*box->Run, *box->Mesh, boxes);
    return std::vector<vtkIdType>(found.begin(), found.end());
  }
  vtkDataArray* xyz = input->GetPoints()->GetData();
  if (!vtkArrayDispatch::DispatchByValueType<vtkArrayDispatch::Reals>::Execute(xyz, finder))
  {
    finder(xyz);
  }
  return finder.Found;
}

struct ReadIds
{
  gpumesh::HostVector<long long>* Ids;
  template <typename Array>
  void operator()(Array* array)
  {
    const auto values = vtk::DataArrayValueRange<1>(array);
    vtkGPUMeshHostLoops::For(0, array->GetNumberOfTuples(), [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType p = begin; p < end; ++p)
        (*this->Ids)[p] = static_cast<long long>(values[p]);
    });
  }
};
} // namespace

bool vtkGPUMeshGlobalPointIds::Adopt(vtkDataArray* array)
{
  const int type = array->GetDataType();
  const bool wide = type == VTK_LONG_LONG || (type == VTK_ID_TYPE && std::is_same<vtkIdType, long long>::value);
  if (!wide || !array->HasStandardMemoryLayout() || array->GetNumberOfComponents() != 1)
    return false;
  this->Held = array;
  this->Owned.reset();
  this->Input = static_cast<const long long*>(array->GetVoidPointer(0));
  this->InputCount = static_cast<std::size_t>(array->GetNumberOfTuples());
  return true;
}

void vtkGPUMeshGlobalPointIds::Own(gpumesh::HostVector<long long>&& ids)
{
  this->Held = nullptr;
  this->Owned = std::make_shared<gpumesh::HostVector<long long>>(std::move(ids));
  this->Input = this->Owned->data();
  this->InputCount = this->Owned->size();
}

void vtkGPUMeshGlobalPointIds::Set(std::size_t p, long long id)
{
  if (!this->Owned || p >= this->Owned->size())
    throw gpumesh::Error("Internal error: a global point id set in an array this piece does not own");
  (*this->Owned)[p] = id;
}

long long vtkGPUMeshGlobalPointIds::Largest() const
{
  constexpr vtkIdType block = 1 << 16;
  const auto count = static_cast<vtkIdType>(this->InputCount);
  const vtkIdType blocks = (count + block - 1) / block;
  std::vector<long long> largest(static_cast<std::size_t>(blocks), -1);
  vtkGPUMeshHostLoops::For(0, blocks, [&](vtkIdType first, vtkIdType last) {
    for (vtkIdType b = first; b < last; ++b)
      for (vtkIdType p = b * block; p < std::min(count, (b + 1) * block); ++p)
        largest[b] = std::max(largest[b], this->Input[p]);
  });
  long long result = -1;
  for (long long value : largest)
    result = std::max(result, value);
  for (long long value : this->Added)
    result = std::max(result, value);
  return result;
}

namespace
{
// The input's array of global ids last found increasing: its address and modification time.
// VTK's modification times only grow, so a new array at the same address never matches, and
// an array changed in place (then marked Modified(), as VTK requires) is looked at again.
struct IncreasingArray
{
  std::mutex Mutex;
  const vtkDataArray* Array = nullptr;
  vtkMTimeType Time = 0;
};

IncreasingArray& lastIncreasing()
{
  static IncreasingArray last;
  return last;
}
} // namespace

bool vtkGPUMeshGlobalPointIds::InputIncreasing() const
{
  if (this->Held)
  {
    IncreasingArray& last = lastIncreasing();
    std::lock_guard<std::mutex> lock(last.Mutex);
    if (last.Array == this->Held.GetPointer() && last.Time == this->Held->GetMTime())
      return true;
  }
  const long long* ids = this->Input;
  const auto count = static_cast<vtkIdType>(this->InputCount);
  // Each point after the first against the one before it, in fixed blocks on all threads.
  constexpr vtkIdType block = 1 << 16;
  const vtkIdType blocks = count > 1 ? (count - 1 + block - 1) / block : 0;
  std::vector<unsigned char> ordered(static_cast<std::size_t>(blocks), 1);
  vtkGPUMeshHostLoops::For(0, blocks, [&](vtkIdType first, vtkIdType last) {
    for (vtkIdType b = first; b < last; ++b)
    {
      bool increasing = true;
      for (vtkIdType p = 1 + b * block; p < std::min(count, 1 + (b + 1) * block); ++p)
        increasing &= ids[p - 1] < ids[p];
      ordered[b] = increasing;
    }
  });
  const bool increasing = std::all_of(ordered.begin(), ordered.end(), [](unsigned char o) { return o != 0; });
  if (increasing && this->Held)
  {
    IncreasingArray& last = lastIncreasing();
    std::lock_guard<std::mutex> lock(last.Mutex);
    last.Array = this->Held.GetPointer();
    last.Time = this->Held->GetMTime();
  }
  return increasing;
}

vtkGPUMeshPieceBox vtkGPUMeshPieceBox::Of(vtkPointSet* input)
{
  vtkGPUMeshPieceBox found;
  found.Box = vtkGPUMeshNeighbors::BoxOf(input, &found.FirstNonFinite);
  return found;
}

vtkGPUMeshPieceBox vtkGPUMeshPieceBox::OnDevice(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh)
{
  vtkGPUMeshPieceBox found;
  found.Box = gpumesh::pointsBox(run, mesh);
  found.Run = &run;
  found.Mesh = &mesh;
  return found;
}

vtkGPUMeshPieceInterface vtkGPUMeshPieceInterface::Find(
  vtkPointSet* input, vtkMultiProcessController* controller, const vtkGPUMeshPieceBox* knownBox)
{
  vtkGPUMeshPieceInterface found;
  const vtkIdType points = input->GetNumberOfPoints();

  // The input's ids when every non-empty piece has them, else generated by all.
  vtkDataArray* given = input->GetPointData()->GetGlobalIds();
  long long missingIds = points > 0 && !given ? 1 : 0;
  vtkGPUMeshDistributed::AllReduce(controller, &missingIds, 1, vtkCommunicator::MAX_OP);
  found.Generated = missingIds != 0;
  Box box;
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    // The piece's points must be finite: what is built from them (boxes, the global origin,
    // matched coordinates) would be wrong on every process otherwise.
    const vtkGPUMeshPieceBox pieceBox = knownBox ? *knownBox : vtkGPUMeshPieceBox::Of(input);
    const vtkIdType nonFinite = pieceBox.FirstNonFinite;
    box = pieceBox.Box;
    if (nonFinite >= 0)
    {
      std::array<double, 3> p;
      input->GetPoint(nonFinite, p.data());
      throw gpumesh::Error(gpumesh::nonFinitePointMessage(nonFinite, p));
    }
    if (!found.Generated && points > 0)
    {
      if (given->GetNumberOfTuples() != points || given->GetNumberOfComponents() != 1)
      {
        throw gpumesh::Error("The global point ids of this piece (" + std::string(given->GetName() ? given->GetName() : "") +
          ") have " + std::to_string(given->GetNumberOfTuples()) + " tuples of " +
          std::to_string(given->GetNumberOfComponents()) + " components for " + std::to_string(points) + " points");
      }
      if (!found.GlobalIds.Adopt(given)) // else a 64-bit copy, on all threads
      {
        gpumesh::HostVector<long long> ids(static_cast<std::size_t>(points));
        ReadIds reader{ &ids };
        if (!vtkArrayDispatch::Dispatch::Execute(given, reader))
        {
          reader(given);
        }
        found.GlobalIds.Own(std::move(ids));
      }
    }
  });
  long long firstId = 0;
  if (found.Generated && controller)
  {
    const int processes = controller->GetNumberOfProcesses();
    std::vector<vtkIdType> counts(static_cast<std::size_t>(processes));
    controller->AllGather(&points, counts.data(), 1);
    for (int p = 0; p < controller->GetLocalProcessId(); ++p)
    {
      firstId += counts[p];
    }
  }
  if (found.Generated)
  {
    gpumesh::HostVector<long long> ids(static_cast<std::size_t>(points));
    vtkGPUMeshHostLoops::For(0, points, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType p = begin; p < end; ++p)
        ids[p] = firstId + p;
    });
    found.GlobalIds.Own(std::move(ids));
  }
  found.Neighbors = vtkGPUMeshNeighbors(controller, box);
  const std::size_t neighbors = found.Neighbors.Count();
  found.Shared.resize(neighbors);
  if (!controller)
  {
    return found;
  }

  // The candidates: this piece's points in each neighbour's box, sent to that neighbour.
  std::vector<Box> boxes;
  for (std::size_t n = 0; n < neighbors; ++n)
  {
    boxes.push_back(found.Neighbors.BoxOf(n));
  }
  // Each point listed is tested against each box here, in double: what the device lists beyond
  // the boxes (within float rounding of a border) drops out.
  std::vector<std::vector<vtkIdType>> candidates(neighbors);
  for (vtkIdType p : pointsInBoxes(input, boxes, knownBox))
  {
    double xyz[3];
    input->GetPoint(p, xyz);
    for (std::size_t n = 0; n < neighbors; ++n)
    {
      if (vtkGPUMeshNeighbors::Contains(boxes[n], xyz))
      {
        candidates[n].push_back(p);
      }
    }
  }
  if (!found.Generated)
  {
    std::vector<std::vector<long long>> sent(neighbors);
    for (std::size_t n = 0; n < neighbors; ++n)
    {
      for (vtkIdType p : candidates[n])
      {
        sent[n].push_back(found.GlobalIds[p]);
      }
    }
    const auto received = found.Neighbors.ExchangeValues(sent);
    for (std::size_t n = 0; n < neighbors; ++n)
    {
      const std::unordered_set<long long> theirs(received[n].begin(), received[n].end());
      for (vtkIdType p : candidates[n])
      {
        if (theirs.count(found.GlobalIds[p]))
        {
          found.Shared[n].push_back(p);
        }
      }
    }
    return found;
  }

  // Generated ids: points match by their exact coordinates; a shared point takes the smallest
  // id of its holders (every holder sees every other, as all their boxes contain it).
  std::vector<std::vector<PointRecord>> sent(neighbors);
  for (std::size_t n = 0; n < neighbors; ++n)
  {
    for (vtkIdType p : candidates[n])
    {
      PointRecord record;
      input->GetPoint(p, record.xyz);
      record.id = found.GlobalIds[p];
      sent[n].push_back(record);
    }
  }
  const auto received = found.Neighbors.ExchangeValues(sent);
  std::unordered_map<vtkIdType, long long> smallest;
  for (std::size_t n = 0; n < neighbors; ++n)
  {
    std::unordered_map<std::array<double, 3>, long long, CoordinatesHash> theirs;
    for (const PointRecord& record : received[n])
    {
      theirs.emplace(normalised(record.xyz), record.id);
    }
    for (vtkIdType p : candidates[n])
    {
      double xyz[3];
      input->GetPoint(p, xyz);
      const auto match = theirs.find(normalised(xyz));
      if (match != theirs.end())
      {
        found.Shared[n].push_back(p);
        auto inserted = smallest.emplace(p, match->second);
        inserted.first->second = std::min(inserted.first->second, match->second);
      }
    }
  }
  for (const auto& [p, id] : smallest)
  {
    found.GlobalIds.Set(static_cast<std::size_t>(p), std::min(found.GlobalIds[p], id));
  }
  return found;
}
