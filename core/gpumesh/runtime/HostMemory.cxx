#include "gpumesh/runtime/HostMemory.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <unordered_map>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace gpumesh
{

namespace
{
constexpr std::size_t hugePage = hostMemoryPageBytes;
// Enough for the widest vector a CPU device's compiler loads aligned (and OpenCL's long16).
constexpr std::size_t smallAlignment = 128;

std::size_t physicalMemory()
{
#if defined(__linux__)
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long pageSize = sysconf(_SC_PAGESIZE);
  if (pages > 0 && pageSize > 0)
    return static_cast<std::size_t>(pages) * static_cast<std::size_t>(pageSize);
#endif
  return std::size_t(8) << 30;
}

#if defined(__linux__)
// Large blocks are whole 2 MiB pages of anonymous mappings: any part of one can be handed out
// or returned to the system on its own (munmap), so a kept block serves a smaller request and
// its rest stays kept, and freed neighbours merge again.
char* mapHugePages(std::size_t bytes)
{
  void* mapped = mmap(nullptr, bytes + hugePage, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED)
    return nullptr;
  char* start = static_cast<char*>(mapped);
  char* aligned = reinterpret_cast<char*>((reinterpret_cast<std::uintptr_t>(start) + hugePage - 1) / hugePage * hugePage);
  if (aligned > start)
    munmap(start, static_cast<std::size_t>(aligned - start));
  const std::size_t tail = static_cast<std::size_t>(start + bytes + hugePage - (aligned + bytes));
  if (tail)
    munmap(aligned + bytes, tail);
  madvise(aligned, bytes, MADV_HUGEPAGE); // advice only
  return aligned;
}

// The large blocks handed out (their size) and the freed ranges kept for reuse, by address
// (to merge neighbours) and by size (to find the smallest that fits). Never destroyed: a CPU
// runtime may free buffers while the process exits.
struct BlockCache
{
  std::mutex mutex;
  std::unordered_map<char*, std::size_t> inUse;
  std::map<char*, std::size_t> keptByAddress;
  std::multimap<std::size_t, char*> keptBySize;
  std::size_t keptBytes = 0;
  const std::size_t limit = std::min(physicalMemory() / 8, std::size_t(4) << 30);

  void keep(char* start, std::size_t bytes)
  {
    keptByAddress.emplace(start, bytes);
    keptBySize.emplace(bytes, start);
    keptBytes += bytes;
  }
  void forget(std::map<char*, std::size_t>::iterator range)
  {
    auto [first, last] = keptBySize.equal_range(range->second);
    keptBySize.erase(std::find_if(first, last, [&](const auto& entry) { return entry.second == range->first; }));
    keptBytes -= range->second;
    keptByAddress.erase(range);
  }
  /// Takes the first `bytes` (at most its size) of the kept range at `start`; the rest stays kept.
  void takeFront(char* start, std::size_t bytes)
  {
    const auto range = keptByAddress.find(start);
    const std::size_t size = range->second;
    forget(range);
    if (size > bytes)
      keep(start + bytes, size - bytes);
  }
};

BlockCache& blocks()
{
  static auto* cache = new BlockCache;
  return *cache;
}
#endif
} // namespace

void* allocateHostMemory(std::size_t bytes)
{
  bytes = std::max<std::size_t>(bytes, 1);
  if (bytes < hostMemoryLargeBytes)
  {
    void* memory = nullptr;
    return posix_memalign(&memory, smallAlignment, bytes) == 0 ? memory : nullptr;
  }
  const std::size_t rounded = (bytes + hugePage - 1) / hugePage * hugePage;
#if defined(__linux__)
  BlockCache& cache = blocks();
  std::lock_guard<std::mutex> lock(cache.mutex);
  char* memory = nullptr;
  const auto fitting = cache.keptBySize.lower_bound(rounded);
  if (fitting != cache.keptBySize.end())
  {
    // The smallest kept range that fits: its first part is handed out, the rest stays kept.
    memory = fitting->second;
    cache.takeFront(memory, rounded);
  }
  else
  {
    memory = mapHugePages(rounded);
    if (!memory)
      return nullptr;
    // No kept range fits: the kept ranges, largest first, are moved into the new block (their
    // pages, touched before, change address without a copy), so that only the rest is fresh.
    for (std::size_t filled = 0; filled < rounded && !cache.keptBySize.empty();)
    {
      const auto largest = std::prev(cache.keptBySize.end());
      char* start = largest->second;
      const std::size_t moved = std::min(largest->first, rounded - filled);
      if (mremap(start, moved, moved, MREMAP_MAYMOVE | MREMAP_FIXED, memory + filled) == MAP_FAILED)
        break; // the rest stays fresh
      cache.takeFront(start, moved);
      filled += moved;
    }
  }
  cache.inUse.emplace(memory, rounded);
  return memory;
#else
  void* memory = nullptr;
  return posix_memalign(&memory, hugePage, rounded) == 0 ? memory : nullptr;
#endif
}

void freeHostMemory(void* memory)
{
  if (!memory)
    return;
#if defined(__linux__)
  BlockCache& cache = blocks();
  std::lock_guard<std::mutex> lock(cache.mutex);
  const auto found = cache.inUse.find(static_cast<char*>(memory));
  if (found == cache.inUse.end())
  {
    std::free(memory); // a small allocation
    return;
  }
  char* start = found->first;
  std::size_t size = found->second;
  cache.inUse.erase(found);
  // Merged with the kept ranges right after and right before it.
  const auto after = cache.keptByAddress.find(start + size);
  if (after != cache.keptByAddress.end())
  {
    size += after->second;
    cache.forget(after);
  }
  const auto next = cache.keptByAddress.lower_bound(start);
  if (next != cache.keptByAddress.begin())
  {
    const auto before = std::prev(next);
    if (before->first + before->second == start)
    {
      start = before->first;
      size += before->second;
      cache.forget(before);
    }
  }
  cache.keep(start, size);
  // Over the limit: the excess goes back to the system, from the end of the largest ranges.
  while (cache.keptBytes > cache.limit)
  {
    const auto largest = std::prev(cache.keptBySize.end());
    char* victim = largest->second;
    const std::size_t victimSize = largest->first;
    const std::size_t excess = (cache.keptBytes - cache.limit + hugePage - 1) / hugePage * hugePage;
    cache.forget(cache.keptByAddress.find(victim));
    if (excess < victimSize)
    {
      munmap(victim + (victimSize - excess), excess);
      cache.keep(victim, victimSize - excess);
    }
    else
    {
      munmap(victim, victimSize);
    }
  }
#else
  std::free(memory);
#endif
}

void trimHostMemory()
{
#if defined(__linux__)
  BlockCache& cache = blocks();
  std::lock_guard<std::mutex> lock(cache.mutex);
  for (const auto& [start, size] : cache.keptByAddress)
    munmap(start, size);
  cache.keptByAddress.clear();
  cache.keptBySize.clear();
  cache.keptBytes = 0;
#endif
}

std::size_t cachedHostMemory()
{
#if defined(__linux__)
  BlockCache& cache = blocks();
  std::lock_guard<std::mutex> lock(cache.mutex);
  return cache.keptBytes;
#else
  return 0;
#endif
}

std::size_t hostMemoryCacheLimit()
{
#if defined(__linux__)
  return blocks().limit;
#else
  return 0;
#endif
}

} // namespace gpumesh
