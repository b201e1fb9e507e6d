#include "vtkGPUMeshOutputArrays.h"

#include "vtkAbstractArray.h"
#include "vtkCellData.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkSMPTools.h"

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
} // namespace

void Allocate(vtkDataArray* array, vtkIdType tuples)
{
  const vtkIdType values = tuples * array->GetNumberOfComponents();
  const std::size_t bytes = static_cast<std::size_t>(values) * static_cast<std::size_t>(array->GetDataTypeSize());
  // Smaller arrays: 4 KiB pages cost little, VTK's own allocation serves.
  if (!plainValues(array) || bytes < gpumesh::hostMemoryPageBytes)
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
  vtkSMPTools::For(0, static_cast<vtkIdType>(blocks), [&](vtkIdType begin, vtkIdType end) {
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

void CopyParentCellData(vtkCellData* in, vtkCellData* out, vtkIdTypeArray* parentIds, vtkIdType sameAsInput)
{
  const vtkIdType count = parentIds->GetNumberOfTuples();
  vtkNew<vtkIdList> from;
  from->SetArray(parentIds->GetPointer(sameAsInput), count - sameAsInput);
  for (int i = 0; i < in->GetNumberOfArrays(); ++i)
  {
    vtkAbstractArray* source = in->GetAbstractArray(i);
    vtkSmartPointer<vtkAbstractArray> array;
    if (auto* values = vtkDataArray::SafeDownCast(source))
    {
      array = NewLike(values, count);
    }
    else
    {
      array = vtk::TakeSmartPointer(source->NewInstance());
      array->SetNumberOfComponents(source->GetNumberOfComponents());
      array->SetNumberOfTuples(count);
    }
    array->SetName(source->GetName());
    CopyTuples(array, source, sameAsInput);
    if (count > sameAsInput) // VTK's tuple copy reads the id list's first entry even when it is empty
      array->InsertTuplesStartingAt(sameAsInput, from, source);
    out->AddArray(array);
  }
  from->Release(); // the ids stay parentIds'
  for (int attribute = 0; attribute < vtkDataSetAttributes::NUM_ATTRIBUTES; ++attribute)
    if (vtkAbstractArray* active = in->GetAbstractAttribute(attribute))
      out->SetActiveAttribute(active->GetName(), attribute);
}

} // namespace vtkGPUMeshOutputArrays
