#include "gpumesh/mesh/UniformCellSize.h"

#include "gpumesh/runtime/HostThreadPool.h"
#include "gpumesh/runtime/HostThreads.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <vector>

namespace gpumesh
{

namespace
{
template <typename Index>
std::int64_t uniformSize(const Index* offsets, std::int64_t cells)
{
  const std::int64_t size = static_cast<std::int64_t>(offsets[1]) - static_cast<std::int64_t>(offsets[0]);
  if (offsets[0] != 0 || size <= 0 || size > INT64_MAX / cells)
    return 0;
  // Blocks of this many offsets between looks at whether another thread found a difference.
  constexpr std::int64_t block = 1 << 16;
  const std::int64_t entries = cells + 1;
  const auto threads = std::min<std::int64_t>(hostThreads(), (entries + block - 1) / block);
  std::atomic<bool> differs{ false };
  const auto check = [&](std::int64_t part) {
    const std::int64_t first = entries * part / threads;
    const std::int64_t last = entries * (part + 1) / threads;
    for (std::int64_t begin = first; begin < last && !differs.load(std::memory_order_relaxed); begin += block)
    {
      const std::int64_t end = std::min(last, begin + block);
      bool same = true;
      for (std::int64_t i = begin; i < end; ++i)
        same &= static_cast<std::int64_t>(offsets[i]) == size * i;
      if (!same)
        differs.store(true, std::memory_order_relaxed);
    }
  };
  parallelFor(0, threads, 1, static_cast<unsigned>(threads), [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t part = first; part < last; ++part)
      check(part);
  });
  return differs ? 0 : size;
}
} // namespace

std::int64_t uniformCellSize(const CellSection& section)
{
  if (section.cellCount <= 0 || !section.offsets)
    return 0;
  return section.indices64 ? uniformSize(static_cast<const std::int64_t*>(section.offsets), section.cellCount)
                           : uniformSize(static_cast<const std::int32_t*>(section.offsets), section.cellCount);
}

} // namespace gpumesh
