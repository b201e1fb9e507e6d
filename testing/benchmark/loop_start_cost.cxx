// What one of the core's host loops costs to start: `gpumesh-loop-start-cost ITEMS THREADS
// [GAP_US]` runs 200 loops of gpumesh::parallelFor over ITEMS items of light work (a few
// loads and adds each) on THREADS threads, the default grain, with GAP_US microseconds of
// sleep between loops (the pool's threads then go idle as between a filter's loops), then the
// same loops on one thread, and prints ITEMS, THREADS, GAP_US and the median microseconds of a
// loop each way. Several processes started at once show it for MPI ranks sharing a host: the
// grain below which the filters' interface loops should stay on their caller.
#include "gpumesh/runtime/HostThreadPool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace
{
// The median microseconds of one loop over `items` items on `threads` threads.
double medianLoopMicroseconds(const std::vector<std::uint32_t>& values, unsigned threads, long gapMicroseconds)
{
  std::atomic<std::uint64_t> sink{ 0 };
  std::vector<double> times;
  for (int loop = 0; loop < 200; ++loop)
  {
    if (gapMicroseconds > 0)
      std::this_thread::sleep_for(std::chrono::microseconds(gapMicroseconds));
    const auto begin = std::chrono::steady_clock::now();
    gpumesh::parallelFor(0, static_cast<std::int64_t>(values.size()), 0, threads, [&](std::int64_t first, std::int64_t last) {
      std::uint64_t sum = 0;
      for (std::int64_t i = first; i < last; ++i)
        sum += values[static_cast<std::size_t>(i)] * 3u + 1u;
      sink.fetch_add(sum, std::memory_order_relaxed);
    });
    times.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - begin).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
  if (argc != 3 && argc != 4)
  {
    std::fprintf(stderr, "usage: gpumesh-loop-start-cost ITEMS THREADS [GAP_US]\n");
    return 2;
  }
  const long long items = std::atoll(argv[1]);
  const int threads = std::atoi(argv[2]);
  const long gap = argc == 4 ? std::atol(argv[3]) : 0;
  if (items < 1 || threads < 1 || threads > 256 || gap < 0)
  {
    std::fprintf(stderr, "gpumesh-loop-start-cost: ITEMS must be positive, THREADS 1-256, GAP_US not negative\n");
    return 2;
  }
  std::vector<std::uint32_t> values(static_cast<std::size_t>(items));
  for (std::size_t i = 0; i < values.size(); ++i)
    values[i] = static_cast<std::uint32_t>(i);
  medianLoopMicroseconds(values, static_cast<unsigned>(threads), 0); // the pool's threads started
  const double parallel = medianLoopMicroseconds(values, static_cast<unsigned>(threads), gap);
  const double alone = medianLoopMicroseconds(values, 1, gap);
  std::printf("%lld %d %ld %.1f %.1f\n", items, threads, gap, parallel, alone);
  return 0;
}
