// Global ids to piece point ids (private to the module): the interface's points and the ghost
// layer's, built once and looked up many times per new input. Open addressing in one flat table
// sized for the entries it will hold, where std::unordered_map allocates a node per entry and
// follows a pointer on every lookup; each slot holds its key beside its value (a probe reads
// one cache line), in reused host pages (a new input's maps take no fresh pages).
#ifndef vtkGPUMeshIdMap_h
#define vtkGPUMeshIdMap_h

#include "vtkType.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/HostMemory.h"

#include <cstdint>
#include <utility>
#include <vector>

class vtkGPUMeshIdMap
{
public:
  /// A map for up to `expected` entries (more throw an internal error: the table never grows).
  explicit vtkGPUMeshIdMap(std::size_t expected)
  {
    std::size_t capacity = 16;
    while (capacity < 2 * expected)
      capacity *= 2;
    this->Slots.assign(capacity, Slot{ 0, -1 });
    this->Mask = capacity - 1;
    this->Room = expected; // at most half the table filled: probes stay short and end
  }

  /// The value of `id` and false when it is there already; else adds (id, value), value >= 0,
  /// and gives it with true.
  std::pair<vtkIdType, bool> Emplace(long long id, vtkIdType value)
  {
    std::size_t at = this->SlotOf(id);
    for (; this->Slots[at].Value >= 0; at = (at + 1) & this->Mask)
    {
      if (this->Slots[at].Key == id)
        return { this->Slots[at].Value, false };
    }
    if (this->Room == 0)
      throw gpumesh::Error("Internal error: more global ids than their map was made for");
    --this->Room;
    this->Slots[at] = Slot{ id, value };
    return { value, true };
  }

  /// The value of `id`, or -1 when it is not there.
  vtkIdType Find(long long id) const
  {
    for (std::size_t at = this->SlotOf(id); this->Slots[at].Value >= 0; at = (at + 1) & this->Mask)
    {
      if (this->Slots[at].Key == id)
        return this->Slots[at].Value;
    }
    return -1;
  }

private:
  // SplitMix64's finaliser: ids of a grid's neighbouring points spread over the table.
  std::size_t SlotOf(long long id) const
  {
    auto x = static_cast<std::uint64_t>(id);
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
    return static_cast<std::size_t>(x ^ (x >> 31)) & this->Mask;
  }

  struct Slot
  {
    long long Key;
    vtkIdType Value; // -1: an empty slot
  };
  gpumesh::HostVector<Slot> Slots;
  std::size_t Mask = 0;
  std::size_t Room = 0;
};

#endif
