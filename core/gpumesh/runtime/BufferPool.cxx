#include "gpumesh/runtime/BufferPool.h"

#include <utility>

namespace gpumesh
{

BufferPool::BufferPool(std::uint64_t capacityBytes)
  : Capacity(capacityBytes)
{
}

std::size_t BufferPool::allocationBytes(std::size_t bytes)
{
  if (bytes > maxPooledBytes)
    return bytes;
  std::size_t size = 256;
  while (size < bytes)
    size *= 2;
  return size;
}

cl::Buffer BufferPool::take(std::size_t allocationBytes)
{
  std::lock_guard<std::mutex> lock(Mutex);
  auto found = Kept.find(allocationBytes);
  if (found == Kept.end() || found->second.empty())
    return cl::Buffer();
  cl::Buffer buffer = std::move(found->second.back());
  found->second.pop_back();
  Held -= allocationBytes;
  return buffer;
}

void BufferPool::give(cl::Buffer buffer, std::size_t allocationBytes)
{
  if (!buffer())
    return;
  {
    std::lock_guard<std::mutex> lock(Mutex);
    const bool isClass = allocationBytes <= maxPooledBytes && allocationBytes == BufferPool::allocationBytes(allocationBytes);
    if (!Closed && isClass && Held + allocationBytes <= Capacity)
    {
      Kept[allocationBytes].push_back(std::move(buffer));
      Held += allocationBytes;
      return;
    }
  }
  buffer = cl::Buffer(); // released outside the lock
}

void BufferPool::clear()
{
  std::map<std::size_t, std::vector<cl::Buffer>> released;
  {
    std::lock_guard<std::mutex> lock(Mutex);
    released.swap(Kept);
    Held = 0;
  }
}

void BufferPool::close()
{
  {
    std::lock_guard<std::mutex> lock(Mutex);
    Closed = true;
  }
  clear();
}

std::uint64_t BufferPool::bytesHeld() const
{
  std::lock_guard<std::mutex> lock(Mutex);
  return Held;
}

} // namespace gpumesh
