// Large host allocations that do not pay a page fault per 4 KiB on first touch, and that are
// kept for reuse when freed.
#pragma once
#include <cstddef>
#include <new>
#include <utility>
#include <vector>

namespace gpumesh
{

/// The huge page size allocateHostMemory hands out whole.
constexpr std::size_t hostMemoryPageBytes = std::size_t(2) << 20;

/// From this size on (half a huge page), allocateHostMemory gives whole huge pages and keeps
/// them for reuse. Below 2 MiB too: an array of one 32-bit value per point of a 500,000-point
/// mesh (2,000,000 bytes) was 489 faults of 4 KiB pages at each execution, about 34 us each on
/// the project's CI-class VM, where a kept huge page costs none.
constexpr std::size_t hostMemoryLargeBytes = hostMemoryPageBytes / 2;

/// `bytes` of host memory (at least 1), aligned to 128 bytes, or nullptr when the system has
/// none; give it back with freeHostMemory. From hostMemoryLargeBytes up it is whole 2 MiB pages, aligned to
/// 2 MiB and advised as transparent huge pages (Linux): the first touch then faults one 2 MiB
/// page instead of 512 small ones, which on virtual machines costs more than the work done in
/// the memory (a 500 MB copy: 4.6 s in small pages, 0.14 s in huge ones, measured on the
/// project's CI-class VM). Without transparent huge pages the advice is ignored.
/// Such large blocks, once freed, are kept (up to hostMemoryCacheLimit() bytes, neighbours
/// merged) and handed out again, whole or in part, or several moved together into a larger
/// block (their pages remapped, not copied) (Linux): memory touched before is many times
/// cheaper than fresh memory (on the CI-class VM, fresh pages fill at 0.3-2.3 GB/s, touched
/// ones at 25), and a filter's buffers and outputs come and go within and between executions.
void* allocateHostMemory(std::size_t bytes);

/// Gives back memory of allocateHostMemory (nullptr does nothing). Thread-safe.
void freeHostMemory(void* memory);

/// Returns the freed blocks kept for reuse to the system.
void trimHostMemory();

/// Bytes of freed blocks kept for reuse now, and the most that is kept (1/8 of the physical
/// memory, at most 4 GiB).
std::size_t cachedHostMemory();
std::size_t hostMemoryCacheLimit();

/// A standard allocator over allocateHostMemory, for host vectors as large as a mesh (an id per
/// point, say) that are filled once: their first touch then costs as in the filters' outputs.
template <typename T>
struct HostAllocator
{
  using value_type = T;
  HostAllocator() = default;
  template <typename U>
  HostAllocator(const HostAllocator<U>&) noexcept
  {
  }
  T* allocate(std::size_t count)
  {
    void* memory = allocateHostMemory(count * sizeof(T));
    if (!memory)
      throw std::bad_alloc();
    return static_cast<T*>(memory);
  }
  void deallocate(T* memory, std::size_t) noexcept { freeHostMemory(memory); }
  /// resize() leaves new values uninitialized: the caller fills them (on all threads), instead
  /// of a zeroing pass on one.
  template <typename U>
  void construct(U* at) noexcept
  {
    ::new (static_cast<void*>(at)) U;
  }
  template <typename U, typename... Arguments>
  void construct(U* at, Arguments&&... arguments)
  {
    ::new (static_cast<void*>(at)) U(std::forward<Arguments>(arguments)...);
  }
  template <typename U>
  bool operator==(const HostAllocator<U>&) const noexcept
  {
    return true;
  }
  template <typename U>
  bool operator!=(const HostAllocator<U>&) const noexcept
  {
    return false;
  }
};

/// A vector in HostAllocator's memory.
template <typename T>
using HostVector = std::vector<T, HostAllocator<T>>;

} // namespace gpumesh
