#include "gpumesh/primitives/Reduce.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace gpumesh
{

double Statistics::mean() const
{
  return count ? sum / static_cast<double>(count) : std::numeric_limits<double>::quiet_NaN();
}

double Statistics::l2Norm() const
{
  return normScale * std::sqrt(normScaledSquares);
}

void Statistics::merge(const Statistics& other)
{
  if (other.count == 0)
  {
    return;
  }
  minimum = count ? std::min(minimum, other.minimum) : other.minimum;
  maximum = count ? std::max(maximum, other.maximum) : other.maximum;
  sum += other.sum;
  absoluteSum += other.absoluteSum;
  nonZeros += other.nonZeros;
  if (other.normScale > normScale)
  {
    const double r = normScale / other.normScale;
    normScaledSquares = other.normScaledSquares + normScaledSquares * r * r;
    normScale = other.normScale;
  }
  else if (other.normScale > 0.0)
  {
    // Equal scales (both infinite included: not inf / inf) add their sums as they are.
    const double r = other.normScale == normScale ? 1.0 : other.normScale / normScale;
    normScaledSquares += other.normScaledSquares * r * r;
  }
  count += other.count;
}

namespace
{
// Enough groups to keep every compute unit busy; more would only add partials.
std::size_t groupCount(const DeviceInfo& info, std::size_t count, std::size_t workGroupSize)
{
  const std::size_t groupsPerUnit = info.isGPU ? 16 : 2;
  const std::size_t wanted = static_cast<std::size_t>(std::max(info.computeUnits, 1)) * groupsPerUnit;
  const std::size_t needed = (count + workGroupSize - 1) / workGroupSize;
  return std::max<std::size_t>(1, std::min(wanted, needed));
}

// hi + lo without turning an infinite sum into NaN (inf - inf in the error term).
double combine(double hi, double lo)
{
  return std::isfinite(hi) ? hi + lo : hi;
}

// The partials as (x, y) pairs in double, whatever the accumulator type.
template <typename Pair>
std::vector<std::array<double, 2>> downloadPairs(DeviceRun& run, const DeviceBuffer<Pair>& buffer, std::size_t n)
{
  std::vector<Pair> host(n);
  run.download(buffer, host.data(), n, "reduction partials");
  std::vector<std::array<double, 2>> pairs(n);
  for (std::size_t i = 0; i < n; ++i)
    pairs[i] = { static_cast<double>(host[i].s[0]), static_cast<double>(host[i].s[1]) };
  return pairs;
}

template <typename Pair>
Statistics reduceWith(DeviceRun& run, const RealBuffer& values, std::size_t count, AccessPattern pattern,
  const std::string& accumulator)
{
  const std::size_t workGroupSize = run.device().workGroupSize(256);
  const std::size_t groups = groupCount(run.info(), count, workGroupSize);
  auto minMax = run.allocate<Pair>(groups, "reduction min/max partials");
  auto sums = run.allocate<Pair>(groups, "reduction sum partials");
  auto norms = run.allocate<Pair>(groups, "reduction norm partials");
  auto counts = run.allocate<cl_ulong>(groups, "reduction count partials");
  auto absoluteSums = run.allocate<Pair>(groups, "reduction L1 partials");
  auto nonZeros = run.allocate<cl_ulong>(groups, "reduction L0 partials");
  const bool contiguous = isContiguous(pattern, run.info().isGPU);
  const std::string options = "-DWG=" + std::to_string(workGroupSize) +
    " -DCONTIGUOUS=" + (contiguous ? "1" : "0") + " " + accumulator;
  run.call({ "reduce", "reduce_statistics", options }, { groups * workGroupSize, workGroupSize }, "reduce",
    values, static_cast<cl_ulong>(count), minMax, sums, norms, counts, absoluteSums, nonZeros);

  const auto hostMinMax = downloadPairs(run, minMax, groups);
  const auto hostSums = downloadPairs(run, sums, groups);
  const auto hostNorms = downloadPairs(run, norms, groups);
  std::vector<cl_ulong> hostCounts(groups);
  run.download(counts, hostCounts.data(), groups, "reduction partials");
  const auto hostAbsoluteSums = downloadPairs(run, absoluteSums, groups);
  std::vector<cl_ulong> hostNonZeros(groups);
  run.download(nonZeros, hostNonZeros.data(), groups, "reduction partials");
  Statistics result;
  result.minimum = result.maximum = std::numeric_limits<double>::quiet_NaN();
  for (std::size_t g = 0; g < groups; ++g)
  {
    Statistics partial;
    partial.count = hostCounts[g];
    partial.minimum = hostMinMax[g][0];
    partial.maximum = hostMinMax[g][1];
    partial.sum = combine(hostSums[g][0], hostSums[g][1]);
    partial.normScale = hostNorms[g][0];
    partial.normScaledSquares = hostNorms[g][1];
    partial.absoluteSum = combine(hostAbsoluteSums[g][0], hostAbsoluteSums[g][1]);
    partial.nonZeros = hostNonZeros[g];
    result.merge(partial);
  }
  return result;
}
} // namespace

Statistics reduceStatistics(DeviceRun& run, const RealBuffer& values, std::size_t count, AccessPattern pattern)
{
  if (count > values.size())
  {
    throw Error("reducing " + std::to_string(count) + " values of an array of " +
      std::to_string(values.size()));
  }
  if (count == 0)
  {
    Statistics empty;
    empty.minimum = empty.maximum = std::numeric_limits<double>::quiet_NaN();
    return empty;
  }
  // Sums and squares in double wherever the device can.
  if (run.info().hasDoublePrecision)
  {
    return reduceWith<cl_double2>(run, values, count, pattern, "-DACC_DOUBLE=1");
  }
  return reduceWith<cl_float2>(run, values, count, pattern, "-DACC_DOUBLE=0");
}

} // namespace gpumesh
