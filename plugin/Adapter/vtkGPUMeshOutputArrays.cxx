#include "vtkGPUMeshOutputArrays.h"

#include "vtkAbstractArray.h"
#include "vtkArrayDispatch.h"
#include "vtkCellData.h"
#include "vtkDataArrayRange.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkMath.h"
#include "vtkNew.h"

#include "vtkGPUMeshHostLoops.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/HostMemory.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

namespace vtkGPUMeshOutputArrays
{

namespace
{
// Each thread copies blocks of this size (a multiple of the huge page: no page is shared).
constexpr std::size_t copyBlock = 2 * gpumesh::hostMemoryPageBytes;

bool plainValues(vtkAbstractArray* array)
{
  return vtkDataArray::SafeDownCast(array) && array->HasStandardMemoryLayout() &&
    array->GetDataType() != VTK_BIT && array->GetDataTypeSize() > 0;
}

// out[start + i] = in[ids[i]], tuple by tuple, in the arrays' own value type.
struct GatherWorker
{
  template <typename InArray, typename OutArray>
  void operator()(InArray* from, OutArray* to, vtkIdType start, const vtkIdType* ids, vtkIdType count) const
  {
    const auto in = vtk::DataArrayValueRange(from);
    auto out = vtk::DataArrayValueRange(to);
    const int components = from->GetNumberOfComponents();
    vtkGPUMeshHostLoops::For(0, count, [&](vtkIdType begin, vtkIdType end) {
      if (components == 1)
      {
        for (vtkIdType i = begin; i < end; ++i)
          out[start + i] = in[ids[i]];
        return;
      }
      for (vtkIdType i = begin; i < end; ++i)
        for (int c = 0; c < components; ++c)
          out[(start + i) * components + c] = in[ids[i] * components + c];
    });
  }
};

// New tuples [first + begin, first + end) of one wave (see Midpoints), with the arithmetic of
// vtkGenericDataArray::InterpolateTuple at t = 0.5, so the values are VTK's to the bit.
struct MidpointWorker
{
  template <typename Array>
  void operator()(Array* array, const vtkTypeInt32* parents, vtkIdType first, vtkIdType begin, vtkIdType end) const
  {
    using Value = vtk::GetAPIType<Array>;
    auto values = vtk::DataArrayValueRange(array);
    const int components = array->GetNumberOfComponents();
    vtkGPUMeshHostLoops::For(begin, end, [&](vtkIdType from, vtkIdType to) {
      for (vtkIdType k = from; k < to; ++k)
      {
        const vtkIdType a = parents[2 * k] * components;
        const vtkIdType b = parents[2 * k + 1] * components;
        const vtkIdType child = (first + k) * components;
        for (int c = 0; c < components; ++c)
        {
          Value value;
          vtkMath::RoundDoubleToIntegralIfNecessary(values[a + c] * 0.5 + values[b + c] * 0.5, &value);
          values[child + c] = value;
        }
      }
    });
  }
};
} // namespace

void Allocate(vtkDataArray* array, vtkIdType tuples)
{
  const vtkIdType values = tuples * array->GetNumberOfComponents();
  const std::size_t bytes = static_cast<std::size_t>(values) * static_cast<std::size_t>(array->GetDataTypeSize());
  // Smaller arrays: 4 KiB pages cost little, VTK's own allocation serves.
  if (!plainValues(array) || bytes < gpumesh::hostMemoryLargeBytes)
  {
    array->SetNumberOfTuples(tuples);
    return;
  }
  void* memory = gpumesh::allocateHostMemory(bytes);
  if (!memory)
  {
    throw gpumesh::Error("Out of host memory: the output array '" +
      std::string(array->GetName() ? array->GetName() : "(unnamed)") + "' needs " + std::to_string(bytes) +
      " bytes");
  }
  AdoptHostMemory(array, memory, values);
}

Reservation Reserve(std::size_t bytes)
{
  Reservation reserved(gpumesh::allocateHostMemory(bytes), &gpumesh::freeHostMemory);
  if (!reserved)
  {
    throw gpumesh::Error("Out of host memory: an output array needs " + std::to_string(bytes) + " bytes");
  }
  return reserved;
}

void Adopt(vtkDataArray* array, Reservation reserved, vtkIdType tuples)
{
  AdoptHostMemory(array, reserved.release(), tuples * array->GetNumberOfComponents());
}

void AdoptHostMemory(vtkDataArray* array, void* memory, vtkIdType values)
{
  array->SetVoidArray(memory, values, 0, vtkAbstractArray::VTK_DATA_ARRAY_USER_DEFINED);
  // Back to the cache of touched memory when VTK lets the array go (or reallocates it).
  array->SetArrayFreeFunction(&gpumesh::freeHostMemory);
}

vtkSmartPointer<vtkDataArray> NewLike(vtkDataArray* like, vtkIdType tuples)
{
  auto array = vtk::TakeSmartPointer(like->NewInstance());
  array->SetNumberOfComponents(like->GetNumberOfComponents());
  Allocate(array, tuples);
  return array;
}

void Copy(void* to, const void* from, std::size_t bytes)
{
  const std::size_t blocks = (bytes + copyBlock - 1) / copyBlock;
  vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(blocks), [&](vtkIdType begin, vtkIdType end) {
    const std::size_t first = static_cast<std::size_t>(begin) * copyBlock;
    const std::size_t last = std::min(bytes, static_cast<std::size_t>(end) * copyBlock);
    std::memcpy(static_cast<char*>(to) + first, static_cast<const char*>(from) + first, last - first);
  });
}

