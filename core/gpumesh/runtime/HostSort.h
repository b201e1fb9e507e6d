// Sorting host vectors on the host pool's threads (HostThreadPool): the interface tables of a
// distributed piece hold hundreds of thousands of entries (a 10M-tetrahedron box on 4
// processes: 340,000 faces a process), which std::sort orders on one thread in tens of
// milliseconds while the other cores wait.
#pragma once
#include "gpumesh/runtime/HostThreadPool.h"

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpumesh
{

/// Sorts `values` by `less` as std::sort does (an equal pair may come out in either order) on
/// up to `threads` threads: blocks sorted at once, then merged pairwise, round after round,
/// through a second vector as large. Below about 32,768 values (or on one thread) std::sort.
template <typename T, typename Allocator, typename Less>
void parallelSort(std::vector<T, Allocator>& values, Less less, unsigned threads)
{
  constexpr std::size_t smallest = std::size_t(1) << 15; // fewer: one thread is as fast
  const std::size_t count = values.size();
  const std::size_t blocks = std::min<std::size_t>(threads, count / (smallest / 2));
  if (blocks < 2)
  {
    std::sort(values.begin(), values.end(), less);
    return;
  }
  // Block b holds [start[b], start[b + 1]).
  std::vector<std::size_t> start(blocks + 1);
  for (std::size_t b = 0; b <= blocks; ++b)
    start[b] = count * b / blocks;
  parallelFor(0, static_cast<std::int64_t>(blocks), 1, threads, [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t b = first; b < last; ++b)
      std::sort(values.begin() + static_cast<std::ptrdiff_t>(start[b]),
        values.begin() + static_cast<std::ptrdiff_t>(start[b + 1]), less);
  });
  // Runs of `width` blocks merged in pairs into the other vector until one run is left.
  std::vector<T, Allocator> other(count);
  std::vector<T, Allocator>* from = &values;
  std::vector<T, Allocator>* to = &other;
  for (std::size_t width = 1; width < blocks; width *= 2)
  {
    const std::size_t pairs = (blocks + 2 * width - 1) / (2 * width);
    parallelFor(0, static_cast<std::int64_t>(pairs), 1, threads, [&](std::int64_t first, std::int64_t last) {
      for (std::int64_t p = first; p < last; ++p)
      {
        const std::size_t a = start[std::min(blocks, 2 * width * static_cast<std::size_t>(p))];
        const std::size_t b = start[std::min(blocks, 2 * width * static_cast<std::size_t>(p) + width)];
        const std::size_t c = start[std::min(blocks, 2 * width * static_cast<std::size_t>(p) + 2 * width)];
        const auto in = from->begin();
        std::merge(std::make_move_iterator(in + static_cast<std::ptrdiff_t>(a)),
          std::make_move_iterator(in + static_cast<std::ptrdiff_t>(b)),
          std::make_move_iterator(in + static_cast<std::ptrdiff_t>(b)),
          std::make_move_iterator(in + static_cast<std::ptrdiff_t>(c)),
          to->begin() + static_cast<std::ptrdiff_t>(a), less);
      }
    });
    std::swap(from, to);
  }
  if (from != &values)
    values.swap(other);
}

/// parallelSort by operator<.
template <typename T, typename Allocator>
void parallelSort(std::vector<T, Allocator>& values, unsigned threads)
{
  parallelSort(values, [](const T& a, const T& b) { return a < b; }, threads);
}

} // namespace gpumesh
