#include "gpumesh/StagingArea.h"

#include "gpumesh/Error.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <string>
#include <thread>

namespace gpumesh
{

namespace
{
// work(first, n) over [0, count) split over a few threads: one core cannot keep up with the bus.
template <typename Work>
void inParallel(std::size_t count, Work work)
{
  const std::size_t threads =
    std::min<std::size_t>(8, std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t slice = (count + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads && t * slice < count; ++t)
  {
    workers.emplace_back([=] { work(t * slice, std::min(slice, count - t * slice)); });
  }
  work(0, std::min(slice, count));
  for (auto& worker : workers)
  {
    worker.join();
  }
}

void parallelCopy(char* to, const char* from, std::size_t bytes)
{
  inParallel(bytes, [=](std::size_t first, std::size_t n) { std::memcpy(to + first, from + first, n); });
}

void parallelNarrow(std::int32_t* to, const std::int64_t* from, std::size_t count)
{
  inParallel(count, [=](std::size_t first, std::size_t n) {
    constexpr std::int64_t low = std::numeric_limits<std::int32_t>::min();
    constexpr std::int64_t high = std::numeric_limits<std::int32_t>::max();
    for (std::size_t i = first; i < first + n; ++i)
      to[i] = static_cast<std::int32_t>(std::min(high, std::max(low, from[i])));
  });
}
} // namespace

StagingArea::StagingArea(const cl::Context& context, const cl::CommandQueue& queue, std::size_t chunkBytes)
  : Context(context)
  , Queue(queue)
  , ChunkBytes(chunkBytes)
{
}

// Pinned memory is allocated on first use only: small transfers never need it.
void StagingArea::allocate()
{
  for (int i = 0; i < 2; ++i)
  {
    if (Mapped[i])
    {
      continue;
    }
    cl_int status = CL_SUCCESS;
    Pinned[i] = cl::Buffer(Context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, ChunkBytes, nullptr, &status);
    check(status, "allocating pinned staging memory");
    Mapped[i] = static_cast<char*>(
      Queue.enqueueMapBuffer(Pinned[i], CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, ChunkBytes, nullptr, nullptr, &status));
    check(status, "mapping pinned staging memory");
  }
}

template <typename Fill>
std::vector<cl::Event> StagingArea::uploadChunks(const cl::Buffer& target, std::size_t offset, std::size_t bytes, Fill fill)
{
  std::lock_guard<std::mutex> lock(Mutex);
  allocate();
  std::vector<cl::Event> events;
  cl::Event pending[2];
  for (std::size_t done = 0, chunk = 0; done < bytes; done += ChunkBytes, ++chunk)
  {
    const int i = static_cast<int>(chunk % 2);
    if (pending[i]())
    {
      check(pending[i].wait(), "waiting for a staged upload");
    }
    const std::size_t n = std::min(ChunkBytes, bytes - done);
    fill(Mapped[i], done, n);
    check(Queue.enqueueWriteBuffer(target, CL_FALSE, offset + done, n, Mapped[i], nullptr, &pending[i]),
      "uploading through pinned memory");
    events.push_back(pending[i]);
  }
  for (auto& event : pending)
  {
    if (event())
    {
      check(event.wait(), "waiting for a staged upload");
    }
  }
  return events;
}

std::vector<cl::Event> StagingArea::upload(const cl::Buffer& target, std::size_t offset, const void* data, std::size_t bytes)
{
  const char* source = static_cast<const char*>(data);
  return uploadChunks(target, offset, bytes,
    [source](char* chunk, std::size_t first, std::size_t n) { parallelCopy(chunk, source + first, n); });
}

std::vector<cl::Event> StagingArea::uploadNarrowed(const cl::Buffer& target, const std::int64_t* data, std::size_t count)
{
  // Each chunk must hold whole 32-bit values.
  if (ChunkBytes % sizeof(std::int32_t) != 0)
  {
    throw Error("staging chunks of " + std::to_string(ChunkBytes) + " bytes cannot hold whole 32-bit values");
  }
  return uploadChunks(target, 0, count * sizeof(std::int32_t),
    [data](char* chunk, std::size_t first, std::size_t n) {
      parallelNarrow(reinterpret_cast<std::int32_t*>(chunk), data + first / sizeof(std::int32_t),
        n / sizeof(std::int32_t));
    });
}

std::vector<cl::Event> StagingArea::download(const cl::Buffer& source, std::size_t offset, void* data, std::size_t bytes)
{
  std::lock_guard<std::mutex> lock(Mutex);
  allocate();
  std::vector<cl::Event> events;
  char* target = static_cast<char*>(data);
  const std::size_t chunks = (bytes + ChunkBytes - 1) / ChunkBytes;
  cl::Event pending[2];
  const auto enqueue = [&](std::size_t chunk) {
    const int i = static_cast<int>(chunk % 2);
    const std::size_t start = chunk * ChunkBytes;
    check(Queue.enqueueReadBuffer(source, CL_FALSE, offset + start, std::min(ChunkBytes, bytes - start), Mapped[i],
            nullptr, &pending[i]),
      "downloading through pinned memory");
    events.push_back(pending[i]);
  };
  for (std::size_t chunk = 0; chunk < std::min<std::size_t>(2, chunks); ++chunk)
  {
    enqueue(chunk);
  }
  for (std::size_t chunk = 0; chunk < chunks; ++chunk)
  {
    const int i = static_cast<int>(chunk % 2);
    check(pending[i].wait(), "waiting for a staged download");
    const std::size_t start = chunk * ChunkBytes;
    parallelCopy(target + start, Mapped[i], std::min(ChunkBytes, bytes - start));
    if (chunk + 2 < chunks)
    {
      enqueue(chunk + 2);
    }
  }
  return events;
}

} // namespace gpumesh