void CopyTuples(vtkAbstractArray* to, vtkAbstractArray* from, vtkIdType tuples)
{
  if (tuples <= 0)
    return;
  if (plainValues(to) && plainValues(from) && to->GetDataType() == from->GetDataType() &&
    to->GetNumberOfComponents() == from->GetNumberOfComponents())
  {
    Copy(to->GetVoidPointer(0), from->GetVoidPointer(0),
      static_cast<std::size_t>(tuples * from->GetNumberOfComponents()) *
        static_cast<std::size_t>(from->GetDataTypeSize()));
    return;
  }
  to->InsertTuples(0, tuples, 0, from);
}

vtkSmartPointer<vtkAbstractArray> NewOutputLike(vtkAbstractArray* like, vtkIdType tuples)
{
  vtkSmartPointer<vtkAbstractArray> array;
  auto* values = vtkDataArray::SafeDownCast(like);
  if (values && values->HasStandardMemoryLayout())
  {
    array = NewLike(values, tuples);
  }
  else
  {
    array = vtk::TakeSmartPointer(like->NewInstance());
    array->SetNumberOfComponents(like->GetNumberOfComponents());
    array->SetNumberOfTuples(tuples);
  }
  array->SetName(like->GetName());
  array->CopyComponentNames(like);
  if (like->HasInformation())
    array->CopyInformation(like->GetInformation()); // leaves out the cached ranges
  return array;
}

namespace
{
// Tuples [start, start + count) of `to` become the tuples `ids[0..count)` of `from` (same kind
// and components), for arrays GatherArrays cannot copy as bytes: typed and parallel for data
// arrays of another layout, VTK's tuple copy for the others (strings, variants, bits).
void GatherTuples(vtkAbstractArray* to, vtkIdType start, vtkAbstractArray* from, const vtkIdType* ids, vtkIdType count)
{
  if (count <= 0)
    return;
  auto* toValues = vtkDataArray::SafeDownCast(to);
  auto* fromValues = vtkDataArray::SafeDownCast(from);
  if (toValues && fromValues &&
    vtkArrayDispatch::Dispatch2SameValueType::Execute(fromValues, toValues, GatherWorker{}, start, ids, count))
    return;
  vtkNew<vtkIdList> list;
  list->SetArray(const_cast<vtkIdType*>(ids), count);
  to->InsertTuplesStartingAt(start, list, from);
  list->Release(); // the ids stay the caller's
}
} // namespace

namespace
{
// Tuples of this many bytes are copied with a size the compiler knows (one or two moves).
template <std::size_t Bytes, typename Id>
void gatherFixed(char* to, const char* from, const Id* ids, vtkIdType count)
{
  for (vtkIdType i = 0; i < count; ++i)
    std::memcpy(to + i * Bytes, from + static_cast<std::size_t>(ids[i]) * Bytes, Bytes);
}

template <typename Id>
void gatherBytes(char* to, const char* from, std::size_t bytes, const Id* ids, vtkIdType count)
{
  switch (bytes)
  {
    case 1: return gatherFixed<1>(to, from, ids, count);
    case 2: return gatherFixed<2>(to, from, ids, count);
    case 4: return gatherFixed<4>(to, from, ids, count);
    case 8: return gatherFixed<8>(to, from, ids, count);
    case 12: return gatherFixed<12>(to, from, ids, count);
    case 16: return gatherFixed<16>(to, from, ids, count);
    case 24: return gatherFixed<24>(to, from, ids, count);
    case 32: return gatherFixed<32>(to, from, ids, count);
    default:
      for (vtkIdType i = 0; i < count; ++i)
        std::memcpy(to + i * bytes, from + static_cast<std::size_t>(ids[i]) * bytes, bytes);
  }
}

// Tuples per block of a thread's range: a block's ids (and the tuples they fetch) stay in cache
// while every array takes its part.
constexpr vtkIdType gatherBlock = 4096;
} // namespace

