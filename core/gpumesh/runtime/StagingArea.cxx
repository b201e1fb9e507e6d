#include "gpumesh/runtime/StagingArea.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/HostThreadPool.h"
#include "gpumesh/runtime/HostThreads.h"

#include <algorithm>
#include <cstring>
#include <exception>
#include <limits>
#include <string>

namespace gpumesh
{

namespace
{
void narrowClamped(std::int32_t* to, const std::int64_t* from, std::size_t count)
{
  constexpr std::int64_t low = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t high = std::numeric_limits<std::int32_t>::max();
  for (std::size_t i = 0; i < count; ++i)
    to[i] = static_cast<std::int32_t>(std::min(high, std::max(low, from[i])));
}
} // namespace

void narrowSaturated(std::int32_t* to, const std::int64_t* from, std::size_t count)
{
  // Truncated block by block while a flag notes any value outside the 32-bit range: the
  // compiler vectorises both with SSE2, which has no 64-bit compare for a clamp of every
  // value. A block with such a value is done again, clamped.
  constexpr std::size_t block = 2048;
  for (std::size_t first = 0; first < count; first += block)
  {
    const std::size_t n = std::min(block, count - first);
    std::uint64_t outside = 0;
    for (std::size_t i = 0; i < n; ++i)
    {
      const std::int64_t value = from[first + i];
      outside |= (static_cast<std::uint64_t>(value) + 0x80000000ull) >> 32;
      to[first + i] = static_cast<std::int32_t>(value);
    }
    if (outside)
      narrowClamped(to + first, from + first, n);
  }
}

StagingArea::StagingArea(const cl::Context& context, const cl::CommandQueue& queue, std::size_t chunkBytes,
  unsigned workers)
  : Context(context)
  , Queue(queue)
  , ChunkBytes(chunkBytes)
  , Workers(workers ? workers : hostThreads())
{
}

StagingArea::~StagingArea()
{
  for (Chunk& chunk : Chunks)
  {
    if (chunk.inFlight())
      chunk.inFlight.wait(); // a failure here has nowhere to go: the transfer has ended either way
  }
}

void StagingArea::allocate(unsigned workersNeeded)
{
  const std::size_t wanted = 2 * static_cast<std::size_t>(workersNeeded);
  while (Chunks.size() < wanted)
  {
    cl_int status = CL_SUCCESS;
    Chunk chunk;
    chunk.pinned = cl::Buffer(Context, CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, ChunkBytes, nullptr, &status);
    check(status, "allocating pinned staging memory");
    chunk.mapped = static_cast<char*>(Queue.enqueueMapBuffer(
      chunk.pinned, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, ChunkBytes, nullptr, nullptr, &status));
    check(status, "mapping pinned staging memory");
    Chunks.push_back(std::move(chunk));
  }
}

std::vector<cl::Event> StagingArea::forEachChunk(std::size_t bytes, std::size_t step,
  const std::function<cl::Event(Chunk& chunk, std::size_t first, std::size_t n)>& work)
{
  const std::size_t chunks = (bytes + step - 1) / step;
  const auto workers = static_cast<unsigned>(std::min<std::size_t>(Workers, chunks));
  allocate(workers);
  std::vector<cl::Event> events(chunks);
  std::vector<std::exception_ptr> failures(workers);
  const auto worker = [&](unsigned w) {
    try
    {
      for (std::size_t index = w, round = 0; index < chunks; index += workers, ++round)
      {
        Chunk& chunk = Chunks[2 * w + round % 2];
        if (chunk.inFlight())
          check(chunk.inFlight.wait(), "waiting for a staged transfer");
        const std::size_t first = index * step;
        events[index] = work(chunk, first, std::min(step, bytes - first));
        chunk.inFlight = events[index];
      }
    }
    catch (...)
    {
      failures[w] = std::current_exception();
    }
  };
  parallelFor(0, workers, 1, workers, [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t w = first; w < last; ++w)
      worker(static_cast<unsigned>(w));
  });
  for (const auto& failure : failures)
    if (failure)
      std::rethrow_exception(failure);
  return events;
}

template <typename Fill>
std::vector<cl::Event> StagingArea::uploadChunks(
  const cl::Buffer& target, std::size_t offset, std::size_t bytes, std::size_t step, Fill fill)
{
  std::lock_guard<std::mutex> lock(Mutex);
  return forEachChunk(bytes, step, [&](Chunk& chunk, std::size_t first, std::size_t n) {
    fill(chunk.mapped, first, n);
    cl::Event event;
    check(Queue.enqueueWriteBuffer(target, CL_FALSE, offset + first, n, chunk.mapped, nullptr, &event),
      "uploading through pinned memory");
    return event;
  });
}

std::vector<cl::Event> StagingArea::upload(const cl::Buffer& target, std::size_t offset, const void* data, std::size_t bytes)
{
  const char* source = static_cast<const char*>(data);
  return uploadChunks(target, offset, bytes, ChunkBytes,
    [source](char* chunk, std::size_t first, std::size_t n) { std::memcpy(chunk, source + first, n); });
}

std::vector<cl::Event> StagingArea::uploadNarrowed(const cl::Buffer& target, const std::int64_t* data, std::size_t count)
{
  // Each chunk holds half its bytes of narrowed values: as many bytes of the caller's memory go
  // through it as through a copy's (the host's memory traffic sets the pace, not the bus).
  const std::size_t step = ChunkBytes / 2 / sizeof(std::int32_t) * sizeof(std::int32_t);
  if (step == 0)
  {
    throw Error("staging chunks of " + std::to_string(ChunkBytes) + " bytes cannot hold whole 32-bit values");
  }
  return uploadChunks(target, 0, count * sizeof(std::int32_t), step, [data](char* chunk, std::size_t first, std::size_t n) {
    narrowSaturated(reinterpret_cast<std::int32_t*>(chunk), data + first / sizeof(std::int32_t), n / sizeof(std::int32_t));
  });
}

std::vector<cl::Event> StagingArea::download(const cl::Buffer& source, std::size_t offset, void* data, std::size_t bytes)
{
  std::lock_guard<std::mutex> lock(Mutex);
  char* target = static_cast<char*>(data);
  return forEachChunk(bytes, ChunkBytes, [&](Chunk& chunk, std::size_t first, std::size_t n) {
    cl::Event event;
    check(Queue.enqueueReadBuffer(source, CL_FALSE, offset + first, n, chunk.mapped, nullptr, &event),
      "downloading through pinned memory");
    check(event.wait(), "waiting for a staged download");
    std::memcpy(target + first, chunk.mapped, n);
    return event;
  });
}

} // namespace gpumesh
