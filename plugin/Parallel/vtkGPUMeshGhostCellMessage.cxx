#include "vtkGPUMeshGhostCellMessage.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkIdList.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"

#include "vtkGPUMeshHostLoops.h"

#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace vtkGPUMeshGhostCellMessage
{

namespace
{
// The grain of the loops over a message's items: on all threads where a message is large (a
// tetrahedron piece's), on one for a triangle piece's few thousand cells, where starting the
// threads costs more than the copies.
constexpr vtkIdType largeLoop = 1 << 15;

// Writes into a buffer sized exactly beforehand: one allocation, no growth, no zeroing.
class Writer
{
public:
  explicit Writer(std::size_t size) { this->Out.resize(size); }
  template <typename T>
  void Put(const T& value)
  {
    this->Bytes(&value, sizeof value);
  }
  void Bytes(const void* data, std::size_t size)
  {
    if (size > 0)
      std::memcpy(this->Next(size), data, size);
  }
  // `count` 64-bit values, the i-th valueOf(i), written straight into the message (on all
  // threads where they are many).
  template <typename ValueOf>
  void PutInt64s(std::size_t count, ValueOf valueOf)
  {
    char* at = this->Next(count * sizeof(std::int64_t));
    vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(count), largeLoop, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType i = begin; i < end; ++i)
      {
        const auto value = static_cast<std::int64_t>(valueOf(static_cast<std::size_t>(i)));
        std::memcpy(at + static_cast<std::size_t>(i) * sizeof value, &value, sizeof value);
      }
    });
  }
  // Room for the next `size` bytes, to be written by the caller.
  char* Next(std::size_t size)
  {
    if (size > this->Out.size() - this->At)
      throw gpumesh::Error("The ghost cell message was sized wrongly (an internal error)");
    char* at = this->Out.data() + this->At;
    this->At += size;
    return at;
  }
  vtkGPUMeshNeighbors::Buffer Done()
  {
    if (this->At != this->Out.size())
      throw gpumesh::Error("The ghost cell message was sized wrongly (an internal error)");
    return std::move(this->Out);
  }

private:
  vtkGPUMeshNeighbors::Buffer Out;
  std::size_t At = 0;
};

class Reader
{
public:
  Reader(const vtkGPUMeshNeighbors::Buffer& bytes, int from)
    : In(bytes)
    , From(from)
  {
  }
  template <typename T>
  T Get()
  {
    T value;
    this->Bytes(&value, sizeof value);
    return value;
  }
  void Bytes(void* data, std::size_t size)
  {
    if (size > this->In.size() - this->At)
      this->Fail();
    if (size > 0)
      std::memcpy(data, this->In.data() + this->At, size);
    this->At += size;
  }
  // A count read from the message, bounded by what is left of it at `bytesEach` per item.
  std::int64_t Count(std::size_t bytesEach)
  {
    const auto count = this->Get<std::int64_t>();
    if (count < 0 || (bytesEach > 0 && static_cast<std::uint64_t>(count) > (this->In.size() - this->At) / bytesEach))
      this->Fail();
    return count;
  }
  // The next `size` bytes, read in place.
  const char* View(std::size_t size)
  {
    if (size > this->In.size() - this->At)
      this->Fail();
    const char* at = this->In.data() + this->At;
    this->At += size;
    return at;
  }
  bool Done() const { return this->At == this->In.size(); }
  std::size_t Remaining() const { return this->In.size() - this->At; }
  [[noreturn]] void Fail() const
  {
    throw gpumesh::Error("Could not read the ghost cells sent by process " + std::to_string(this->From));
  }

private:
  const vtkGPUMeshNeighbors::Buffer& In;
  std::size_t At = 0;
  int From;
};

std::size_t tupleBytes(vtkDataArray* array)
{
  return static_cast<std::size_t>(array->GetNumberOfComponents()) * static_cast<std::size_t>(array->GetDataTypeSize());
}