template <typename Id>
void GatherArrays(const std::vector<vtkAbstractArray*>& to, const std::vector<vtkAbstractArray*>& from,
  vtkIdType count, vtkIdType sameAsInput, const Id* ids, vtkIdType* sources)
{
  struct Plain
  {
    char* to;
    const char* from;
    std::size_t bytes; // per tuple
  };
  std::vector<Plain> plain;
  std::vector<std::size_t> others;
  for (std::size_t a = 0; a < to.size(); ++a)
  {
    if (plainValues(to[a]) && plainValues(from[a]) && to[a]->GetDataType() == from[a]->GetDataType() &&
      to[a]->GetNumberOfComponents() == from[a]->GetNumberOfComponents())
    {
      plain.push_back({ static_cast<char*>(to[a]->GetVoidPointer(0)), static_cast<const char*>(from[a]->GetVoidPointer(0)),
        static_cast<std::size_t>(from[a]->GetNumberOfComponents()) * static_cast<std::size_t>(from[a]->GetDataTypeSize()) });
    }
    else
    {
      others.push_back(a);
    }
  }
  sameAsInput = std::min(sameAsInput, count);
  vtkGPUMeshHostLoops::For(0, count, gatherBlock, [&](vtkIdType first, vtkIdType last) {
    for (vtkIdType begin = first; begin < last; begin += gatherBlock)
    {
      const vtkIdType end = std::min(last, begin + gatherBlock);
      const vtkIdType copied = std::max(begin, std::min(end, sameAsInput)); // [begin, copied) as is
      if (sources)
      {
        for (vtkIdType i = begin; i < copied; ++i)
          sources[i] = i;
        for (vtkIdType i = copied; i < end; ++i)
          sources[i] = static_cast<vtkIdType>(ids[i - sameAsInput]);
      }
      for (const Plain& array : plain)
      {
        if (copied > begin)
          std::memcpy(array.to + begin * array.bytes, array.from + begin * array.bytes,
            static_cast<std::size_t>(copied - begin) * array.bytes);
        if (end > copied)
          gatherBytes(array.to + copied * array.bytes, array.from, array.bytes, ids + (copied - sameAsInput), end - copied);
      }
    }
  });
  if (others.empty())
    return;
  // VTK's tuple copy through 64-bit ids.
  std::vector<vtkIdType> wide(ids, ids + (count - sameAsInput));
  for (const std::size_t a : others)
  {
    CopyTuples(to[a], from[a], sameAsInput);
    GatherTuples(to[a], sameAsInput, from[a], wide.data(), count - sameAsInput);
  }
}

template void GatherArrays<vtkTypeInt32>(const std::vector<vtkAbstractArray*>&, const std::vector<vtkAbstractArray*>&,
  vtkIdType, vtkIdType, const vtkTypeInt32*, vtkIdType*);
template void GatherArrays<vtkIdType>(const std::vector<vtkAbstractArray*>&, const std::vector<vtkAbstractArray*>&,
  vtkIdType, vtkIdType, const vtkIdType*, vtkIdType*);

bool IsLabel(vtkDataSetAttributes* data, vtkAbstractArray* array, bool interpolating)
{
  return array &&
    (array == data->GetGlobalIds() || (interpolating && array == data->GetPedigreeIds()));
}

void CopyParentCellData(vtkCellData* in, vtkCellData* out, vtkIdTypeArray* parentIds, vtkIdType sameAsInput,
  const vtkTypeInt32* parents, bool oneChildEach)
{
  const vtkIdType count = parentIds->GetNumberOfTuples();
  std::vector<vtkSmartPointer<vtkAbstractArray>> arrays;
  std::vector<vtkAbstractArray*> to, from;
  for (int i = 0; i < in->GetNumberOfArrays(); ++i)
  {
    if (!oneChildEach && IsLabel(in, in->GetAbstractArray(i), false))
      continue;
    from.push_back(in->GetAbstractArray(i));
    arrays.push_back(NewOutputLike(from.back(), count));
    to.push_back(arrays.back());
  }
  GatherArrays(to, from, count, sameAsInput, parents, parentIds->GetPointer(0));
  for (const auto& array : arrays)
    out->AddArray(array);
  PassActiveAttributes(in, out);
}

void PassActiveAttributes(vtkDataSetAttributes* in, vtkDataSetAttributes* out)
{
  for (int attribute = 0; attribute < vtkDataSetAttributes::NUM_ATTRIBUTES; ++attribute)
    if (vtkAbstractArray* active = in->GetAbstractAttribute(attribute))
      out->SetActiveAttribute(active->GetName(), attribute);
}

Midpoints::Midpoints(const vtkTypeInt32* parents, vtkIdType first, vtkIdType count)
  : Parents(parents)
  , First(first)
{
  // A wave ends before the first new tuple with a parent in it.
  vtkIdType wave = 0;
  for (vtkIdType k = 0; k < count; ++k)
  {
    if (std::max(parents[2 * k], parents[2 * k + 1]) >= first + wave)
    {
      this->WaveEnds.push_back(k);
      wave = k;
    }
  }
  if (count > 0)
    this->WaveEnds.push_back(count);
}

void Midpoints::Interpolate(vtkAbstractArray* array) const
{
  auto* values = vtkDataArray::SafeDownCast(array);
  vtkIdType begin = 0;
  for (const vtkIdType end : this->WaveEnds)
  {
    if (!values || !vtkArrayDispatch::Dispatch::Execute(values, MidpointWorker{}, this->Parents, this->First, begin, end))
    {
      for (vtkIdType k = begin; k < end; ++k)
        array->InterpolateTuple(this->First + k, this->Parents[2 * k], array, this->Parents[2 * k + 1], array, 0.5);
    }
    begin = end;
  }
}

} // namespace vtkGPUMeshOutputArrays
