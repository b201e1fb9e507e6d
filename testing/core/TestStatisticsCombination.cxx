// Per-process statistics merged in rank order into global ones (GPU Cell Reduction under MPI).
#include "gpumesh/primitives/Reduce.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace gpumesh;

namespace
{
Statistics of(const std::vector<double>& values)
{
  Statistics s;
  s.minimum = s.maximum = std::numeric_limits<double>::quiet_NaN();
  for (double v : values)
  {
    s.minimum = s.count ? std::min(s.minimum, v) : v;
    s.maximum = s.count ? std::max(s.maximum, v) : v;
    s.sum += v;
    const double magnitude = std::fabs(v);
    s.absoluteSum += magnitude;
    s.nonZeros += v != 0.0;
    if (magnitude > s.normScale)
    {
      s.normScaledSquares = 1.0 + s.normScaledSquares * (s.normScale / magnitude) * (s.normScale / magnitude);
      s.normScale = magnitude;
    }
    else if (magnitude > 0.0)
    {
      s.normScaledSquares += (magnitude / s.normScale) * (magnitude / s.normScale);
    }
    ++s.count;
  }
  return s;
}

// What AllReduceStatistics does with the gathered pieces.
Statistics combineStatistics(const std::vector<Statistics>& parts)
{
  Statistics total;
  total.minimum = total.maximum = std::numeric_limits<double>::quiet_NaN();
  for (const Statistics& part : parts)
  {
    total.merge(part);
  }
  return total;
}
} // namespace

TEST(StatisticsCombination, PiecesGiveTheStatisticsOfTheWhole)
{
  const Statistics whole = of({ 3, -1, 4, 0, 1, -5, 9, 2, 6 });
  const Statistics combined = combineStatistics({ of({ 3, -1, 4, 0 }), of({ 1, -5 }), of({ 9, 2, 6 }) });
  EXPECT_EQ(combined.count, whole.count);
  EXPECT_EQ(combined.minimum, -5);
  EXPECT_EQ(combined.maximum, 9);
  EXPECT_DOUBLE_EQ(combined.sum, whole.sum);
  EXPECT_DOUBLE_EQ(combined.mean(), whole.mean());
  EXPECT_DOUBLE_EQ(combined.l2Norm(), whole.l2Norm());
  EXPECT_EQ(combined.nonZeros, 8u);
  EXPECT_EQ(combined.l1Norm(), 31.0);
  EXPECT_EQ(combined.lInfNorm(), 9.0);
}

TEST(StatisticsCombination, EmptyPiecesAddNothingAndPutNoNaNIntoTheResult)
{
  const Statistics combined = combineStatistics({ of({}), of({ 2, 7 }), of({}) });
  EXPECT_EQ(combined.count, 2u);
  EXPECT_EQ(combined.minimum, 2);
  EXPECT_EQ(combined.maximum, 7);
  EXPECT_FALSE(std::isnan(combined.mean()));
  const Statistics nothing = combineStatistics({ of({}), of({}) });
  EXPECT_EQ(nothing.count, 0u);
  EXPECT_TRUE(std::isnan(nothing.minimum));
  EXPECT_EQ(nothing.sum, 0.0);
}

TEST(StatisticsCombination, PiecesWithInfiniteValuesGiveAnInfiniteNorm)
{
  const double inf = std::numeric_limits<double>::infinity();
  const Statistics total = combineStatistics({ of({ 1.0, inf }), of({ -inf, 2.0 }),
    of({ 3.0 }) });
  EXPECT_EQ(total.l2Norm(), inf);
  EXPECT_EQ(total.l1Norm(), inf);
  EXPECT_EQ(total.lInfNorm(), inf);
  EXPECT_EQ(total.count, 5u);
}

TEST(StatisticsCombination, SquaresOfTheLargestDoublesDoNotOverflow)
{
  const double big = std::numeric_limits<double>::max() / 4;
  std::vector<Statistics> parts(4, of({ big, -big }));
  const Statistics combined = combineStatistics(parts);
  EXPECT_TRUE(std::isfinite(combined.l2Norm()));
  EXPECT_NEAR(combined.l2Norm() / big, std::sqrt(8.0), 1e-12);
}
