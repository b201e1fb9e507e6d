#include "gpumesh/HostMemory.h"

#include <algorithm>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace gpumesh
{

namespace
{
constexpr std::size_t hugePage = std::size_t(2) << 20;
// Below this, small pages cost little and the 2 MiB alignment would waste more than it saves.
constexpr std::size_t hugePageThreshold = std::size_t(8) << 20;
// Enough for the widest vector a CPU device's compiler loads aligned (and OpenCL's long16).
constexpr std::size_t smallAlignment = 128;
} // namespace

void* allocateHostMemory(std::size_t bytes)
{
  bytes = std::max<std::size_t>(bytes, 1);
  const bool huge = bytes >= hugePageThreshold;
  void* memory = nullptr;
  if (posix_memalign(&memory, huge ? hugePage : smallAlignment, bytes) != 0)
  {
    return nullptr;
  }
#if defined(__linux__)
  if (huge)
  {
    madvise(memory, bytes, MADV_HUGEPAGE); // advice only
  }
#endif
  return memory;
}

} // namespace gpumesh
