#include "vtkGPUMeshGhostCellMessage.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkIdList.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkSMPTools.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

namespace vtkGPUMeshGhostCellMessage
{

namespace
{
class Writer
{
public:
  template <typename T>
  void Put(const T& value)
  {
    this->Bytes(&value, sizeof value);
  }
  void Bytes(const void* data, std::size_t size)
  {
    const auto* bytes = static_cast<const char*>(data);
    this->Out.insert(this->Out.end(), bytes, bytes + size);
  }
  std::vector<char> Out;
};

class Reader
{
public:
  Reader(const std::vector<char>& bytes, int from)
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
  bool Done() const { return this->At == this->In.size(); }
  [[noreturn]] void Fail() const
  {
    throw gpumesh::Error("Could not read the ghost cells sent by process " + std::to_string(this->From));
  }

private:
  const std::vector<char>& In;
  std::size_t At = 0;
  int From;
};

// The tuples `ids` of `source` in the array's own type, as raw bytes (GetTuples: one typed
// gather, whatever the array's memory layout).
void putTuples(Writer& out, vtkDataArray* source, vtkIdList* ids)
{
  vtkSmartPointer<vtkDataArray> gathered = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(source->GetDataType()));
  gathered->SetNumberOfComponents(source->GetNumberOfComponents());
  gathered->SetNumberOfTuples(ids->GetNumberOfIds());
  if (ids->GetNumberOfIds() > 0)
    source->GetTuples(ids, gathered);
  out.Bytes(gathered->GetVoidPointer(0),
    static_cast<std::size_t>(gathered->GetNumberOfValues()) * static_cast<std::size_t>(gathered->GetDataTypeSize()));
}

void putArrays(Writer& out, vtkDataSetAttributes* attributes, vtkIdList* ids)
{
  std::vector<vtkDataArray*> numeric;
  for (int a = 0; a < attributes->GetNumberOfArrays(); ++a)
  {
    // Numeric arrays only (bits excepted): the filters read no others.
    vtkDataArray* array = attributes->GetArray(a);
    if (array && array->GetDataType() != VTK_BIT)
      numeric.push_back(array);
  }
  out.Put(static_cast<std::int64_t>(numeric.size()));
  for (vtkDataArray* array : numeric)
  {
    const std::string name = array->GetName() ? array->GetName() : "";
    out.Put(static_cast<std::int64_t>(name.size()));
    out.Bytes(name.data(), name.size());
    out.Put(static_cast<std::int32_t>(array->GetDataType()));
    out.Put(static_cast<std::int32_t>(array->GetNumberOfComponents()));
    putTuples(out, array, ids);
  }
}

void getArrays(Reader& in, vtkDataSetAttributes* attributes, vtkIdType tuples)
{
  const std::int64_t count = in.Count(1);
  for (std::int64_t a = 0; a < count; ++a)
  {
    std::string name(static_cast<std::size_t>(in.Count(1)), '\0');
    in.Bytes(name.data(), name.size());
    const auto type = in.Get<std::int32_t>();
    const auto components = in.Get<std::int32_t>();
    vtkSmartPointer<vtkDataArray> array = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(type));
    if (!array || components < 1)
      in.Fail();
    array->SetName(name.c_str());
    array->SetNumberOfComponents(components);
    array->SetNumberOfTuples(tuples);
    in.Bytes(array->GetVoidPointer(0),
      static_cast<std::size_t>(array->GetNumberOfValues()) * static_cast<std::size_t>(array->GetDataTypeSize()));
    attributes->AddArray(array);
  }
}

vtkNew<vtkIdList> idList(const std::vector<vtkIdType>& ids)
{
  vtkNew<vtkIdList> list;
  list->SetNumberOfIds(static_cast<vtkIdType>(ids.size()));
  std::copy(ids.begin(), ids.end(), list->begin());
  return list;
}
} // namespace

