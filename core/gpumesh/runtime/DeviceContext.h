// The process-wide OpenCL context, queue and program cache of one device.
#pragma once
#include "gpumesh/runtime/BufferPool.h"
#include "gpumesh/runtime/Devices.h"
#include "gpumesh/runtime/KeptDeviceData.h"
#include "gpumesh/runtime/MemoryCounters.h"
#include "gpumesh/runtime/OpenCL.h"
#include "gpumesh/runtime/ProgramBinaryCache.h"
#include "gpumesh/runtime/StagingArea.h"

#include <atomic>
#include <cstdint>
#include <future>
#include <list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gpumesh
{

/// A program of kernels/<name>.cl built with `options`: what DeviceContext::program takes.
struct ProgramRequest
{
  std::string name;
  std::string options;
  bool operator<(const ProgramRequest& other) const
  {
    return name != other.name ? name < other.name : options < other.options;
  }
  bool operator==(const ProgramRequest& other) const { return name == other.name && options == other.options; }
};

/// How the programs a call asked for were made, for reports: compiled from source, or
/// loaded from the binary cache on disk (ProgramBinaryCache). Programs already built in this
/// process count in neither.
struct ProgramCounts
{
  std::uint64_t built = 0;
  std::uint64_t fromBinaryCache = 0;
};

/// One per device (or part of a device: DeviceInfo::isPart) per process, shared by every filter
/// and every thread. The queue is in-order with profiling enabled; OpenCL makes enqueueing from
/// several threads safe, and programs are built once per (kernel file, build options) and
/// process, from the binary cache on disk where it holds them (ProgramBinaryCache::fromEnvironment()).
class DeviceContext
{
public:
  /// The shared context of `device` (of listDevices, e.g. as selectDevice chose it).
  static std::shared_ptr<DeviceContext> acquire(const DeviceInfo& device);
  /// The shared context of the device chosen by `spec`: acquire(selectDevice(spec)).
  static std::shared_ptr<DeviceContext> acquire(const std::string& spec);

  const DeviceInfo& info() const { return Info; }
  const cl::Context& context() const { return Context; }
  const cl::Device& device() const { return Device; }
  const cl::CommandQueue& queue() const { return Queue; }

  /// kernels/runtime/common.cl followed by kernels/<name>.cl, built for this device with `options`.
  /// Threads asking for the same program wait for one build; different programs build
  /// concurrently. `counts` (when given) adds how this call got it. Throws gpumesh::Error
  /// carrying the build log if compilation fails.
  cl::Program program(const std::string& name, const std::string& options = {}, ProgramCounts* counts = nullptr);

  /// Builds those of `requests` not built yet, concurrently on a few host threads (the
  /// programs of a filter's first run: compiled one after the other they took seconds on a
  /// GPU driver with a cold cache). Throws the first build error once all have finished.
  void buildPrograms(const std::vector<ProgramRequest>& requests, ProgramCounts* counts = nullptr);

  /// The programs a run of `user` (a filter and its precision) asked for last time on this
  /// device, in this process or, through the cache folder, an earlier one; empty when unknown.
  std::vector<ProgramRequest> programsNeededBy(const std::string& user);
  /// Adds `requests` to what `user` needs (in the cache folder too, when that grew).
  void rememberProgramsNeededBy(const std::string& user, std::vector<ProgramRequest> requests);

  /// A program whose whole text was generated at run time (core/gpumesh/algorithms/MeshKernel.h), built
  /// with `options` and cached by its full text beside the files' programs: the same text is
  /// compiled once per device and process while it stays among the generatedProgramLimit()
  /// most recently used (a GUI session that edits a kernel again and again does not keep every
  /// version). `compiled` (when given) tells whether this call built it. `what` names it in
  /// errors, which carry the build log.
  cl::Program generatedProgram(const std::string& source, const std::string& options,
    const std::string& what, bool* compiled = nullptr, ProgramCounts* counts = nullptr);
  std::size_t generatedProgramLimit() const { return GeneratedProgramLimit; }
  /// At least 1; the least recently used programs beyond it are released now.
  void setGeneratedProgramLimit(std::size_t limit);
  std::size_t generatedProgramCount();

  /// Programs compiled from source so far by this context (files and generated texts).
  std::uint64_t programsBuilt() const { return ProgramsBuilt.load(); }
  /// Programs loaded from the binary cache on disk so far by this context.
  std::uint64_t programsFromBinaryCache() const { return ProgramsFromBinaryCache.load(); }

  /// Where built programs are kept between processes. Replacing it (tests: a folder of their
  /// own, or a disabled cache) affects programs built from then on.
  const ProgramBinaryCache& binaryCache() const { return BinaryCache; }
  void setBinaryCache(ProgramBinaryCache cache);
  /// What a program binary depends on besides options and source: platform, device, driver.
  const std::string& deviceIdentity() const { return DeviceIdentity; }

  /// Totals over the life of the process.
  const std::shared_ptr<MemoryCounters>& counters() const { return Counters; }

  /// The largest power of two not above the device's work-group limit nor `preferred`.
  std::size_t workGroupSize(std::size_t preferred = 256) const;

  /// Host<->device copies of at least this many bytes go through pinned staging (default:
  /// 1 MiB on GPUs; never on CPU devices, whose "device memory" is host memory). Below it
  /// NVIDIA's own copy from pageable memory is as fast as staging, and narrowing 64-bit ids
  /// there (into a host copy, on one thread) matters little; from 1 MiB on, staged narrowing
  /// is 2-8 times faster (gpumesh-bus-rate, docs/benchmarks.md), which a process's piece of a
  /// mesh (its cell offsets, a ghost layer) often needs.
  std::size_t stagingThreshold() const { return StagingThreshold; }
  /// Changes the threshold and the size of the pinned chunks (two per staging worker; tests
  /// use tiny ones to exercise the staged path on any device). Not to be called while
  /// transfers run.
  void setStaging(std::size_t thresholdBytes, std::size_t chunkBytes);
  /// 2 MiB: large enough for the bus's full speed, small enough that every worker fills several
  /// chunks of a piece's arrays while earlier ones cross the bus (2 x 16 workers x 2 MiB = 64 MiB
  /// of pinned memory at most). With two or four processes uploading at once, copies through
  /// 4 MiB chunks were 10-40% slower (gpumesh-bus-rate on 2 and 4 H200: docs/benchmarks.md).
  static constexpr std::size_t defaultStagingChunkBytes = std::size_t(2) << 20;
  StagingArea& staging() { return *Staging; }
  /// Device data kept between runs (a quarter of the device's memory at most).
  KeptDeviceData& kept() { return *Kept; }
  /// Large buffers the runs let go, kept for the next runs' buffers of the same sizes (an
  /// eighth of a GPU's memory at most; none on a CPU device, whose buffers' pages are kept by
  /// the host's memory cache instead: HostMemory.h).
  const std::shared_ptr<BufferPool>& largeBuffers() const { return LargeBuffers; }

  DeviceContext(const DeviceInfo& info, const cl::Device& device); // use acquire()

private:
  DeviceInfo Info;
  cl::Device Device;
  cl::Context Context;
  cl::CommandQueue Queue;
  std::shared_ptr<MemoryCounters> Counters = std::make_shared<MemoryCounters>();
  std::unique_ptr<StagingArea> Staging;
  std::unique_ptr<KeptDeviceData> Kept;
  std::shared_ptr<BufferPool> LargeBuffers;
  std::size_t StagingThreshold = SIZE_MAX;
  /// Builds `source`, from its binary in the cache when that is there and the driver takes it.
  cl::Program build(const std::string& source, const std::string& options, const std::string& what,
    ProgramCounts* counts);
  std::string DeviceIdentity;
  ProgramBinaryCache BinaryCache;

  std::mutex ProgramsMutex;
  /// By file name and options; a future while its first caller builds it.
  std::map<std::string, std::shared_future<cl::Program>> Programs;
  std::map<std::string, std::vector<ProgramRequest>> Needs; ///< by user
  std::mutex GeneratedMutex;
  /// Generated programs, most recently used first, found by options and full text.
  std::list<std::pair<std::string, cl::Program>> GeneratedPrograms;
  std::map<std::string, std::list<std::pair<std::string, cl::Program>>::iterator> GeneratedByKey;
  std::size_t GeneratedProgramLimit = 64;
  void evictGeneratedPrograms(); ///< the caller holds GeneratedMutex
  std::atomic<std::uint64_t> ProgramsBuilt{ 0 };
  std::atomic<std::uint64_t> ProgramsFromBinaryCache{ 0 };
};

} // namespace gpumesh
