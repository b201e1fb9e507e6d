// Reductions of a device array of REAL values: min, max, sum, mean, L2 norm in one pass.
#pragma once
#include "gpumesh/runtime/AccessPattern.h"
#include "gpumesh/runtime/DeviceRun.h"

#include <cstdint>

namespace gpumesh
{

/// Statistics over the values that are not NaN. With no such value: count 0, minimum, maximum
/// and mean NaN, sum and L2 norm 0. The L2 norm is kept as normScale * sqrt(normScaledSquares)
/// (as BLAS nrm2 does), so it neither overflows nor underflows where the norm itself fits.
struct Statistics
{
  std::uint64_t count = 0;
  double minimum = 0.0;
  double maximum = 0.0;
  double sum = 0.0;
  double normScale = 0.0;         ///< the largest magnitude seen
  double normScaledSquares = 0.0; ///< the sum of (value / normScale)^2
  double mean() const;
  double l2Norm() const;
  /// Adds the statistics of other values (partials of one array, pieces of a distributed one).
  void merge(const Statistics& other);
};

/// Reduces the first `count` elements of `values` (any length, 0 included). `pattern`:
/// contiguous chunks per work-item, or a grid stride of vectors. Accumulates on the device in
/// double where it has fp64, else in compensated single precision, and combines the work-group
/// partials in double on the host.
Statistics reduceStatistics(DeviceRun& run, const RealBuffer& values, std::size_t count,
  AccessPattern pattern = AccessPattern::Auto);

} // namespace gpumesh
