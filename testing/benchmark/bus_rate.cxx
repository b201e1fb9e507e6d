// How fast one device's bus moves data, per process:
// `gpumesh-bus-rate DEVICE BYTES [START [CHUNK_BYTES...]]` copies BYTES between host and device
// in several ways, 6 times each, and prints one JSON line of the median rates of the last 5 in
// GB/s:
//
//   pinned     one enqueueWriteBuffer/ReadBuffer from memory the driver pinned (the bus alone)
//   staged     DeviceRun's upload/download of ordinary host memory (the filters' path: pinned
//              chunks filled by several host threads, or the pageable copy below the device's
//              staging threshold), with the default chunk and with each CHUNK_BYTES given
//              (staged_up_CHUNK: staged whatever BYTES, to compare with pageable below the
//              threshold)
//   narrowed   DeviceRun's uploadNarrowed of 64-bit ids (BYTES of 32-bit values sent, twice
//              that read: the cells' connectivity)
//   registered a buffer made on the ordinary host memory (CL_MEM_USE_HOST_PTR) and copied to
//              the device buffer, made and released every time (a new input's arrays)
//   pageable   one enqueueWriteBuffer/ReadBuffer from ordinary host memory (the driver stages)
//
// Several processes started at once, one per GPU of a host (START: the Unix time at which all
// begin, so that their copies overlap), show what the host gives each GPU when all of them
// move data together: the floor of a new input's upload in the scaling model of
// docs/benchmarks.md.
#include "gpumesh/runtime/DeviceContext.h"
#include "gpumesh/runtime/DeviceRun.h"
#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace
{
// The median rate in GB/s of the last 5 of 6 runs of `copy`, which moves `bytes`.
double medianRate(std::size_t bytes, const std::function<void()>& copy)
{
  std::vector<double> rates;
  for (int r = 0; r < 6; ++r)
  {
    const auto begin = std::chrono::steady_clock::now();
    copy();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    if (r > 0)
      rates.push_back(static_cast<double>(bytes) / seconds / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
  if (argc < 3)
  {
    std::fprintf(stderr, "usage: gpumesh-bus-rate DEVICE BYTES [START [CHUNK_BYTES...]]\n");
    return 2;
  }
  const std::size_t bytes = std::strtoull(argv[2], nullptr, 10);
  if (bytes == 0)
  {
    std::fprintf(stderr, "gpumesh-bus-rate: BYTES must be positive\n");
    return 2;
  }
  try
  {
    using namespace gpumesh;
    auto device = DeviceContext::acquire(argv[1]);
    DeviceRun run(device);
    const cl::CommandQueue& queue = device->queue();
    cl_int status = CL_SUCCESS;
    cl::Buffer target(device->context(), CL_MEM_READ_WRITE, bytes, nullptr, &status);
    check(status, "allocating the device buffer");
    cl::Buffer pinnedBuffer(device->context(), CL_MEM_ALLOC_HOST_PTR | CL_MEM_READ_WRITE, bytes, nullptr, &status);
    check(status, "allocating pinned memory");
    auto* pinned = static_cast<char*>(
      queue.enqueueMapBuffer(pinnedBuffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, bytes, nullptr, nullptr, &status));
    check(status, "mapping pinned memory");
    std::memset(pinned, 1, bytes);
    std::vector<char> pageable(bytes, 2);
    std::vector<cl_long> wide((bytes + sizeof(cl_int) - 1) / sizeof(cl_int), 3);
    auto staged = run.allocate<char>(bytes, "staged");
    check(queue.finish(), "preparing");

    if (argc >= 4 && std::atoll(argv[3]) > 0) // all processes begin together
    {
      const auto start = std::chrono::system_clock::time_point(std::chrono::seconds(std::atoll(argv[3])));
      std::this_thread::sleep_until(start);
    }
    const auto write = [&](const void* from) {
      check(queue.enqueueWriteBuffer(target, CL_TRUE, 0, bytes, from), "uploading");
    };
    const auto read = [&](void* to) { check(queue.enqueueReadBuffer(target, CL_TRUE, 0, bytes, to), "downloading"); };
    const double pinnedUp = medianRate(bytes, [&] { write(pinned); });
    const double pinnedDown = medianRate(bytes, [&] { read(pinned); });
    // The filters' two staged uploads, timed with the default chunks and with each given size.
    const auto stagedUpload = [&] {
      auto buffer = run.upload(pageable.data(), bytes, "staged upload");
      check(queue.finish(), "finishing the staged upload");
    };
    const auto narrowedUpload = [&] {
      auto buffer = run.uploadNarrowed(wide.data(), wide.size(), "narrowed upload");
      check(queue.finish(), "finishing the narrowed upload");
    };
    const double stagedUp = medianRate(bytes, stagedUpload);
    const double stagedDown = medianRate(bytes, [&] { run.download(staged, pageable.data(), bytes, "staged"); });
    const double narrowedUp = medianRate(bytes, narrowedUpload);
    const double registeredUp = medianRate(bytes, [&] {
      cl_int made = CL_SUCCESS;
      cl::Buffer registered(device->context(), CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, pageable.data(), &made);
      check(made, "making a buffer on host memory");
      check(queue.enqueueCopyBuffer(registered, target, 0, 0, bytes), "copying from host memory");
      check(queue.finish(), "finishing the copy from host memory");
    });
    std::string chunkRates;
    for (int a = 4; a < argc; ++a)
    {
      const std::size_t chunk = std::strtoull(argv[a], nullptr, 10);
      if (chunk == 0 || chunk % sizeof(cl_int) != 0)
        throw Error(std::string("CHUNK_BYTES must be a positive multiple of 4: ") + argv[a]);
      device->setStaging(0, chunk); // staged at every size, below the device's threshold too
      char rates[128];
      std::snprintf(rates, sizeof rates, ", \"staged_up_%zu\": %.2f, \"narrowed_up_%zu\": %.2f", chunk,
        medianRate(bytes, stagedUpload), chunk, medianRate(bytes, narrowedUpload));
      chunkRates += rates;
    }
    const double pageableUp = medianRate(bytes, [&] { write(pageable.data()); });
    const double pageableDown = medianRate(bytes, [&] { read(pageable.data()); });
    check(queue.enqueueUnmapMemObject(pinnedBuffer, pinned), "unmapping pinned memory");
    check(queue.finish(), "finishing");
    std::printf("{\"device\": \"%s\", \"bytes\": %zu, \"pinned_up\": %.2f, \"pinned_down\": %.2f, "
                "\"staged_up\": %.2f, \"staged_down\": %.2f, \"narrowed_up\": %.2f, \"registered_up\": %.2f, "
                "\"pageable_up\": %.2f, \"pageable_down\": %.2f%s}\n",
      device->info().label().c_str(), bytes, pinnedUp, pinnedDown, stagedUp, stagedDown, narrowedUp, registeredUp,
      pageableUp, pageableDown, chunkRates.c_str());
  }
  catch (const std::exception& failure)
  {
    std::fprintf(stderr, "gpumesh-bus-rate: %s\n", failure.what());
    return 1;
  }
  return 0;
}
