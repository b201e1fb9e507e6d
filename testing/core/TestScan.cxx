// Exclusive scans of every length against a CPU prefix sum.
#include "gpumesh/primitives/Scan.h"

#include <gtest/gtest.h>

#include <random>

using namespace gpumesh;

// Every length with both kernels (direct and staged through local memory), on any device.
class ScanLength : public ::testing::TestWithParam<std::tuple<std::size_t, AccessPattern>>
{
};

TEST_P(ScanLength, MatchesCpuPrefixSum)
{
  const std::size_t n = std::get<0>(GetParam());
  std::mt19937 generator(static_cast<unsigned>(n));
  std::uniform_int_distribution<cl_uint> distribution(0, 20);
  std::vector<cl_uint> counts(n);
  for (auto& c : counts)
    c = distribution(generator);
  DeviceRun run(DeviceContext::acquire("auto"));
  auto deviceCounts = run.upload(counts.data(), n, "counts");
  auto offsets = run.allocate<cl_uint>(n + 1, "offsets");
  const std::uint64_t total = exclusiveScan(run, deviceCounts, n, offsets, "entries", std::get<1>(GetParam()));
  std::vector<cl_uint> result(n + 1, 12345u);
  run.download(offsets, result.data(), n + 1, "offsets");
  std::uint64_t expected = 0;
  for (std::size_t i = 0; i < n; ++i)
  {
    ASSERT_EQ(result[i], expected) << "at " << i;
    expected += counts[i];
  }
  EXPECT_EQ(result[n], expected);
  EXPECT_EQ(total, expected);
}

// Tiles (Strided, 2048 elements with 256-wide groups): 1 tile, exactly 1, 2 levels, 3 levels of
// recursion. Chunks (Contiguous, 16384 elements): 1 chunk, exactly 1, one more, 2 levels.
INSTANTIATE_TEST_SUITE_P(Lengths, ScanLength,
  ::testing::Combine(::testing::Values(0, 1, 2, 255, 2047, 2048, 2049, 16384, 16385, 100003, 5000011),
    ::testing::Values(AccessPattern::Contiguous, AccessPattern::Strided)),
  [](const auto& info) {
    return "n" + std::to_string(std::get<0>(info.param)) +
      (std::get<1>(info.param) == AccessPattern::Contiguous ? "_chunked" : "_tiled");
  });

TEST(Scan, TotalBeyondInt32IsAnError)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  std::vector<cl_uint> counts(3, 1u << 30);
  auto deviceCounts = run.upload(counts.data(), counts.size(), "counts");
  auto offsets = run.allocate<cl_uint>(4, "offsets");
  try
  {
    exclusiveScan(run, deviceCounts, counts.size(), offsets, "neighbour slots");
    FAIL() << "an overflowing total was accepted";
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("neighbour slots"), std::string::npos);
  }
}
