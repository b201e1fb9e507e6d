// The core's radix sort beside Boost.Compute's key-value sorts, on one device and one queue,
// in one process: random (ulong key, uint value) pairs, wall time of each sort (queue
// finished) median of repeats after a warm-up that also compiles the kernels. Every result
// is checked against the core's.
//
//   gpumesh-sort-comparison [--device SPEC] [--repeat N] [--sizes N1,N2,...] [--bits B]
#include "gpumesh/primitives/RadixSort.h"

#include <boost/compute/algorithm/detail/radix_sort.hpp>
#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/algorithm/stable_sort_by_key.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace gpumesh;
namespace compute = boost::compute;

namespace
{
double medianMs(int repeat, const std::function<void()>& prepare, const std::function<void()>& sort,
  const cl::CommandQueue& queue)
{
  std::vector<double> times;
  for (int r = 0; r <= repeat; ++r)
  {
    prepare();
    queue.finish();
    const auto start = std::chrono::steady_clock::now();
    sort();
    queue.finish();
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (r > 0)
      times.push_back(ms);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
} // namespace

int main(int argc, char** argv)
{
  try
  {
    std::string device = "auto";
    int repeat = 5;
    unsigned bits = 40; // e.g. edge keys (2 x 20-bit vertex ids) of a 1M-point mesh
    std::vector<std::size_t> sizes = { 1000000, 4000000 };
    for (int i = 1; i + 1 < argc; i += 2)
    {
      const std::string arg = argv[i], value = argv[i + 1];
      if (arg == "--device")
        device = value;
      else if (arg == "--repeat")
        repeat = std::max(1, std::stoi(value));
      else if (arg == "--bits")
        bits = static_cast<unsigned>(std::stoul(value));
      else if (arg == "--sizes")
      {
        sizes.clear();
        std::stringstream list(value);
        for (std::string item; std::getline(list, item, ',');)
          sizes.push_back(std::stoull(item));
      }
      else
        throw Error("unknown argument " + arg);
    }
    auto context = DeviceContext::acquire(device);
    const cl::CommandQueue& queue = context->queue();
    compute::command_queue boostQueue(queue.get());
    std::printf("device: %s, keys of %u random bits, values 0..n-1\n", context->info().label().c_str(), bits);
    std::printf("%-12s %-58s %10s\n", "pairs", "sort", "median ms");

    for (std::size_t n : sizes)
    {
      std::mt19937_64 generator(n);
      std::vector<cl_ulong> keys(n);
      std::vector<cl_uint> values(n);
      const cl_ulong mask = bits >= 64 ? ~cl_ulong(0) : (cl_ulong(1) << bits) - 1;
      for (std::size_t i = 0; i < n; ++i)
      {
        keys[i] = generator() & mask;
        values[i] = static_cast<cl_uint>(i);
      }
      DeviceRun run(context);
      DeviceBuffer<cl_ulong> deviceKeys = run.allocate<cl_ulong>(n, "keys");
      DeviceBuffer<cl_uint> deviceValues = run.allocate<cl_uint>(n, "values");
      const auto upload = [&] {
        check(queue.enqueueWriteBuffer(deviceKeys.handle(), CL_TRUE, 0, n * sizeof(cl_ulong), keys.data()), "keys");
        check(queue.enqueueWriteBuffer(deviceValues.handle(), CL_TRUE, 0, n * sizeof(cl_uint), values.data()), "values");
      };
      std::vector<cl_uint> reference(n), result(n);
      const auto download = [&](std::vector<cl_uint>& out) {
        check(queue.enqueueReadBuffer(deviceValues.handle(), CL_TRUE, 0, n * sizeof(cl_uint), out.data()), "values");
      };
      const auto boostKeys = [&] {
        compute::buffer buffer(deviceKeys.handle().get());
        return std::make_pair(compute::make_buffer_iterator<cl_ulong>(buffer, 0),
          compute::make_buffer_iterator<cl_ulong>(buffer, n));
      };
      const auto boostValues = [&] {
        return compute::make_buffer_iterator<cl_uint>(compute::buffer(deviceValues.handle().get()), 0);
      };

      struct Entry
      {
        std::string name;
        std::function<void()> sort;
      };
      const std::vector<Entry> entries = {
        { "gpumesh::sortByKey, the keys' " + std::to_string(bits) + " bits",
          [&] { sortByKey(run, deviceKeys, deviceValues, n, bits, "pairs"); } },
        { "gpumesh::sortByKey, all 64 bits", [&] { sortByKey(run, deviceKeys, deviceValues, n, 64, "pairs"); } },
        { "boost::compute::stable_sort_by_key (its choice for this device)",
          [&] {
            auto [first, last] = boostKeys();
            compute::stable_sort_by_key(first, last, boostValues(), boostQueue);
          } },
        { "boost::compute::detail::radix_sort_by_key (its GPU path)",
          [&] {
            auto [first, last] = boostKeys();
            compute::detail::radix_sort_by_key(first, last, boostValues(), boostQueue);
          } },
      };
      for (std::size_t e = 0; e < entries.size(); ++e)
      {
        const double ms = medianMs(repeat, upload, entries[e].sort, queue);
        download(e == 0 ? reference : result);
        const bool same = e == 0 || result == reference;
        std::printf("%-12zu %-58s %10.2f%s\n", n, entries[e].name.c_str(), ms, same ? "" : "  DIFFERS from sortByKey");
      }
    }
    return 0;
  }
  catch (const std::exception& error)
  {
    std::cerr << "gpumesh-sort-comparison: " << error.what() << "\n";
    return 1;
  }
}
