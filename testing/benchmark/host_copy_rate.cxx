// How fast this host copies memory: `gpumesh-host-copy-rate BYTES THREADS` copies BYTES between
// two buffers touched first, each of THREADS threads its share, 6 times, and prints the median
// rate of the last 5 in GB/s (bytes copied per second). Several processes started at once show
// what the host's memory gives each of them, beside what the filters' host passes get (the
// scaling model in docs/benchmarks.md).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

int main(int argc, char** argv)
{
  if (argc != 3)
  {
    std::fprintf(stderr, "usage: gpumesh-host-copy-rate BYTES THREADS\n");
    return 2;
  }
  const std::size_t bytes = std::strtoull(argv[1], nullptr, 10);
  const int threads = std::atoi(argv[2]);
  if (bytes == 0 || threads < 1 || threads > 1024)
  {
    std::fprintf(stderr, "gpumesh-host-copy-rate: BYTES must be positive and THREADS 1-1024\n");
    return 2;
  }
  const std::size_t share = bytes / threads;
  std::vector<char> from(share * threads), to(share * threads);
  // Runs work(t) on every thread t and returns the seconds until the last one finished (thread
  // starts cost microseconds beside the copies' tens of milliseconds).
  const auto onAll = [&](auto work) {
    const auto begin = std::chrono::steady_clock::now();
    std::vector<std::thread> workers;
    for (int t = 0; t < threads; ++t)
      workers.emplace_back(work, t);
    for (std::thread& worker : workers)
      worker.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  };
  onAll([&](int t) { // each share touched first by the thread that copies it
    std::memset(from.data() + t * share, 1, share);
    std::memset(to.data() + t * share, 2, share);
  });
  std::vector<double> rates;
  for (int r = 0; r < 6; ++r)
  {
    const double seconds = onAll([&](int t) { std::memcpy(to.data() + t * share, from.data() + t * share, share); });
    if (r > 0)
      rates.push_back(static_cast<double>(share * threads) / seconds / 1e9);
  }
  std::sort(rates.begin(), rates.end());
  std::printf("%.2f\n", rates[rates.size() / 2]);
  return 0;
}
