// Reductions of every length against a double-precision CPU reference.
#include "gpumesh/primitives/Reduce.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

using namespace gpumesh;

namespace
{
struct Reference
{
  std::uint64_t count = 0;
  double minimum = std::numeric_limits<double>::infinity();
  double maximum = -std::numeric_limits<double>::infinity();
  double sum = 0.0;
  double sumOfSquares = 0.0;
  double sumOfMagnitudes = 0.0;
  std::uint64_t nonZeros = 0;
  double largestMagnitude = 0.0;
};

Reference reference(const std::vector<float>& values)
{
  Reference r;
  for (float v : values)
  {
    if (std::isnan(v))
    {
      continue;
    }
    ++r.count;
    r.minimum = std::min(r.minimum, double(v));
    r.maximum = std::max(r.maximum, double(v));
    r.sum += v;
    r.sumOfSquares += double(v) * double(v);
    r.sumOfMagnitudes += std::abs(double(v));
    r.nonZeros += v != 0.0f;
    r.largestMagnitude = std::max(r.largestMagnitude, std::abs(double(v)));
  }
  return r;
}

Statistics reduceOnDevice(const std::vector<float>& values, AccessPattern pattern = AccessPattern::Auto)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  RealBuffer buffer = run.uploadReal(values.data(), values.size(), "values");
  return reduceStatistics(run, buffer, values.size(), pattern);
}

std::vector<float> randomValues(std::size_t n, unsigned seed, float lo, float hi)
{
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(lo, hi);
  std::vector<float> values(n);
  for (auto& v : values)
  {
    v = distribution(generator);
  }
  return values;
}

void expectMatches(const std::vector<float>& values, double relative, AccessPattern pattern = AccessPattern::Auto)
{
  const Reference r = reference(values);
  const Statistics s = reduceOnDevice(values, pattern);
  ASSERT_EQ(s.count, r.count);
  EXPECT_EQ(s.minimum, r.minimum); // min and max of floats are exact
  EXPECT_EQ(s.maximum, r.maximum);
  // Signed sums are compared with the sum of magnitudes, the scale of their rounding error.
  EXPECT_LE(std::abs(s.sum - r.sum), relative * std::max(r.sumOfMagnitudes, 1e-30));
  EXPECT_LE(std::abs(s.mean() - r.sum / double(r.count)), relative * r.sumOfMagnitudes / double(r.count) + 1e-30);
  EXPECT_NEAR(s.l2Norm(), std::sqrt(r.sumOfSquares), relative * std::sqrt(r.sumOfSquares) + 1e-30);
  EXPECT_EQ(s.nonZeros, r.nonZeros);
  EXPECT_EQ(s.lInfNorm(), r.largestMagnitude); // a magnitude of a float: exact
  EXPECT_LE(std::abs(s.l1Norm() - r.sumOfMagnitudes), relative * std::max(r.sumOfMagnitudes, 1e-30));
}
} // namespace

// Sums in double and the L2 norm as a scaled sum of squares: values whose squares leave the
// range of the type still give their true norm, in either precision.
TEST(Reduce, HugeAndTinyValuesInBothPrecisions)
{
  for (const Precision precision : { Precision::Single, Precision::Double })
  {
    const double limit = precision == Precision::Single ? 1e37 : 1e307;
    for (const double value : { 1e30, 1e-30, 1e300, 1e-300 })
    {
      if (value > limit || value < 1.0 / limit)
        continue;
      std::vector<double> values;
      double sumOfRatios = 0.0;
      for (int i = 0; i < 1001; ++i)
      {
        values.push_back(value * (1 + i % 7));
        sumOfRatios += (1.0 + i % 7) * (1.0 + i % 7);
      }
      DeviceRun run(DeviceContext::acquire("auto"), precision);
      const RealBuffer buffer = run.uploadReal(values.data(), values.size(), "values");
      const Statistics s = reduceStatistics(run, buffer, values.size());
      const double tolerance = precision == Precision::Single ? 1e-6 : 1e-12;
      EXPECT_NEAR(s.l2Norm() / (value * std::sqrt(sumOfRatios)), 1.0, tolerance) << value;
      EXPECT_NEAR(s.sum / (value * 4004.0), 1.0, tolerance) << value; // 143 cycles of 1..7 = 28
      EXPECT_EQ(s.count, values.size());
      // The same values negated half the time: L1 is the sum of magnitudes, Linf the largest.
      std::vector<double> signed_(values);
      for (std::size_t i = 0; i < signed_.size(); i += 2)
        signed_[i] = -signed_[i];
      signed_[3] = 0.0; // value * 4, not counted by L0
      const RealBuffer signedBuffer = run.uploadReal(signed_.data(), signed_.size(), "values");
      const Statistics t = reduceStatistics(run, signedBuffer, signed_.size());
      EXPECT_NEAR(t.l1Norm() / (value * 4000.0), 1.0, tolerance) << value;
      EXPECT_NEAR(t.lInfNorm() / (value * 7.0), 1.0, tolerance) << value;
      EXPECT_EQ(t.nonZeros, signed_.size() - 1) << value;
    }
  }
}

// Every length with both access patterns, whatever the device (CPU and GPU code paths).
class ReduceLength : public ::testing::TestWithParam<std::tuple<std::size_t, AccessPattern>>
{
};