// Copies tuple ids[i] of `base` (tuples of Bytes bytes) to tuple i of `out`: a fixed-size copy
// the compiler makes a move or two.
template <std::size_t Bytes>
void gatherFixed(char* out, const char* base, const vtkIdType* ids, std::size_t count)
{
  for (std::size_t i = 0; i < count; ++i)
    std::memcpy(out + i * Bytes, base + static_cast<std::size_t>(ids[i]) * Bytes, Bytes);
}

// The tuples `ids` of `source` in the array's own type, at `out`: a byte gather from the
// array's memory when it has VTK's standard layout (no per-tuple virtual call; on all threads
// where they are many), else VTK's GetTuples into a scratch array.
void gatherTuples(char* out, vtkDataArray* source, const vtkIdType* ids, std::size_t count)
{
  const std::size_t bytes = tupleBytes(source);
  if (count == 0 || bytes == 0)
    return;
  if (!source->HasStandardMemoryLayout())
  {
    vtkSmartPointer<vtkDataArray> gathered = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(source->GetDataType()));
    gathered->SetNumberOfComponents(source->GetNumberOfComponents());
    gathered->SetNumberOfTuples(static_cast<vtkIdType>(count));
    vtkNew<vtkIdList> list;
    list->SetNumberOfIds(static_cast<vtkIdType>(count));
    std::copy(ids, ids + count, list->begin());
    source->GetTuples(list, gathered);
    std::memcpy(out, gathered->GetVoidPointer(0), count * bytes);
    return;
  }
  const char* base = static_cast<const char*>(source->GetVoidPointer(0));
  vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(count), largeLoop, [&](vtkIdType begin, vtkIdType end) {
    char* to = out + static_cast<std::size_t>(begin) * bytes;
    const vtkIdType* from = ids + begin;
    const auto n = static_cast<std::size_t>(end - begin);
    switch (bytes)
    {
      case 1: gatherFixed<1>(to, base, from, n); break;
      case 2: gatherFixed<2>(to, base, from, n); break;
      case 4: gatherFixed<4>(to, base, from, n); break;
      case 8: gatherFixed<8>(to, base, from, n); break;
      case 12: gatherFixed<12>(to, base, from, n); break;
      case 16: gatherFixed<16>(to, base, from, n); break;
      case 24: gatherFixed<24>(to, base, from, n); break;
      default:
        for (std::size_t i = 0; i < n; ++i)
          std::memcpy(to + i * bytes, base + static_cast<std::size_t>(from[i]) * bytes, bytes);
    }
  });
}

// Numeric arrays only (bits excepted): the filters read no others.
std::vector<vtkDataArray*> numericArrays(vtkDataSetAttributes* attributes)
{
  std::vector<vtkDataArray*> numeric;
  for (int a = 0; a < attributes->GetNumberOfArrays(); ++a)
  {
    vtkDataArray* array = attributes->GetArray(a);
    if (array && array->GetDataType() != VTK_BIT)
      numeric.push_back(array);
  }
  return numeric;
}

std::string nameOf(vtkDataArray* array)
{
  return array->GetName() ? array->GetName() : "";
}

// Bytes putArrays writes for `count` tuples of `arrays`.
std::size_t arraysBytes(const std::vector<vtkDataArray*>& arrays, std::size_t count)
{
  std::size_t bytes = sizeof(std::int64_t);
  for (vtkDataArray* array : arrays)
    bytes += sizeof(std::int64_t) + nameOf(array).size() + 2 * sizeof(std::int32_t) + count * tupleBytes(array);
  return bytes;
}

void putArrays(Writer& out, const std::vector<vtkDataArray*>& arrays, const vtkIdType* ids, std::size_t count)
{
  out.Put(static_cast<std::int64_t>(arrays.size()));
  for (vtkDataArray* array : arrays)
  {
    const std::string name = nameOf(array);
    out.Put(static_cast<std::int64_t>(name.size()));
    out.Bytes(name.data(), name.size());
    out.Put(static_cast<std::int32_t>(array->GetDataType()));
    out.Put(static_cast<std::int32_t>(array->GetNumberOfComponents()));
    gatherTuples(out.Next(count * tupleBytes(array)), array, ids, count);
  }
}

