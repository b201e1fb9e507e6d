// Device buffers let go, kept for later allocations of the same size: a run's small buffers
// until the run ends, a device's large ones from run to run.
#pragma once
#include "gpumesh/runtime/OpenCL.h"

#include <cstddef>
#include <cstdint>
#include <list>
#include <map>
#include <mutex>
#include <vector>

namespace gpumesh
{

/// On a GPU each buffer is a driver allocation at its first command and a free at its release.
/// An algorithm of rounds (decimation, refinement, a smoother's set-up) allocates and frees
/// hundreds of small buffers (1,192 for a 20,000-triangle decimation), and every execution of a
/// filter allocates and frees its large ones: on an H200 the first command on a fresh buffer of
/// a few hundred MB waits 0.5-3 ms and its release 0.3-1 ms, 15-20 ms of a 30M-triangle
/// refinement whose kernels take 10 (command traces, docs/benchmarks.md). A buffer kept here
/// is the same memory again. Reuse needs no waiting:
/// the device's queue runs in order, so a command on a reused buffer starts after every
/// earlier command on it.
///
/// A pool keeps one kind of buffer:
/// - Small (a run's pool): up to maxPooledBytes, allocated in size classes, powers of two, so
///   that the shrinking sizes of successive rounds meet; full, it releases what it is given.
/// - Large (a device's pool): above maxPooledBytes, by exact size (a re-execution, or the next
///   time step of a mesh, asks for the same sizes again); full, it releases the buffers given
///   longest ago first.
/// Thread-safe.
class BufferPool
{
public:
  /// Buffers up to this size are allocated by class and kept by a small-buffer pool.
  static constexpr std::size_t maxPooledBytes = std::size_t(16) << 20;

  enum class Kind
  {
    Small,
    Large
  };

  BufferPool(std::uint64_t capacityBytes, Kind kind = Kind::Small);
  ~BufferPool() = default;
  BufferPool(const BufferPool&) = delete;
  BufferPool& operator=(const BufferPool&) = delete;

  /// The bytes to allocate for a request of `bytes`: its size class (the next power of two,
  /// at least 256 bytes) when it may be kept by a small-buffer pool, else `bytes` itself.
  static std::size_t allocationBytes(std::size_t bytes);
  /// Whether a buffer of `allocationBytes` is one this pool keeps.
  bool keeps(std::size_t allocationBytes) const;

  /// A kept buffer of exactly `allocationBytes` bytes, or an empty handle.
  cl::Buffer take(std::size_t allocationBytes);
  /// Keeps `buffer` (of `allocationBytes` bytes) for a later take, unless the pool is closed or
  /// does not keep such buffers; otherwise it is released here. A small-buffer pool that is
  /// full releases it; a large-buffer pool releases the oldest it holds to make room.
  void give(cl::Buffer buffer, std::size_t allocationBytes);
  /// Releases every kept buffer (before an allocation that needs their memory).
  void clear();
  /// Changes how many bytes the pool holds at most (tests give a CPU device's pool of large
  /// buffers room); a large-buffer pool releases its oldest beyond it.
  void setCapacity(std::uint64_t capacityBytes);
  std::uint64_t capacity() const;
  /// clear(), and every later give() releases its buffer: the run that owned the pool is over.
  void close();
  std::uint64_t bytesHeld() const;

private:
  struct Kept
  {
    std::size_t bytes;
    cl::Buffer buffer;
  };
  mutable std::mutex Mutex;
  std::list<Kept> Held; ///< oldest first
  std::map<std::size_t, std::vector<std::list<Kept>::iterator>> BySize; ///< most recent last
  std::uint64_t HeldBytes = 0;
  std::uint64_t Capacity = 0;
  Kind Sizes = Kind::Small;
  bool Closed = false;
  /// Removes `kept` from both lists; the caller holds Mutex.
  cl::Buffer remove(std::list<Kept>::iterator kept);
};

} // namespace gpumesh
