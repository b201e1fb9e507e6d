// Fresh output arrays for the GPUMesh filters, cheap to fill (private to the module).
//
// A filter's output arrays are new memory written once, by a download or a copy. Writing a
// page for the first time costs a page fault; for the hundreds of megabytes of a large mesh
// the faults of 4 KiB pages cost more than the copy itself (measured: 4.6 s for a first copy
// of 500 MB against 0.12 s for the second, on this project's 2-core machine). Large arrays
// are therefore backed by transparent huge pages where Linux offers them (2 MiB pages: 512x
// fewer faults), and the copies that fill them run on all threads (vtkSMPTools).
#ifndef vtkGPUMeshOutputArrays_h
#define vtkGPUMeshOutputArrays_h

#include "vtkDataArray.h"
#include "vtkSmartPointer.h"

#include <cstddef>
#include <memory>
#include <vector>

class vtkAbstractArray;
class vtkCellData;
class vtkDataSetAttributes;
class vtkIdTypeArray;

namespace vtkGPUMeshOutputArrays
{

/// Gives `array` (an array of VTK's standard layout, e.g. vtkFloatArray) room for `tuples`
/// tuples of its components, uninitialized, in memory that the array frees itself. Large
/// arrays get transparent huge pages, reused from freed buffers and outputs
/// (gpumesh::allocateHostMemory).
void Allocate(vtkDataArray* array, vtkIdType tuples);

/// A new array of the same type and number of components as `like` (unnamed), of `tuples`
/// tuples (uninitialized; see Allocate). `like` must have VTK's standard memory layout.
vtkSmartPointer<vtkDataArray> NewLike(vtkDataArray* like, vtkIdType tuples);

/// A new `ArrayType` (vtkTypeInt32Array, vtkIdTypeArray, ...) of `tuples` x `components`.
template <typename ArrayType>
vtkSmartPointer<ArrayType> New(vtkIdType tuples, int components = 1)
{
  auto array = vtkSmartPointer<ArrayType>::New();
  array->SetNumberOfComponents(components);
  Allocate(array, tuples);
  return array;
}

/// Uninitialized memory for an array whose final size is known only after it is filled:
/// reserve generously (pages never written cost nothing) and let the array Adopt it. Growing an
/// array that holds huge pages instead would move them (VTK's Resize over-allocates, and the
/// realloc then moves the mapping: 0.35 s for 48 MB on the 2-core machine).
using Reservation = std::unique_ptr<void, void (*)(void*)>;
Reservation Reserve(std::size_t bytes);

/// Gives `reserved` (of at least `tuples` tuples of `array`'s type and components) to `array`,
/// which frees it.
void Adopt(vtkDataArray* array, Reservation reserved, vtkIdType tuples);

/// Makes `memory` (of gpumesh::allocateHostMemory, `values` values of `array`'s type) the
/// array's storage, given back with gpumesh::freeHostMemory when the array lets it go.
void AdoptHostMemory(vtkDataArray* array, void* memory, vtkIdType values);

/// memcpy on all threads: the first write of fresh pages is paid in parallel.
void Copy(void* to, const void* from, std::size_t bytes);

/// Copies tuples [0, tuples) of `from` to the same tuples of `to`: in parallel when both have
/// VTK's standard layout and the same value type, through VTK's tuple copy otherwise.
void CopyTuples(vtkAbstractArray* to, vtkAbstractArray* from, vtkIdType tuples);

/// A new array of `like`'s kind and components for `tuples` tuples (data arrays of VTK's
/// standard layout uninitialized, see Allocate; others as VTK allocates them), with what
/// DeepCopy would give it besides the values: name, component names and information.
vtkSmartPointer<vtkAbstractArray> NewOutputLike(vtkAbstractArray* like, vtkIdType tuples);

/// Tuples [0, count) of each array of `to` become tuples of the array of `from` at the same
/// index (same kind and components): tuple i is tuple i for i < sameAsInput, else tuple
/// `ids[i - sameAsInput]`. All arrays in one pass over the ids, at memcpy speed: blocks of
/// tuples on all threads (the first write of fresh pages in parallel too), each block through
/// every array while its ids are in cache, each tuple copied as its bytes (no virtual calls, no
/// dispatch on the value type). `sources` (when given, of `count` values) receives each tuple's
/// source. Arrays not of VTK's standard layout (strings, bits, ...) go through VTK's tuple copy.
template <typename Id>
void GatherArrays(const std::vector<vtkAbstractArray*>& to, const std::vector<vtkAbstractArray*>& from,
  vtkIdType count, vtkIdType sameAsInput, const Id* ids, vtkIdType* sources = nullptr);

/// Whether `array` is one of `data`'s labels that VTK's copies and interpolations leave out of
/// a new dataset (vtkDataSetAttributes' default flags): its global ids, and when `interpolating`
/// its pedigree ids too. A label given to several new tuples, or the midpoint of two labels,
/// would name the wrong tuple (under MPI, other processes' points as well).
bool IsLabel(vtkDataSetAttributes* data, vtkAbstractArray* array, bool interpolating);

/// The cell data of refined cells, from their parents: the first `sameAsInput` output cells are
/// the input's own, cell c after them the child of input cell `parents[c - sameAsInput]`.
/// `parentIds` (of `count` tuples) receives every output cell's input cell; every array of `in`
/// is added to `out`, in fresh arrays as above, all gathered in one pass (GatherArrays), with
/// `in`'s active attributes. The global ids are left out (IsLabel) unless `oneChildEach` (no
/// input cell is the parent of two output cells).
void CopyParentCellData(vtkCellData* in, vtkCellData* out, vtkIdTypeArray* parentIds, vtkIdType sameAsInput,
  const vtkTypeInt32* parents, bool oneChildEach);

/// Makes the arrays active in `in` (scalars, vectors, ...) active in `out` by name.
void PassActiveAttributes(vtkDataSetAttributes* in, vtkDataSetAttributes* out);

/// New tuples [first, first + count) of an array, each half-way between two tuples of the same
/// array (`parents`: two ids per new tuple), as vtkAbstractArray::InterpolateTuple at t = 0.5
/// computes them (integers rounded, a string the second parent's). A parent may be a new tuple
/// itself (a later pass's midpoint of earlier ones) but always precedes its child: the new tuples
/// are taken in waves whose parents all come before the wave, each wave in parallel.
class Midpoints
{
public:
  Midpoints(const vtkTypeInt32* parents, vtkIdType first, vtkIdType count);

  /// Writes the new tuples of `array` (sized for them; tuples before `first` filled).
  void Interpolate(vtkAbstractArray* array) const;

private:
  const vtkTypeInt32* Parents;
  vtkIdType First;
  std::vector<vtkIdType> WaveEnds; ///< past the last new tuple of each wave, counted from First
};

} // namespace vtkGPUMeshOutputArrays

#endif
