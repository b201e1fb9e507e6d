#include "gpumesh/primitives/RadixSort.h"

#include "gpumesh/primitives/Scan.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace gpumesh
{

namespace
{
constexpr unsigned digitBits = 4;
constexpr std::size_t bins = std::size_t(1) << digitBits;

// A tile of 2048 elements per work-group. GPUs: 256 work-items of 8 elements; CPUs, where
// a work-group is a loop on one core, fewer work-items of more elements (fewer barriers).
std::size_t itemsPerWorkItem(DeviceRun& run)
{
  return run.info().isGPU ? 8 : 32;
}
} // namespace

unsigned bitWidth(std::uint64_t maximum)
{
  unsigned bits = 0;
  while (bits < 64 && (maximum >> bits) != 0)
  {
    ++bits;
  }
  return bits;
}

void sortByKey(DeviceRun& run, DeviceBuffer<cl_ulong>& keys, DeviceBuffer<cl_uint>& values,
  std::size_t count, unsigned keyBits, const std::string& what)
{
  if (keys.size() < count || values.size() < count)
  {
    throw Error("sorting " + std::to_string(count) + " " + what + " in buffers of " +
      std::to_string(keys.size()) + " keys and " + std::to_string(values.size()) + " values");
  }
  if (count > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()))
  {
    throw Error("sorting " + std::to_string(count) + " " + what +
      ": the device sort takes at most 2^31-1 elements");
  }
  keyBits = std::min(keyBits, 64u);
  if (count < 2 || keyBits == 0)
  {
    return;
  }
  const std::size_t items = itemsPerWorkItem(run);
  const std::size_t workGroupSize = run.device().workGroupSize(2048 / items);
  const std::size_t tile = workGroupSize * items;
  const std::size_t groups = (count + tile - 1) / tile;
  const std::string options = "-DWG=" + std::to_string(workGroupSize) +
    " -DITEMS=" + std::to_string(items) + " -DBITS=" + std::to_string(digitBits);

  DeviceBuffer<cl_ulong> keysOut = run.allocate<cl_ulong>(count, what + " keys (sort buffer)");
  DeviceBuffer<cl_uint> valuesOut = run.allocate<cl_uint>(count, what + " values (sort buffer)");
  DeviceBuffer<cl_uint> counts = run.allocate<cl_uint>(bins * groups, what + " digit counts");
  DeviceBuffer<cl_uint> offsets = run.allocate<cl_uint>(bins * groups + 1, what + " digit offsets");
  const auto n = static_cast<cl_uint>(count);
  // Per pass: the keys (and values) ping-pong, the digit's shift and mask change.
  BoundKernel countDigits = run.bind({ "radix_sort", "count_digits", options }, 3, n, counts);
  BoundKernel scatterDigits = run.bind({ "radix_sort", "scatter_digits", options }, 6, n, offsets);
  const LaunchRange range{ groups * workGroupSize, workGroupSize };
  for (unsigned shift = 0; shift < keyBits; shift += digitBits)
  {
    const cl_uint mask = (1u << std::min(digitBits, keyBits - shift)) - 1;
    run.call(countDigits, range, "radix sort count", keys, cl_uint(shift), mask);
    exclusiveScan(run, counts, bins * groups, offsets, what);
    run.call(scatterDigits, range, "radix sort scatter", keys, values, keysOut, valuesOut, cl_uint(shift), mask);
    std::swap(keys, keysOut);
    std::swap(values, valuesOut);
  }
}

} // namespace gpumesh
