#include "gpumesh/StagingArea.h"

#include "gpumesh/Error.h"

#include <algorithm>
#include <cstring>
#include <thread>

namespace gpumesh
{

namespace
{
// memcpy split over a few threads: one core cannot keep up with the bus.
void parallelCopy(char* to, const char* from, std::size_t bytes)
{
  const std::size_t threads =
    std::min<std::size_t>(8, std::max(1u, std::thread::hardware_concurrency()));
  const std::size_t slice = (bytes + threads - 1) / threads;
  std::vector<std::thread> workers;
  for (std::size_t t = 1; t < threads && t * slice < bytes; ++t)
  {
    workers.emplace_back([=] { std::memcpy(to + t * slice, from + t * slice, std::min(slice, bytes - t * slice)); });
  }
  std::memcpy(to, from, std::min(slice, bytes));
  for (auto& worker : workers)
  {
    worker.join();
  }
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

std::vector<cl::Event> StagingArea::upload(const cl::Buffer& target, std::size_t offset, const void* data, std::size_t bytes)
{
  std::lock_guard<std::mutex> lock(Mutex);
  allocate();
  std::vector<cl::Event> events;
  cl::Event pending[2];
  const char* source = static_cast<const char*>(data);
  for (std::size_t done = 0, chunk = 0; done < bytes; done += ChunkBytes, ++chunk)
  {
    const int i = static_cast<int>(chunk % 2);
    if (pending[i]())
    {
      check(pending[i].wait(), "waiting for a staged upload");
    }
    const std::size_t n = std::min(ChunkBytes, bytes - done);
    parallelCopy(Mapped[i], source + done, n);
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
