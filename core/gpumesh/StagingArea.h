// Pinned staging for large host<->device copies.
#pragma once
#include "gpumesh/OpenCL.h"

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

namespace gpumesh
{

/// A GPU driver copies from pageable host memory through its own small pinned buffers, at a
/// fraction of the bus speed (10-19 GB/s measured on an H200). This copies through two pinned
/// chunks instead: while one chunk is on the bus, several threads fill (or drain) the other.
/// One per DeviceContext; transfers through it are serialised.
class StagingArea
{
public:
  StagingArea(const cl::Context& context, const cl::CommandQueue& queue, std::size_t chunkBytes);

  /// Copies `bytes` from `data` to `target` at byte `offset`; returns the transfer events.
  std::vector<cl::Event> upload(const cl::Buffer& target, std::size_t offset, const void* data, std::size_t bytes);
  /// Copies `count` 64-bit integers from `data` to `target` (from its start) as 32-bit ones,
  /// narrowed while they are staged: half the bytes cross the bus. Values outside the 32-bit
  /// range saturate (to INT32_MIN or INT32_MAX), so range checks on the device still see them.
  std::vector<cl::Event> uploadNarrowed(const cl::Buffer& target, const std::int64_t* data, std::size_t count);
  /// Copies `bytes` from `source` at byte `offset` to `data`; returns the transfer events.
  std::vector<cl::Event> download(const cl::Buffer& source, std::size_t offset, void* data, std::size_t bytes);

private:
  void allocate();
  /// Uploads `bytes` to `target` at `offset` chunk by chunk; fill(chunk, first, n) writes bytes
  /// [first, first + n) of what goes up into the pinned chunk.
  template <typename Fill>
  std::vector<cl::Event> uploadChunks(const cl::Buffer& target, std::size_t offset, std::size_t bytes, Fill fill);

  cl::Context Context;
  cl::CommandQueue Queue;
  std::size_t ChunkBytes;
  std::mutex Mutex;
  cl::Buffer Pinned[2];
  char* Mapped[2] = { nullptr, nullptr };
};

} // namespace gpumesh