// A value type the receiver can hold (VTK's numeric types), of `bytes` bytes each.
bool knownType(int type, std::size_t& bytes)
{
  switch (type)
  {
    case VTK_CHAR:
    case VTK_SIGNED_CHAR:
    case VTK_UNSIGNED_CHAR:
      bytes = 1;
      return true;
    case VTK_SHORT:
    case VTK_UNSIGNED_SHORT:
      bytes = 2;
      return true;
    case VTK_INT:
    case VTK_UNSIGNED_INT:
    case VTK_FLOAT:
      bytes = 4;
      return true;
    case VTK_LONG:
    case VTK_UNSIGNED_LONG:
      bytes = sizeof(long);
      return true;
    case VTK_LONG_LONG:
    case VTK_UNSIGNED_LONG_LONG:
    case VTK_ID_TYPE:
    case VTK_DOUBLE:
      bytes = 8;
      return true;
    default:
      return false;
  }
}

std::vector<ArrayView> getArrays(Reader& in, vtkIdType tuples)
{
  const std::int64_t count = in.Count(1);
  std::vector<ArrayView> arrays;
  for (std::int64_t a = 0; a < count; ++a)
  {
    ArrayView array;
    array.Name.assign(static_cast<std::size_t>(in.Count(1)), '\0');
    in.Bytes(array.Name.data(), array.Name.size());
    array.Type = in.Get<std::int32_t>();
    array.Components = in.Get<std::int32_t>();
    std::size_t valueBytes = 0;
    if (!knownType(array.Type, valueBytes) || array.Components < 1 ||
      static_cast<std::uint64_t>(tuples) * static_cast<std::uint64_t>(array.Components) > in.Remaining())
      in.Fail();
    array.TupleBytes = valueBytes * static_cast<std::size_t>(array.Components);
    array.Tuples = tuples;
    array.Values = in.View(static_cast<std::size_t>(tuples) * array.TupleBytes);
    arrays.push_back(std::move(array));
  }
  return arrays;
}
} // namespace

