// RAII ownership of one OpenCL buffer of `size()` elements of T.
#pragma once
#include "gpumesh/runtime/BufferPool.h"
#include "gpumesh/runtime/MemoryCounters.h"
#include "gpumesh/runtime/OpenCL.h"

#include <memory>
#include <utility>

namespace gpumesh
{

/// Move-only. Created by DeviceRun::allocate/upload, which account its bytes as in use on the
/// device in the run's and the device's MemoryCounters; the destructor releases both, and gives
/// the buffer back to the run's BufferPool (when it came from one) instead of the driver.
template <typename T>
class DeviceBuffer
{
public:
  DeviceBuffer() = default;
  DeviceBuffer(cl::Buffer buffer, std::size_t count, std::size_t allocatedBytes,
    std::shared_ptr<MemoryCounters> runCounters, std::shared_ptr<MemoryCounters> deviceCounters,
    std::shared_ptr<BufferPool> pool = nullptr)
    : Buffer(std::move(buffer))
    , Count(count)
    , AllocatedBytes(allocatedBytes)
    , RunCounters(std::move(runCounters))
    , DeviceCounters(std::move(deviceCounters))
    , Pool(std::move(pool))
  {
  }
  ~DeviceBuffer() { release(); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  DeviceBuffer(DeviceBuffer&& other) noexcept { *this = std::move(other); }
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept
  {
    if (this != &other)
    {
      release();
      Buffer = std::move(other.Buffer);
      Count = std::exchange(other.Count, 0);
      AllocatedBytes = std::exchange(other.AllocatedBytes, 0);
      RunCounters = std::move(other.RunCounters);
      DeviceCounters = std::move(other.DeviceCounters);
      Pool = std::move(other.Pool);
    }
    return *this;
  }

  std::size_t size() const { return Count; }
  std::size_t bytes() const { return Count * sizeof(T); }
  bool empty() const { return Count == 0; }
  const cl::Buffer& handle() const { return Buffer; }

  /// Lets the device memory go now (also done by the destructor): to the pool, else freed.
  void release()
  {
    if (AllocatedBytes)
    {
      RunCounters->released(AllocatedBytes);
      DeviceCounters->released(AllocatedBytes);
    }
    if (Pool)
      Pool->give(std::move(Buffer), AllocatedBytes);
    Pool.reset();
    Buffer = cl::Buffer();
    Count = 0;
    AllocatedBytes = 0;
  }

private:
  cl::Buffer Buffer;
  std::size_t Count = 0;
  std::size_t AllocatedBytes = 0;
  std::shared_ptr<MemoryCounters> RunCounters;
  std::shared_ptr<MemoryCounters> DeviceCounters;
  std::shared_ptr<BufferPool> Pool;
};

} // namespace gpumesh