TEST_P(ReduceLength, MatchesDoubleReference)
{
  const std::size_t n = std::get<0>(GetParam());
  expectMatches(randomValues(n, 7u + unsigned(n), -3.0f, 5.0f), 1e-6, std::get<1>(GetParam()));
}

INSTANTIATE_TEST_SUITE_P(Lengths, ReduceLength,
  ::testing::Combine(::testing::Values(1, 2, 3, 4, 5, 255, 256, 257, 1000003),
    ::testing::Values(AccessPattern::Contiguous, AccessPattern::Strided)),
  [](const auto& info) {
    return "n" + std::to_string(std::get<0>(info.param)) +
      (std::get<1>(info.param) == AccessPattern::Contiguous ? "_contiguous" : "_strided");
  });

TEST(Reduce, EmptyArray)
{
  const Statistics s = reduceOnDevice({});
  EXPECT_EQ(s.count, 0u);
  EXPECT_TRUE(std::isnan(s.minimum));
  EXPECT_TRUE(std::isnan(s.maximum));
  EXPECT_TRUE(std::isnan(s.mean()));
  EXPECT_EQ(s.sum, 0.0);
  EXPECT_EQ(s.l2Norm(), 0.0);
  EXPECT_EQ(s.nonZeros, 0u);
  EXPECT_EQ(s.l1Norm(), 0.0);
  EXPECT_EQ(s.lInfNorm(), 0.0);
}

TEST(Reduce, TenMillionValuesSumTo1e6Relative)
{
  const auto values = randomValues(10000000, 2026u, 0.0f, 1.0f);
  const Reference r = reference(values);
  const Statistics s = reduceOnDevice(values);
  EXPECT_EQ(s.count, 10000000u);
  EXPECT_LE(std::abs(s.sum - r.sum) / r.sum, 1e-6) << "device " << s.sum << " double " << r.sum;
  EXPECT_LE(std::abs(s.l2Norm() - std::sqrt(r.sumOfSquares)) / std::sqrt(r.sumOfSquares), 1e-6);
}

TEST(Reduce, SkipsNaNAndKeepsInfinities)
{
  auto values = randomValues(10001, 3u, -1.0f, 1.0f);
  for (std::size_t i = 0; i < values.size(); i += 97)
  {
    values[i] = std::numeric_limits<float>::quiet_NaN();
  }
  expectMatches(values, 1e-6);

  expectMatches(values, 1e-6, AccessPattern::Strided);

  values[5] = std::numeric_limits<float>::infinity();
  const Statistics s = reduceOnDevice(values);
  EXPECT_EQ(s.maximum, std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.sum, std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.l1Norm(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.lInfNorm(), std::numeric_limits<double>::infinity());
  EXPECT_EQ(s.nonZeros, s.count); // random values are never exactly 0; NaN is not counted
}

// nrm2's scaled sum must not divide infinity by infinity: with two or more infinite values
// (of either sign) the L2 norm is infinite, not NaN, in both precisions, both access patterns,
// wherever the infinities fall (one work-item, one work-group, several work-groups).
TEST(Reduce, L2OfSeveralInfinitiesIsInfinite)
{
  const double inf = std::numeric_limits<double>::infinity();
  for (const Precision precision : { Precision::Single, Precision::Double })
  {
    for (const AccessPattern pattern : { AccessPattern::Contiguous, AccessPattern::Strided })
    {
      for (const std::vector<std::size_t>& at :
        std::vector<std::vector<std::size_t>>{ { 0, 1 }, { 3, 4, 5 }, { 7, 5000, 9999 }, { 1, 2, 3, 4, 5, 6, 7, 8 } })
      {
        std::vector<double> values(10001, 0.5);
        for (std::size_t k = 0; k < at.size(); ++k)
        {
          values[at[k]] = k % 2 ? -inf : inf;
        }
        DeviceRun run(DeviceContext::acquire("auto"), precision);
        const RealBuffer buffer = run.uploadReal(values.data(), values.size(), "values");
        const Statistics s = reduceStatistics(run, buffer, values.size(), pattern);
        EXPECT_EQ(s.l2Norm(), inf) << at.size() << " infinities from " << at.front()
                                   << (precision == Precision::Single ? ", single" : ", double");
        EXPECT_EQ(s.count, values.size());
        EXPECT_EQ(s.l1Norm(), inf);
        EXPECT_EQ(s.lInfNorm(), inf);
      }
    }
  }
}

TEST(Reduce, AllNaNCountsNothing)
{
  const Statistics s = reduceOnDevice(std::vector<float>(300, std::numeric_limits<float>::quiet_NaN()));
  EXPECT_EQ(s.count, 0u);
  EXPECT_TRUE(std::isnan(s.minimum));
}

TEST(Reduce, PrefixOfALargerBuffer)
{
  const auto values = randomValues(1000, 11u, 0.0f, 1.0f);
  DeviceRun run(DeviceContext::acquire("auto"));
  RealBuffer buffer = run.uploadReal(values.data(), values.size(), "values");
  const Statistics s = reduceStatistics(run, buffer, 257);
  const Reference r = reference(std::vector<float>(values.begin(), values.begin() + 257));
  EXPECT_EQ(s.count, 257u);
  EXPECT_NEAR(s.sum, r.sum, 1e-6 * r.sum);
  EXPECT_THROW(reduceStatistics(run, buffer, 1001), Error);
}
