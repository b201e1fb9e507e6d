// 64-bit counters of host<->device traffic and device memory in use.
#pragma once
#include <atomic>
#include <cstdint>

namespace gpumesh
{

/// Thread-safe counters. Each DeviceContext keeps process-wide totals; each DeviceRun keeps
/// its own, so a filter can report what one execution moved.
class MemoryCounters
{
public:
  void uploaded(std::uint64_t bytes) { BytesUploaded += bytes; }
  void downloaded(std::uint64_t bytes) { BytesDownloaded += bytes; }
  /// Host memory a CPU device read where it was instead of a copy (DeviceRun::borrow).
  void readInPlace(std::uint64_t bytes) { BytesReadInPlace += bytes; }
  void allocated(std::uint64_t bytes);
  void released(std::uint64_t bytes) { InUse -= bytes; }

  std::uint64_t bytesUploaded() const { return BytesUploaded; }
  std::uint64_t bytesDownloaded() const { return BytesDownloaded; }
  std::uint64_t bytesReadInPlace() const { return BytesReadInPlace; }
  std::uint64_t memoryInUse() const { return InUse; }
  std::uint64_t peakMemoryInUse() const { return Peak; }

private:
  std::atomic<std::uint64_t> BytesUploaded{ 0 };
  std::atomic<std::uint64_t> BytesDownloaded{ 0 };
  std::atomic<std::uint64_t> BytesReadInPlace{ 0 };
  std::atomic<std::uint64_t> InUse{ 0 };
  std::atomic<std::uint64_t> Peak{ 0 };
};

inline void MemoryCounters::allocated(std::uint64_t bytes)
{
  const std::uint64_t now = (InUse += bytes);
  std::uint64_t peak = Peak.load();
  while (now > peak && !Peak.compare_exchange_weak(peak, now))
  {
  }
}

} // namespace gpumesh
