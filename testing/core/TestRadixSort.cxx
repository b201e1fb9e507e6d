// The device radix sort against std::stable_sort of the same pairs.
#include "gpumesh/primitives/RadixSort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

using namespace gpumesh;

namespace
{
// Sorts (keys[i], i) on the device by the low `bits` bits and checks keys and values against
// std::stable_sort of the same pairs by the same bits.
void expectStableSort(const std::vector<cl_ulong>& keys, unsigned bits)
{
  const std::size_t n = keys.size();
  std::vector<cl_uint> values(n);
  std::iota(values.begin(), values.end(), 0u);
  const cl_ulong mask = bits >= 64 ? ~cl_ulong(0) : (cl_ulong(1) << bits) - 1;
  std::vector<cl_uint> expected = values;
  std::stable_sort(expected.begin(), expected.end(),
    [&](cl_uint a, cl_uint b) { return (keys[a] & mask) < (keys[b] & mask); });

  DeviceRun run(DeviceContext::acquire("auto"));
  auto deviceKeys = run.upload(keys.data(), n, "keys");
  auto deviceValues = run.upload(values.data(), n, "values");
  sortByKey(run, deviceKeys, deviceValues, n, bits, "test pairs");
  std::vector<cl_ulong> sortedKeys(n);
  std::vector<cl_uint> sortedValues(n);
  run.download(deviceKeys, sortedKeys.data(), n, "keys");
  run.download(deviceValues, sortedValues.data(), n, "values");
  for (std::size_t i = 0; i < n; ++i)
  {
    ASSERT_EQ(sortedValues[i], expected[i]) << "position " << i << " of " << n << ", " << bits << " bits";
    ASSERT_EQ(sortedKeys[i], keys[expected[i]]) << "position " << i; // keys travel whole
  }
}

std::vector<cl_ulong> randomKeys(std::size_t n, cl_ulong distinct, unsigned seed)
{
  std::mt19937_64 generator(seed);
  std::uniform_int_distribution<cl_ulong> distribution(0, distinct - 1);
  std::vector<cl_ulong> keys(n);
  for (auto& k : keys)
    k = distribution(generator);
  return keys;
}
} // namespace

// Lengths: empty, one, one below / at / above a tile (2048 with 256-wide groups), several
// tiles with a partial last one, and a length that is no multiple of any work-group.
// Bits: one partial digit, an odd count, a whole 64-bit key.
class RadixSortLength : public ::testing::TestWithParam<std::tuple<std::size_t, unsigned>>
{
};

TEST_P(RadixSortLength, MatchesStableSortWithManyDuplicates)
{
  const auto [n, bits] = GetParam();
  // Few distinct keys: long runs of equal keys, whose order only a stable sort keeps.
  expectStableSort(randomKeys(n, 37, static_cast<unsigned>(n + bits)), bits);
}

TEST_P(RadixSortLength, MatchesStableSortWithWideKeys)
{
  const auto [n, bits] = GetParam();
  expectStableSort(randomKeys(n, ~cl_ulong(0), static_cast<unsigned>(3 * n + bits)), bits);
}

INSTANTIATE_TEST_SUITE_P(Lengths, RadixSortLength,
  ::testing::Combine(::testing::Values(std::size_t(0), std::size_t(1), std::size_t(2047), std::size_t(2048),
                       std::size_t(2049), std::size_t(70001)),
    ::testing::Values(3u, 37u, 64u)));

TEST(RadixSort, SortedAndReversedInputs)
{
  std::vector<cl_ulong> keys(10000);
  std::iota(keys.begin(), keys.end(), cl_ulong(5));
  expectStableSort(keys, 14);
  std::reverse(keys.begin(), keys.end());
  expectStableSort(keys, 14);
}

TEST(RadixSort, BitWidthHoldsTheMaximum)
{
  EXPECT_EQ(bitWidth(0), 0u);
  EXPECT_EQ(bitWidth(1), 1u);
  EXPECT_EQ(bitWidth(16384), 15u);
  EXPECT_EQ(bitWidth(16383), 14u);
  EXPECT_EQ(bitWidth(~std::uint64_t(0)), 64u);
}

TEST(RadixSort, ShortBuffersAreAnError)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  auto keys = run.allocate<cl_ulong>(10, "keys");
  auto values = run.allocate<cl_uint>(9, "values");
  EXPECT_THROW(sortByKey(run, keys, values, 10, 8, "pairs"), Error);
}
