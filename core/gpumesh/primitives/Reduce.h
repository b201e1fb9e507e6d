// Reductions of a device array of REAL values: min, max, sum, mean, L0, L1, L2 and Linf norms in
// one pass.
#pragma once
#include "gpumesh/runtime/AccessPattern.h"
#include "gpumesh/runtime/DeviceRun.h"

#include <cstdint>

namespace gpumesh
{

/// Statistics over the values that are not NaN. With no such value: count 0, minimum, maximum
/// and mean NaN, sum and every norm 0. The L2 norm is kept as normScale * sqrt(normScaledSquares)
/// (as BLAS nrm2 does), so it neither overflows nor underflows where the norm itself fits; the
/// Linf norm is normScale itself; L1 is a compensated sum of magnitudes (no cancellation, so
/// it is exact to the accumulator's rounding at any scale where the sum itself fits); L0 counts
/// the values that are neither zero nor NaN.
struct Statistics
{
  std::uint64_t count = 0;
  double minimum = 0.0;
  double maximum = 0.0;
  double sum = 0.0;
  double normScale = 0.0;         ///< the largest magnitude seen
  double normScaledSquares = 0.0; ///< the sum of (value / normScale)^2
  std::uint64_t nonZeros = 0;     ///< the L0 "norm": values neither zero nor NaN
  double absoluteSum = 0.0;       ///< the L1 norm: the sum of |value|
  double mean() const;
  double l0Norm() const { return static_cast<double>(nonZeros); }
  double l1Norm() const { return absoluteSum; }
  double l2Norm() const;
  double lInfNorm() const { return normScale; }
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
