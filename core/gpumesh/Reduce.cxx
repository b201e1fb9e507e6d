#include "gpumesh/Reduce.h"

#include <algorithm>
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
  return std::sqrt(sumOfSquares);
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
double combine(float hi, float lo)
{
  return std::isfinite(hi) ? static_cast<double>(hi) + static_cast<double>(lo) : static_cast<double>(hi);
}
} // namespace

Statistics reduceStatistics(
  DeviceRun& run, const DeviceBuffer<float>& values, std::size_t count, AccessPattern pattern)
{
  if (count > values.size())
  {
    throw Error("reducing " + std::to_string(count) + " values of an array of " +
      std::to_string(values.size()));
  }
  Statistics result;
  result.minimum = result.maximum = std::numeric_limits<double>::quiet_NaN();
  if (count == 0)
  {
    return result;
  }
  const std::size_t workGroupSize = run.device().workGroupSize(256);
  const std::size_t groups = groupCount(run.info(), count, workGroupSize);
  auto minMax = run.allocate<cl_float2>(groups, "reduction min/max partials");
  auto sums = run.allocate<cl_float4>(groups, "reduction sum partials");
  auto counts = run.allocate<cl_ulong>(groups, "reduction count partials");
  const bool contiguous = isContiguous(pattern, run.info().isGPU);
  const std::string options =
    "-DWG=" + std::to_string(workGroupSize) + " -DCONTIGUOUS=" + (contiguous ? "1" : "0");
  cl::Kernel kernel = run.kernel("reduce", "reduce_statistics", options);
  run.setArguments(kernel, values, static_cast<cl_ulong>(count), minMax, sums, counts);
  run.launch(kernel, groups * workGroupSize, "reduce", workGroupSize);

  std::vector<cl_float2> hostMinMax(groups);
  std::vector<cl_float4> hostSums(groups);
  std::vector<cl_ulong> hostCounts(groups);
  run.download(minMax, hostMinMax.data(), groups, "reduction partials");
  run.download(sums, hostSums.data(), groups, "reduction partials");
  run.download(counts, hostCounts.data(), groups, "reduction partials");
  for (std::size_t g = 0; g < groups; ++g)
  {
    if (hostCounts[g] == 0)
    {
      continue;
    }
    const double lo = hostMinMax[g].s[0];
    const double hi = hostMinMax[g].s[1];
    result.minimum = result.count ? std::min(result.minimum, lo) : lo;
    result.maximum = result.count ? std::max(result.maximum, hi) : hi;
    result.sum += combine(hostSums[g].s[0], hostSums[g].s[1]);
    result.sumOfSquares += combine(hostSums[g].s[2], hostSums[g].s[3]);
    result.count += hostCounts[g];
  }
  return result;
}

} // namespace gpumesh
