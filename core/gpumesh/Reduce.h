// Reductions of a device array of floats: min, max, sum, mean, L2 norm in one pass.
#pragma once
#include "gpumesh/AccessPattern.h"
#include "gpumesh/DeviceRun.h"

#include <cstdint>

namespace gpumesh
{

/// Statistics over the values that are not NaN. With no such value: count 0, minimum, maximum
/// and mean NaN, sum and L2 norm 0.
struct Statistics
{
  std::uint64_t count = 0;
  double minimum = 0.0;
  double maximum = 0.0;
  double sum = 0.0;
  double sumOfSquares = 0.0;
  double mean() const;
  double l2Norm() const;
};

/// Reduces the first `count` elements of `values` (any length, 0 included). `pattern`:
/// contiguous chunks per work-item, or a grid stride of 16-byte vectors. Accumulates in
/// compensated single precision on the device and combines the work-group partials in double
/// on the host: the sum of 10^7 values agrees with a double sum to about 1e-7.
Statistics reduceStatistics(DeviceRun& run, const DeviceBuffer<float>& values, std::size_t count,
  AccessPattern pattern = AccessPattern::Auto);

} // namespace gpumesh
