#include "gpumesh/runtime/BufferPool.h"

#include <algorithm>
#include <utility>

namespace gpumesh
{

BufferPool::BufferPool(std::uint64_t capacityBytes, Kind kind)
  : Capacity(capacityBytes)
  , Sizes(kind)
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

bool BufferPool::keeps(std::size_t allocationBytes) const
{
  if (Sizes == Kind::Large)
    return allocationBytes > maxPooledBytes;
  return allocationBytes <= maxPooledBytes && allocationBytes == BufferPool::allocationBytes(allocationBytes);
}

cl::Buffer BufferPool::remove(std::list<Kept>::iterator kept)
{
  // A take removes the newest of its size (the last), an eviction the oldest of all (the
  // first of its size): neither searches.
  auto& sameSize = BySize[kept->bytes];
  if (sameSize.back() == kept)
    sameSize.pop_back();
  else
    sameSize.erase(std::find(sameSize.begin(), sameSize.end(), kept));
  if (sameSize.empty())
    BySize.erase(kept->bytes);
  HeldBytes -= kept->bytes;
  cl::Buffer buffer = std::move(kept->buffer);
  Held.erase(kept);
  return buffer;
}

cl::Buffer BufferPool::take(std::size_t allocationBytes)
{
  std::lock_guard<std::mutex> lock(Mutex);
  auto found = BySize.find(allocationBytes);
  if (found == BySize.end())
    return cl::Buffer();
  return remove(found->second.back());
}

void BufferPool::give(cl::Buffer buffer, std::size_t allocationBytes)
{
  if (!buffer())
    return;
  std::vector<cl::Buffer> released; // outside the lock
  {
    std::lock_guard<std::mutex> lock(Mutex);
    if (Closed || !keeps(allocationBytes) || allocationBytes > Capacity ||
      (Sizes == Kind::Small && HeldBytes + allocationBytes > Capacity))
    {
      released.push_back(std::move(buffer));
    }
    else
    {
      while (HeldBytes + allocationBytes > Capacity)
        released.push_back(remove(Held.begin()));
      Held.push_back({ allocationBytes, std::move(buffer) });
      BySize[allocationBytes].push_back(std::prev(Held.end()));
      HeldBytes += allocationBytes;
    }
  }
}

void BufferPool::clear()
{
  std::list<Kept> released;
  {
    std::lock_guard<std::mutex> lock(Mutex);
    released.swap(Held);
    BySize.clear();
    HeldBytes = 0;
  }
}

void BufferPool::setCapacity(std::uint64_t capacityBytes)
{
  std::vector<cl::Buffer> released; // outside the lock
  std::lock_guard<std::mutex> lock(Mutex);
  Capacity = capacityBytes;
  while (HeldBytes > Capacity)
    released.push_back(remove(Held.begin()));
}

std::uint64_t BufferPool::capacity() const
{
  std::lock_guard<std::mutex> lock(Mutex);
  return Capacity;
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
  return HeldBytes;
}

} // namespace gpumesh
