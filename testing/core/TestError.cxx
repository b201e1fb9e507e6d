// Numbers in error messages: the shortest form that reads back as the same double.
#include "gpumesh/runtime/Error.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <limits>

using gpumesh::formatNumber;

TEST(Error, NumbersAreWrittenInTheirShortestForm)
{
  EXPECT_EQ(formatNumber(1e300), "1e+300");
  EXPECT_EQ(formatNumber(-1e300), "-1e+300");
  EXPECT_EQ(formatNumber(0.1), "0.1");
  EXPECT_EQ(formatNumber(0.5), "0.5");
  EXPECT_EQ(formatNumber(3.0), "3");
  EXPECT_EQ(formatNumber(0.0), "0");
  EXPECT_EQ(formatNumber(2.5e-7), "2.5e-07");
  EXPECT_EQ(formatNumber(HUGE_VAL), "inf");
  EXPECT_EQ(formatNumber(-HUGE_VAL), "-inf");
  EXPECT_EQ(formatNumber(std::nan("")), "nan");
  EXPECT_EQ(formatNumber(-std::nan("")), "nan");
  // Nothing is lost: the text reads back as the same double.
  for (const double value : { 1.0 / 3.0, std::numeric_limits<double>::max(),
         std::numeric_limits<double>::denorm_min(), 123456789.123456789, -4.9406564584124654e-324 })
  {
    EXPECT_EQ(std::strtod(formatNumber(value).c_str(), nullptr), value) << formatNumber(value);
  }
}