std::vector<char> Write(vtkPointSet* input, const Cells& cells, const std::vector<vtkIdType>& cellIds,
  const long long* globalIds, gpumesh::HostVector<std::int32_t>& localOf, std::vector<vtkIdType>* pointsHeld)
{
  // The cells' points, numbered in order of first use through a table over the piece's points:
  // made once per piece, uninitialised and filled on all threads (a zeroing pass on one thread
  // cost more than the messages), 32-bit (a message's points fit).
  if (localOf.empty())
  {
    localOf.resize(static_cast<std::size_t>(input->GetNumberOfPoints()));
    vtkSMPTools::Fill(localOf.begin(), localOf.end(), std::int32_t(-1));
  }
  std::vector<vtkIdType> sourcePoints;
  std::vector<std::int64_t> connectivity(cells.Ids.size());
  for (std::size_t k = 0; k < cells.Ids.size(); ++k)
  {
    std::int32_t& local = localOf[static_cast<std::size_t>(cells.Ids[k])];
    if (local < 0)
    {
      if (sourcePoints.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
        throw gpumesh::Error("Too many points in the ghost cells sent to one process");
      local = static_cast<std::int32_t>(sourcePoints.size());
      sourcePoints.push_back(cells.Ids[k]);
    }
    connectivity[k] = local;
  }
  for (vtkIdType p : sourcePoints)
    localOf[static_cast<std::size_t>(p)] = -1;
  Writer out;
  const std::int64_t cellCount = static_cast<std::int64_t>(cells.Types.size());
  out.Put(cellCount);
  out.Bytes(cells.Types.data(), cells.Types.size());
  out.Put(static_cast<std::int64_t>(connectivity.size()));
  for (std::int64_t c = 0; c <= cellCount; ++c)
    out.Put(static_cast<std::int64_t>(cells.Offsets[static_cast<std::size_t>(c)]));
  out.Bytes(connectivity.data(), connectivity.size() * sizeof(std::int64_t));

  const auto points = static_cast<std::int64_t>(sourcePoints.size());
  out.Put(points);
  for (vtkIdType p : sourcePoints)
    out.Put(static_cast<std::int64_t>(globalIds[p]));
  vtkNew<vtkIdList> pointIds = idList(sourcePoints);
  vtkDataArray* xyz = input->GetPoints()->GetData();
  out.Put(static_cast<std::int32_t>(xyz->GetDataType()));
  putTuples(out, xyz, pointIds);
  putArrays(out, input->GetPointData(), pointIds);
  putArrays(out, input->GetCellData(), idList(cellIds));
  if (pointsHeld)
    *pointsHeld = std::move(sourcePoints);
  return std::move(out.Out);
}

vtkSmartPointer<vtkUnstructuredGrid> Read(const std::vector<char>& bytes, int from)
{
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  if (bytes.empty())
  {
    return grid;
  }
  Reader in(bytes, from);
  const std::int64_t cells = in.Count(1);
  auto types = vtkSmartPointer<vtkUnsignedCharArray>::New();
  types->SetNumberOfTuples(cells);
  in.Bytes(types->GetPointer(0), static_cast<std::size_t>(cells));
  const std::int64_t ids = in.Count(sizeof(std::int64_t));
  vtkNew<vtkTypeInt64Array> offsets, connectivity;
  offsets->SetNumberOfTuples(cells + 1);
  connectivity->SetNumberOfTuples(ids);
  in.Bytes(offsets->GetPointer(0), static_cast<std::size_t>(cells + 1) * sizeof(std::int64_t));
  in.Bytes(connectivity->GetPointer(0), static_cast<std::size_t>(ids) * sizeof(std::int64_t));
  const std::int64_t points = in.Count(sizeof(std::int64_t));
  vtkNew<vtkTypeInt64Array> globalIds;
  globalIds->SetName(GlobalIdArray);
  globalIds->SetNumberOfTuples(points);
  in.Bytes(globalIds->GetPointer(0), static_cast<std::size_t>(points) * sizeof(std::int64_t));
  // Offsets in order within the ids, and ids among the points: what the grid's users index.
  if (offsets->GetValue(0) != 0 || offsets->GetValue(cells) != ids)
    in.Fail();
  for (std::int64_t c = 0; c < cells; ++c)
    if (offsets->GetValue(c + 1) < offsets->GetValue(c))
      in.Fail();
  for (std::int64_t k = 0; k < ids; ++k)
    if (connectivity->GetValue(k) < 0 || connectivity->GetValue(k) >= points)
      in.Fail();
  vtkSmartPointer<vtkDataArray> xyz = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(in.Get<std::int32_t>()));
  if (!xyz)
    in.Fail();
  xyz->SetNumberOfComponents(3);
  xyz->SetNumberOfTuples(points);
  in.Bytes(xyz->GetVoidPointer(0), static_cast<std::size_t>(xyz->GetNumberOfValues()) * xyz->GetDataTypeSize());
  getArrays(in, grid->GetPointData(), points);
  getArrays(in, grid->GetCellData(), cells);
  if (!in.Done())
    in.Fail();
  vtkNew<vtkPoints> gridPoints;
  gridPoints->SetData(xyz);
  grid->SetPoints(gridPoints);
  vtkNew<vtkCellArray> cellArray;
  cellArray->SetData(offsets, connectivity);
  grid->SetCells(types, cellArray, nullptr, nullptr);
  grid->GetPointData()->AddArray(globalIds);
  return grid;
}

} // namespace vtkGPUMeshGhostCellMessage
