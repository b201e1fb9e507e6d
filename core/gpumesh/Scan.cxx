#include "gpumesh/Scan.h"

#include <limits>

namespace gpumesh
{

namespace
{
constexpr std::size_t items = 8;

std::string options(std::size_t workGroupSize, const char* in, const char* out, bool staged)
{
  return "-DWG=" + std::to_string(workGroupSize) + " -DITEMS=" + std::to_string(items) +
    " -DIN_T=" + in + " -DSUM_T=ulong -DOUT_T=" + out + " -DSTAGED=" + (staged ? "1" : "0");
}

// Scans `values` (n elements of type `in`) into `out` and returns the total. Tile sums are
// scanned recursively as ulong until one tile remains.
template <typename In, typename Out>
std::uint64_t scanLevel(DeviceRun& run, const DeviceBuffer<In>& values, std::size_t n,
  DeviceBuffer<Out>& out, const char* inType, const char* outType, bool staged)
{
  const std::size_t workGroupSize = run.device().workGroupSize(256);
  const std::size_t tile = workGroupSize * items;
  const std::size_t tiles = (n + tile - 1) / tile;
  const std::string buildOptions = options(workGroupSize, inType, outType, staged);

  DeviceBuffer<cl_ulong> sums = run.allocate<cl_ulong>(tiles, "scan tile sums");
  cl::Kernel sumKernel = run.kernel("scan", "tile_sums", buildOptions);
  run.setArguments(sumKernel, values, static_cast<cl_ulong>(n), sums);
  run.launch(sumKernel, tiles * workGroupSize, "scan", workGroupSize);

  DeviceBuffer<cl_ulong> tileOffsets = run.allocate<cl_ulong>(tiles, "scan tile offsets");
  std::uint64_t total = 0;
  if (tiles == 1)
  {
    run.download(sums, &total, 1, "scan total");
    const cl_ulong zero = 0;
    run.fill(tileOffsets, zero, "scan tile offsets");
  }
  else
  {
    total = scanLevel<cl_ulong, cl_ulong>(run, sums, tiles, tileOffsets, "ulong", "ulong", staged);
  }

  cl::Kernel scanKernel = run.kernel("scan", "tile_scan", buildOptions);
  run.setArguments(scanKernel, values, static_cast<cl_ulong>(n), tileOffsets, out);
  run.launch(scanKernel, tiles * workGroupSize, "scan", workGroupSize);
  return total;
}
} // namespace

std::uint64_t exclusiveScan(DeviceRun& run, const DeviceBuffer<cl_uint>& counts, std::size_t n,
  DeviceBuffer<cl_uint>& offsets, const std::string& what, AccessPattern pattern)
{
  if (counts.size() < n || offsets.size() < n + 1)
  {
    throw Error("scanning " + std::to_string(n) + " counts of " + what + " needs " +
      std::to_string(n + 1) + " offsets");
  }
  std::uint64_t total = 0;
  if (n > 0)
  {
    const bool staged = !isContiguous(pattern, run.info().isGPU);
    total = scanLevel<cl_uint, cl_uint>(run, counts, n, offsets, "uint", "uint", staged);
  }
  if (total > static_cast<std::uint64_t>(std::numeric_limits<cl_int>::max()))
  {
    throw Error("The mesh needs " + std::to_string(total) + " " + what +
      ", more than the 2^31-1 that the device's 32-bit indices can address");
  }
  const cl_uint last = static_cast<cl_uint>(total);
  check(run.device().queue().enqueueWriteBuffer(offsets.handle(), CL_TRUE, n * sizeof(cl_uint),
          sizeof(cl_uint), &last),
    "writing the total of " + what);
  return total;
}

} // namespace gpumesh