vtkGPUMeshNeighbors::Buffer Write(vtkPointSet* input, const Cells& cells, const std::vector<vtkIdType>& cellIds,
  const long long* globalIds, gpumesh::HostVector<std::int32_t>& localOf, std::vector<vtkIdType>* pointsHeld)
{
  // The cells' points, numbered in order of first use through a table over the piece's points:
  // made once per piece, uninitialised and filled on all threads (a zeroing pass on one thread
  // cost more than the messages), 32-bit (a message's points fit).
  if (localOf.empty())
  {
    localOf.resize(static_cast<std::size_t>(input->GetNumberOfPoints()));
    vtkGPUMeshHostLoops::Fill(localOf.begin(), localOf.end(), std::int32_t(-1));
  }
  std::vector<vtkIdType> sourcePoints;
  sourcePoints.reserve(cells.Ids.size() / 2 + 1);
  for (const vtkIdType id : cells.Ids)
  {
    std::int32_t& local = localOf[static_cast<std::size_t>(id)];
    if (local < 0)
    {
      if (sourcePoints.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw gpumesh::Error("Too many points in the ghost cells sent to one process");
      local = static_cast<std::int32_t>(sourcePoints.size());
      sourcePoints.push_back(id);
    }
  }
  const std::size_t cellCount = cells.Types.size();
  const std::size_t idCount = cells.Ids.size();
  const std::size_t points = sourcePoints.size();
  vtkDataArray* xyz = input->GetPoints()->GetData();
  const std::vector<vtkDataArray*> pointArrays = numericArrays(input->GetPointData());
  const std::vector<vtkDataArray*> cellArrays = numericArrays(input->GetCellData());
  const std::size_t size = sizeof(std::int64_t) + cellCount + sizeof(std::int64_t) +
    (cellCount + 1) * sizeof(std::int64_t) + idCount * sizeof(std::int64_t) + sizeof(std::int64_t) +
    points * sizeof(std::int64_t) + sizeof(std::int32_t) + points * tupleBytes(xyz) + arraysBytes(pointArrays, points) +
    arraysBytes(cellArrays, cellIds.size());

  Writer out(size);
  out.Put(static_cast<std::int64_t>(cellCount));
  out.Bytes(cells.Types.data(), cellCount);
  out.Put(static_cast<std::int64_t>(idCount));
  out.PutInt64s(cellCount + 1, [&](std::size_t c) { return cells.Offsets[c]; });
  out.PutInt64s(idCount, [&](std::size_t k) { return localOf[static_cast<std::size_t>(cells.Ids[k])]; });
  for (vtkIdType p : sourcePoints)
    localOf[static_cast<std::size_t>(p)] = -1;

  out.Put(static_cast<std::int64_t>(points));
  out.PutInt64s(points, [&](std::size_t i) { return globalIds[sourcePoints[i]]; });
  out.Put(static_cast<std::int32_t>(xyz->GetDataType()));
  gatherTuples(out.Next(points * tupleBytes(xyz)), xyz, sourcePoints.data(), points);
  putArrays(out, pointArrays, sourcePoints.data(), points);
  putArrays(out, cellArrays, cellIds.data(), cellIds.size());
  if (pointsHeld)
    *pointsHeld = std::move(sourcePoints);
  return out.Done();
}

const ArrayView* Message::Named(const std::vector<ArrayView>& arrays, const char* name)
{
  for (const ArrayView& array : arrays)
    if (name && array.Name == name)
      return &array;
  return nullptr;
}

Message Read(const vtkGPUMeshNeighbors::Buffer& bytes, int from)
{
  Message message;
  if (bytes.empty())
  {
    return message;
  }
  Reader in(bytes, from);
  message.Cells = in.Count(1);
  message.Types = reinterpret_cast<const unsigned char*>(in.View(static_cast<std::size_t>(message.Cells)));
  message.Ids = in.Count(sizeof(std::int64_t));
  if (static_cast<std::uint64_t>(message.Cells) + 1 > in.Remaining() / sizeof(std::int64_t))
    in.Fail();
  message.Offsets = in.View(static_cast<std::size_t>(message.Cells + 1) * sizeof(std::int64_t));
  message.Connectivity = in.View(static_cast<std::size_t>(message.Ids) * sizeof(std::int64_t));
  message.Points = in.Count(sizeof(std::int64_t));
  message.GlobalIds = in.View(static_cast<std::size_t>(message.Points) * sizeof(std::int64_t));
  // Offsets in order within the ids, and ids among the points: what the receiver indexes.
  if (message.Offset(0) != 0 || message.Offset(message.Cells) != message.Ids)
    in.Fail();
  std::atomic<bool> wrong{ false }; // checked on all threads where the message is large
  vtkGPUMeshHostLoops::For(0, message.Cells, largeLoop, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      if (message.Offset(c + 1) < message.Offset(c))
        wrong.store(true, std::memory_order_relaxed);
  });
  vtkGPUMeshHostLoops::For(0, message.Ids, largeLoop, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType k = begin; k < end; ++k)
      if (message.Id(k) < 0 || message.Id(k) >= message.Points)
        wrong.store(true, std::memory_order_relaxed);
  });
  if (wrong)
    in.Fail();
  message.Xyz.Type = in.Get<std::int32_t>();
  message.Xyz.Components = 3;
  message.Xyz.Tuples = message.Points;
  std::size_t valueBytes = 0;
  if (!knownType(message.Xyz.Type, valueBytes) ||
    static_cast<std::uint64_t>(message.Points) * 3 > in.Remaining())
    in.Fail();
  message.Xyz.TupleBytes = 3 * valueBytes;
  message.Xyz.Values = in.View(static_cast<std::size_t>(message.Points) * message.Xyz.TupleBytes);
  message.PointArrays = getArrays(in, message.Points);
  message.CellArrays = getArrays(in, message.Cells);
  if (!in.Done())
    in.Fail();
  return message;
}

} // namespace vtkGPUMeshGhostCellMessage
