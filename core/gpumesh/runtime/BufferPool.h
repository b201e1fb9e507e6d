// Device buffers a run has let go, kept for its next allocations of the same size.
#pragma once
#include "gpumesh/runtime/OpenCL.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <vector>

namespace gpumesh
{

/// An algorithm of rounds (decimation, refinement, a smoother's set-up) allocates and frees
/// hundreds of small buffers: 1,192 for a 20,000-triangle decimation. On a GPU each is a driver
/// allocation at its first command and a free at its release; kept here, a later buffer of the
/// same size class is the same memory again. Reuse needs no waiting: the device's queue runs in
/// order, so a command on a reused buffer starts after every earlier command on it.
///
/// Small buffers (up to maxPooledBytes) are allocated in size classes, powers of two, so that
/// the shrinking sizes of successive rounds meet; larger ones are exact and never kept (their
/// allocation is small beside the work on them, and their memory goes back at once). The pool
/// holds at most its capacity. Thread-safe.
class BufferPool
{
public:
  /// Buffers up to this size are allocated by class and kept.
  static constexpr std::size_t maxPooledBytes = std::size_t(16) << 20;

  explicit BufferPool(std::uint64_t capacityBytes);
  ~BufferPool() = default;
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  /// The bytes to allocate for a request of `bytes`: its size class (the next power of two,
  /// at least 256 bytes) when it may be kept, else `bytes` itself.
  static std::size_t allocationBytes(std::size_t bytes);

  /// A kept buffer of exactly `allocationBytes` bytes, or an empty handle.
  cl::Buffer take(std::size_t allocationBytes);
  /// Keeps `buffer` (of `allocationBytes` bytes) for a later take, unless the pool is closed,
  /// full, or the size is not a class; otherwise it is released here.
  void give(cl::Buffer buffer, std::size_t allocationBytes);
  /// Releases every kept buffer (before an allocation that needs their memory).
  void clear();
  /// clear(), and every later give() releases its buffer: the run that owned the pool is over.
  void close();
  std::uint64_t bytesHeld() const;

private:
  mutable std::mutex Mutex;
  std::map<std::size_t, std::vector<cl::Buffer>> Kept; ///< by allocation bytes
  std::uint64_t Held = 0;
  std::uint64_t Capacity = 0;
  bool Closed = false;
};

} // namespace gpumesh
