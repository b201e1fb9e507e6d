// Global ids to piece point ids (private to the module): the interface's points and the ghost
// layer's, built once and looked up many times per new input. Open addressing in one flat table
// sized for the entries it will hold, where std::unordered_map allocates a node per entry and
// follows a pointer on every lookup; each slot holds its key beside its value (a probe reads
// one cache line), in reused host pages (a new input's maps take no fresh pages). Filled by one
// thread (Emplace) or by all at once (EmplaceLowest: GCC's and Clang's atomic builtins on the
// slots, which stay plain, trivially copyable data). On a 64-core host the second paid only
// where each thread inserts ids of its own (the interface's points, 0.3 -> 0.1 ms); where the
// inserts read what another thread had just written, one thread was faster.
#ifndef vtkGPUMeshIdMap_h
#define vtkGPUMeshIdMap_h

#include "vtkGPUMeshHostLoops.h"
#include "vtkType.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/HostMemory.h"

#include <cstdint>
#include <utility>

class vtkGPUMeshIdMap
{
public:
  /// A map for up to `expected` entries (more throw an internal error: the table never grows).
  explicit vtkGPUMeshIdMap(std::size_t expected)
  {
    std::size_t capacity = 16;
    while (capacity < 2 * expected)
      capacity *= 2;
    this->Slots.resize(capacity);
    vtkGPUMeshHostLoops::Fill(this->Slots.begin(), this->Slots.end(), Slot{ 0, Empty });
    this->Mask = capacity - 1;
    this->Room = expected; // at most half the table filled: probes stay short and end
  }

  /// The value of `id` and false when it is there already; else adds (id, value), value >= 0,
  /// and gives it with true. One thread at a time.
  std::pair<vtkIdType, bool> Emplace(long long id, vtkIdType value)
  {
    std::size_t at = this->SlotOf(id);
    for (; this->Slots[at].Value != Empty; at = (at + 1) & this->Mask)
    {
      if (this->Slots[at].Key == id)
        return { this->Slots[at].Value, false };
    }
    if (this->Used == this->Room)
      throw gpumesh::Error("Internal error: more global ids than their map was made for");
    ++this->Used;
    this->Slots[at] = Slot{ id, value };
    return { value, true };
  }

  /// Adds (id, value), value >= 0, or keeps the lower of the two values where `id` is there
  /// already. Safe to call from several threads at once (and only with itself): the table holds
  /// the same whatever the order of the calls, as if each id's lowest value came first.
  void EmplaceLowest(long long id, vtkIdType value)
  {
    std::size_t at = this->SlotOf(id);
    for (std::size_t probes = 0; probes <= this->Mask;)
    {
      Slot& slot = this->Slots[at];
      vtkIdType seen = __atomic_load_n(&slot.Value, __ATOMIC_ACQUIRE);
      if (seen == Empty)
      {
        // Claimed, then keyed, then valued: another thread meeting the slot meanwhile waits
        // for its key. A lost claim looks at the same slot again.
        if (!__atomic_compare_exchange_n(&slot.Value, &seen, Claimed, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
          continue;
        slot.Key = id;
        __atomic_store_n(&slot.Value, value, __ATOMIC_RELEASE);
        if (__atomic_add_fetch(&this->Used, 1, __ATOMIC_RELAXED) > this->Room)
          throw gpumesh::Error("Internal error: more global ids than their map was made for");
        return;
      }
      while (seen == Claimed)
        seen = __atomic_load_n(&slot.Value, __ATOMIC_ACQUIRE);
      if (slot.Key == id)
      {
        while (value < seen &&
          !__atomic_compare_exchange_n(&slot.Value, &seen, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        {
        }
        return;
      }
      at = (at + 1) & this->Mask;
      ++probes;
    }
    throw gpumesh::Error("Internal error: more global ids than their map was made for");
  }

  /// The value of `id`, or -1 when it is not there. Not while EmplaceLowest runs.
  vtkIdType Find(long long id) const
  {
    for (std::size_t at = this->SlotOf(id); this->Slots[at].Value != Empty; at = (at + 1) & this->Mask)
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

  static constexpr vtkIdType Empty = -1;
  static constexpr vtkIdType Claimed = -2; // a thread is writing the slot's key
  struct Slot
  {
    long long Key;
    vtkIdType Value; // Empty, Claimed, or the id's value (>= 0)
  };
  gpumesh::HostVector<Slot> Slots;
  std::size_t Mask = 0;
  std::size_t Room = 0;
  std::size_t Used = 0; // slots taken (atomic: EmplaceLowest)
};

#endif
