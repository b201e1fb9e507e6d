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
std::int64_t candidate(const Index* offsets, std::int64_t cells)
{
  const std::int64_t size = static_cast<std::int64_t>(offsets[1]) - static_cast<std::int64_t>(offsets[0]);
  if (offsets[0] != 0 || size <= 0 || size > INT64_MAX / cells ||
    static_cast<std::int64_t>(offsets[cells]) != size * cells)
    return 0;
  return size;
}

template <typename Index>
bool ofSize(const Index* offsets, std::int64_t size, std::int64_t first, std::int64_t last)
{
  bool same = true;
  for (std::int64_t i = first; i < last; ++i)
    same &= static_cast<std::int64_t>(offsets[i]) == size * i;
  return same;
}

template <typename Index>
std::int64_t uniformSize(const Index* offsets, std::int64_t cells)
{
  const std::int64_t size = candidate(offsets, cells);
  if (size == 0)
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
      if (!ofSize(offsets, size, begin, std::min(last, begin + block)))
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

std::int64_t uniformCellSizeCandidate(const CellSection& section)
{
  if (section.cellCount <= 0 || !section.offsets)
    return 0;
  return section.indices64 ? candidate(static_cast<const std::int64_t*>(section.offsets), section.cellCount)
                           : candidate(static_cast<const std::int32_t*>(section.offsets), section.cellCount);
}

bool offsetsOfSize(const CellSection& section, std::int64_t k, std::int64_t first, std::int64_t last)
{
  first = std::max<std::int64_t>(first, 0);
  last = std::min(last, section.cellCount + 1);
  return section.indices64 ? ofSize(static_cast<const std::int64_t*>(section.offsets), k, first, last)
                           : ofSize(static_cast<const std::int32_t*>(section.offsets), k, first, last);
}

} // namespace gpumesh
