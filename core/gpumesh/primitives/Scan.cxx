#include "gpumesh/primitives/Scan.h"

#include <limits>

namespace gpumesh
{

namespace
{
constexpr std::size_t items = 8;
// CPUs: elements per work-item, enough to make a work-item's loop long and few enough
// work-items to keep every core busy.
constexpr std::size_t chunkElements = 16384;

std::string typeOptions(const char* in, const char* out)
{
  return std::string(" -DIN_T=") + in + " -DSUM_T=ulong -DOUT_T=" + out;
}

// Scans `values` (n elements of type `in`) into `out` and returns the total: the pieces' sums,
// their offsets (one work-group or work-item, in the same program), then each piece.
template <typename In, typename Out>
std::uint64_t scanPieces(DeviceRun& run, const DeviceBuffer<In>& values, std::size_t n,
  DeviceBuffer<Out>& out, const char* inType, const char* outType, bool contiguous)
{
  const std::size_t workGroupSize = run.device().workGroupSize(256);
  const std::size_t piece = contiguous ? chunkElements : workGroupSize * items;
  const std::size_t pieces = (n + piece - 1) / piece;
  const std::string options = contiguous ? typeOptions(inType, outType)
                                         : "-DWG=" + std::to_string(workGroupSize) +
      " -DITEMS=" + std::to_string(items) + typeOptions(inType, outType);

  DeviceBuffer<cl_ulong> sums = run.allocate<cl_ulong>(pieces, "scan piece sums");
  // One more offset than pieces: the total.
  DeviceBuffer<cl_ulong> pieceOffsets = run.allocate<cl_ulong>(pieces + 1, "scan piece offsets");
  if (contiguous)
  {
    run.call({ "scan", "chunk_sums", options }, pieces, "scan", values, cl_ulong(n), cl_ulong(piece),
      cl_ulong(pieces), sums);
    run.call({ "scan", "chunk_offsets", options }, 1, "scan", sums, cl_ulong(pieces), pieceOffsets);
  }
  else
  {
    run.call({ "scan", "tile_sums", options }, { pieces * workGroupSize, workGroupSize }, "scan", values,
      cl_ulong(n), sums);
    run.call({ "scan", "piece_offsets", options }, { workGroupSize, workGroupSize }, "scan", sums,
      cl_ulong(pieces), pieceOffsets);
  }
  std::uint64_t total = 0;
  check(run.device().queue().enqueueReadBuffer(pieceOffsets.handle(), CL_TRUE, pieces * sizeof(cl_ulong),
          sizeof(cl_ulong), &total),
    "reading the total of a scan");

  if (contiguous)
  {
    run.call({ "scan", "chunk_scan", options }, pieces, "scan", values, cl_ulong(n), cl_ulong(piece),
      cl_ulong(pieces), pieceOffsets, out);
  }
  else
  {
    run.call({ "scan", "tile_scan", options }, { pieces * workGroupSize, workGroupSize }, "scan", values,
      cl_ulong(n), pieceOffsets, out);
  }
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
    total = scanPieces<cl_uint, cl_uint>(run, counts, n, offsets, "uint", "uint",
      isContiguous(pattern, run.info().isGPU));
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
