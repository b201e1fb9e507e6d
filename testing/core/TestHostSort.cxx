// gpumesh::parallelSort: the order std::sort gives, for any size, thread count and comparator.
#include "gpumesh/runtime/HostSort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <utility>
#include <vector>

TEST(HostSort, OrdersAsStdSortAtAnySizeAndThreadCount)
{
  std::mt19937_64 random(7);
  for (std::size_t size : { 0, 1, 1000, 16384, 40000, 100000, 300001 })
  {
    // Many repeated keys (faces shared by two cells, as the interface tables hold).
    std::vector<std::array<std::int32_t, 3>> values(size);
    for (auto& value : values)
      value = { static_cast<std::int32_t>(random() % 5000), static_cast<std::int32_t>(random() % 7),
        static_cast<std::int32_t>(random() % 3) };
    std::vector<std::array<std::int32_t, 3>> expected(values);
    std::sort(expected.begin(), expected.end());
    for (unsigned threads : { 1u, 2u, 3u, 8u, 16u })
    {
      std::vector<std::array<std::int32_t, 3>> sorted(values);
      gpumesh::parallelSort(sorted, threads);
      EXPECT_EQ(sorted, expected) << size << " values on " << threads << " threads";
    }
  }
}

TEST(HostSort, TakesAComparator)
{
  std::mt19937_64 random(11);
  // (key, index) pairs ordered by key, then index descending: a total order, so one result.
  std::vector<std::pair<std::int64_t, std::size_t>> values(123457);
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = { static_cast<std::int64_t>(random() % 1000) - 500, i };
  const auto less = [](const auto& a, const auto& b) { return a.first != b.first ? a.first < b.first : a.second > b.second; };
  std::vector<std::pair<std::int64_t, std::size_t>> expected(values);
  std::sort(expected.begin(), expected.end(), less);
  gpumesh::parallelSort(values, less, 6);
  EXPECT_EQ(values, expected);
}
