// Pinned staging for large host<->device copies.
#pragma once
#include "gpumesh/runtime/OpenCL.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace gpumesh
{

/// `count` 64-bit integers as 32-bit ones; values outside the 32-bit range saturate (to
/// INT32_MIN or INT32_MAX), so range checks on the device still see them.
void narrowSaturated(std::int32_t* to, const std::int64_t* from, std::size_t count);

/// A GPU driver copies from pageable host memory through its own small pinned buffers, at a
/// fraction of the bus speed (10-19 GB/s measured on an H200). This copies through pinned
/// chunks instead, and the host side of a large copy (reading the caller's memory, narrowing
/// 64-bit ids) is what limits it: several workers each fill (or drain) two chunks of their
/// own and enqueue them themselves, so the host never waits for a chunk it is not using and
/// the bus always has a chunk queued. An upload returns once every chunk is filled and queued,
/// without waiting for the last transfers: the next upload's workers fill their free chunks
/// while those cross the bus (the queue is in order, so what follows on the device sees the
/// data). One per DeviceContext; transfers through it are serialised.
class StagingArea
{
public:
  /// `chunkBytes` per pinned chunk; `workers` threads (0: hostThreads()),
  /// each with two chunks.
  StagingArea(const cl::Context& context, const cl::CommandQueue& queue, std::size_t chunkBytes,
    unsigned workers = 0);
  /// Waits for the transfers still reading the chunks.
  ~StagingArea();
  StagingArea(const StagingArea&) = delete;
  StagingArea& operator=(const StagingArea&) = delete;

  /// Copies `bytes` from `data` to `target` at byte `offset`; returns the transfer events.
  std::vector<cl::Event> upload(const cl::Buffer& target, std::size_t offset, const void* data, std::size_t bytes);
  /// Copies `count` 64-bit integers from `data` to `target` (from its start) as 32-bit ones,
  /// narrowed while they are staged: half the bytes cross the bus. Values outside the 32-bit
  /// range saturate (to INT32_MIN or INT32_MAX), so range checks on the device still see them.
  std::vector<cl::Event> uploadNarrowed(const cl::Buffer& target, const std::int64_t* data, std::size_t count);
  /// Copies `bytes` from `source` at byte `offset` to `data`; returns the transfer events.
  std::vector<cl::Event> download(const cl::Buffer& source, std::size_t offset, void* data, std::size_t bytes);

  std::size_t chunkBytes() const { return ChunkBytes; }
  unsigned workers() const { return Workers; }

private:
  struct Chunk
  {
    cl::Buffer pinned;
    char* mapped = nullptr;
    /// The last transfer that reads or writes `mapped`: the chunk is free once it completed.
    cl::Event inFlight;
  };
  /// Pinned memory is allocated on first use only: small transfers never need it.
  void allocate(unsigned workersNeeded);
  /// Runs work(chunk, first, n) for bytes [first, first + n) of a transfer of `bytes`, `step`
  /// bytes (at most a chunk) at a time (the i-th on worker i % workers, alternating its two
  /// chunks, each once the transfer work returned for it last, in this call or an earlier one,
  /// has completed), the workers in parallel; returns those transfers' events, in order. An
  /// exception in any worker is rethrown here.
  std::vector<cl::Event> forEachChunk(std::size_t bytes, std::size_t step,
    const std::function<cl::Event(Chunk& chunk, std::size_t first, std::size_t n)>& work);
  /// Uploads `bytes` to `target` at `offset`, `step` bytes at a time; fill(chunk, first, n)
  /// writes bytes [first, first + n) of what goes up into the pinned chunk.
  template <typename Fill>
  std::vector<cl::Event> uploadChunks(
    const cl::Buffer& target, std::size_t offset, std::size_t bytes, std::size_t step, Fill fill);

  cl::Context Context;
  cl::CommandQueue Queue;
  std::size_t ChunkBytes;
  unsigned Workers;
  std::mutex Mutex;
  std::vector<Chunk> Chunks; ///< two per worker: worker w owns 2w and 2w + 1
};

} // namespace gpumesh
