// Core benchmarks: device time of each operation (median of repeats after a warm-up), the
// fewest bytes it must move, the effective bandwidth, and its ratio to the copy bandwidth of
// the same device measured in the same run. Prints a table and writes JSON.
//
//   gpumesh-benchmark [--device SPEC] [--repeat N] [--reduce-size N] [--json FILE]
//   gpumesh-benchmark --list-devices
#include "gpumesh/DeviceRun.h"
#include "gpumesh/Reduce.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

using namespace gpumesh;

namespace
{
struct Options
{
  std::string device = "auto";
  int repeat = 10;
  std::size_t reduceSize = 100000000;
  std::string json;
};

struct Result
{
  std::string name;
  double milliseconds = 0.0; // median
  double bytes = 0.0;        // the fewest bytes the operation must move
  double gigabytesPerSecond() const { return bytes / (milliseconds * 1e-3) / 1e9; }
};

double median(std::vector<double> values)
{
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Device time of the commands `body` enqueues, from profiling events; one warm-up first.
double medianDeviceTime(const std::shared_ptr<DeviceContext>& context, int repeat,
  const std::function<void(DeviceRun&)>& body)
{
  std::vector<double> times;
  for (int r = 0; r <= repeat; ++r)
  {
    DeviceRun timed(context);
    body(timed);
    double total = 0.0;
    for (const auto& t : timed.timings())
    {
      total += t.milliseconds;
    }
    if (r > 0)
    {
      times.push_back(total);
    }
  }
  return median(times);
}

// Wall time of a blocking host<->device transfer (includes the driver's staging).
double medianWallTime(int repeat, const std::function<void()>& body)
{
  std::vector<double> times;
  for (int r = 0; r <= repeat; ++r)
  {
    const auto start = std::chrono::steady_clock::now();
    body();
    const auto end = std::chrono::steady_clock::now();
    if (r > 0)
    {
      times.push_back(std::chrono::duration<double, std::milli>(end - start).count());
    }
  }
  return median(times);
}

Options parse(int argc, char** argv)
{
  Options options;
  for (int i = 1; i < argc; ++i)
  {
    const std::string arg = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc)
      {
        throw Error("missing value after " + arg);
      }
      return argv[++i];
    };
    if (arg == "--device")
      options.device = next();
    else if (arg == "--repeat")
      options.repeat = std::max(1, std::stoi(next()));
    else if (arg == "--reduce-size")
      options.reduceSize = std::stoull(next());
    else if (arg == "--json")
      options.json = next();
    else
      throw Error("unknown argument " + arg);
  }
  return options;
}
} // namespace

int main(int argc, char** argv)
{
  try
  {
    if (argc == 2 && std::string(argv[1]) == "--list-devices")
    {
      std::cout << describeDevices(listDevices());
      return 0;
    }
    const Options options = parse(argc, argv);
    auto context = DeviceContext::acquire(options.device);
    DeviceRun run(context);
    std::vector<Result> results;

    // Random data, never zeros: zeros can hide unwritten outputs and run faster.
    const std::size_t n = options.reduceSize;
    std::vector<float> host(n);
    std::mt19937 generator(42);
    std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
    for (auto& v : host)
      v = distribution(generator);

    DeviceBuffer<float> values = run.upload(host.data(), n, "values");
    DeviceBuffer<float> copy = run.allocate<float>(n, "copy");
    const double bytes = 4.0 * static_cast<double>(n);

    // The copy is timed from its own event: DeviceRun records only the commands it enqueues.
    std::vector<double> copyTimes;
    for (int r = 0; r <= options.repeat; ++r)
    {
      cl::Event event;
      check(context->queue().enqueueCopyBuffer(values.handle(), copy.handle(), 0, 0, values.bytes(), nullptr, &event),
        "copying");
      event.wait();
      cl_ulong start = 0, end = 0;
      event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start);
      event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end);
      if (r > 0)
        copyTimes.push_back((end - start) * 1e-6);
    }
    const Result copyResult{ "device copy (read + write)", median(copyTimes), 2.0 * bytes };
    results.push_back(copyResult);

    Statistics statistics;
    const double reduceMs = medianDeviceTime(context, options.repeat,
      [&](DeviceRun& r) { statistics = reduceStatistics(r, values, n); });
    results.push_back({ "reduce min/max/sum/L2 of " + std::to_string(n) + " floats", reduceMs, bytes });

    double reference = 0.0;
    for (float v : host)
      reference += v;
    const double relativeError = std::abs(statistics.sum - reference) / std::max(1.0, std::abs(reference));

    std::vector<float> back(n);
    results.push_back({ "upload (pageable, wall)", medianWallTime(options.repeat, [&] {
                          check(context->queue().enqueueWriteBuffer(values.handle(), CL_TRUE, 0, values.bytes(), host.data()),
                            "uploading");
                        }),
      bytes });
    results.push_back({ "download (pageable, wall)", medianWallTime(options.repeat, [&] {
                          check(context->queue().enqueueReadBuffer(values.handle(), CL_TRUE, 0, values.bytes(), back.data()),
                            "downloading");
                        }),
      bytes });

    const double copyBandwidth = copyResult.gigabytesPerSecond();
    std::printf("device: %s\n", context->info().label().c_str());
    std::printf("%-48s %12s %12s %10s %8s\n", "operation", "median ms", "min bytes", "GB/s", "of copy");
    for (const auto& r : results)
    {
      std::printf("%-48s %12.4f %12.3g %10.1f %7.0f%%\n", r.name.c_str(), r.milliseconds, r.bytes,
        r.gigabytesPerSecond(), 100.0 * r.gigabytesPerSecond() / copyBandwidth);
    }
    std::printf("reduction sum relative error vs double: %.3g\n", relativeError);

    if (!options.json.empty())
    {
      std::ofstream out(options.json);
      out << "{\n  \"device\": \"" << context->info().label() << "\",\n  \"results\": [\n";
      for (std::size_t i = 0; i < results.size(); ++i)
      {
        const auto& r = results[i];
        out << "    {\"operation\": \"" << r.name << "\", \"median_ms\": " << r.milliseconds
            << ", \"bytes\": " << r.bytes << ", \"gb_per_s\": " << r.gigabytesPerSecond()
            << ", \"fraction_of_copy\": " << r.gigabytesPerSecond() / copyBandwidth << "}"
            << (i + 1 < results.size() ? ",\n" : "\n");
      }
      out << "  ],\n  \"reduction_relative_error\": " << relativeError << "\n}\n";
    }
    return relativeError < 1e-6 ? 0 : 1;
  }
  catch (const std::exception& error)
  {
    std::cerr << "gpumesh-benchmark: " << error.what() << "\n";
    return 1;
  }
}
