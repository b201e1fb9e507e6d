// One execution of an algorithm on one device: its buffers, launches, transfers and timings.
#pragma once
#include "gpumesh/runtime/CommandTrace.h"
#include "gpumesh/runtime/DeviceBuffer.h"
#include "gpumesh/runtime/DeviceContext.h"
#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/Precision.h"
#include "gpumesh/runtime/RealBuffer.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gpumesh
{

namespace detail
{
// A kernel argument type that stands for several arguments declares, in its own namespace,
// `template <typename Set> void spreadKernelArguments(const T&, Set&& set)`, calling set(part)
// for each part in order. The runtime finds it by argument-dependent lookup, so it knows
// buffers and values only, never what a higher layer spreads (the cells of a mesh).
struct AnyKernelArgument
{
  template <typename T>
  void operator()(const T&) const
  {
  }
};
template <typename T, typename = void>
struct SpreadsOverKernelArguments : std::false_type
{
};
template <typename T>
struct SpreadsOverKernelArguments<T,
  std::void_t<decltype(spreadKernelArguments(std::declval<const T&>(), std::declval<AnyKernelArgument&>()))>>
  : std::true_type
{
};
} // namespace detail

/// Local memory of `bytes` bytes, as a kernel argument.
struct LocalMemory
{
  std::size_t bytes;
};

/// A kernel of kernels/<program>.cl, with the build options it needs beyond the run's precision.
struct KernelName
{
  std::string program;
  std::string function;
  std::string options = {};
};

/// The work-items of one launch: `global` of them, in work-groups of `local` (0: see
/// DeviceRun::launch), their get_global_id(0) starting at `offset` (a slice of a larger
/// range). Converts from a plain count.
struct LaunchRange
{
  LaunchRange(std::size_t globalSize, std::size_t localSize = 0, std::size_t globalOffset = 0)
    : global(globalSize)
    , local(localSize)
    , offset(globalOffset)
  {
  }
  std::size_t global;
  std::size_t local;
  std::size_t offset;
};

/// A REAL kernel argument: `value` in the run's precision (made by DeviceRun::real).
struct RealValue
{
  double value;
  Precision precision;
};

/// A kernel launched again and again (iterations, rounds): its trailing arguments stay bound,
/// its first `stepArguments` are given at each DeviceRun::call.
struct BoundKernel
{
  cl::Kernel kernel;
  cl_uint stepArguments = 0;
};

/// Device time of the commands that share a label, summed over their launches.
struct CommandTiming
{
  enum class Kind
  {
    Kernel,
    Upload,
    Download
  };
  std::string label;
  Kind kind = Kind::Kernel;
  double milliseconds = 0.0;
  unsigned count = 0;
};

/// Not thread-safe: one DeviceRun belongs to one thread. Several runs on the same device
/// (from several threads or filters) share its DeviceContext safely.
class DeviceRun
{
public:
  /// Every kernel of the run computes in `precision` (REAL in kernels/runtime/common.cl). Double on a
  /// device without cl_khr_fp64 is an error naming the device.
  explicit DeviceRun(std::shared_ptr<DeviceContext> device, Precision precision = Precision::Single);
  ~DeviceRun();
  DeviceRun(const DeviceRun&) = delete;
  DeviceRun& operator=(const DeviceRun&) = delete;

  DeviceContext& device() { return *Device; }
  const DeviceInfo& info() const { return Device->info(); }
  Precision precision() const { return Real; }

  /// A buffer of `count` elements, uninitialised. `what` names it in errors. A buffer over the
  /// device's largest allocation, one that would take the memory this process's buffers hold
  /// on the device past its global memory, or one the driver fails to allocate is an error
  /// naming it, its size, the device's global memory and largest allocation (outOfMemory).
  template <typename T>
  DeviceBuffer<T> allocate(std::size_t count, const std::string& what);

  /// Refuses, with the error of allocate, work that needs `bytes` more of the device's memory
  /// than its global memory leaves beside the buffers this process holds on it: called before
  /// a step's large allocations, so that a mesh too large for the device stops before them.
  /// `what` begins the message ("A mesh of ...").
  void requireMemory(std::uint64_t bytes, const std::string& what);

  /// allocate + blocking copy of `count` elements from host memory.
  template <typename T>
  DeviceBuffer<T> upload(const T* data, std::size_t count, const std::string& what);

  /// Host memory that kernels only read, as a buffer. On a device that works in host memory
  /// (not a GPU) the buffer is `data` itself, read in place without a copy, when `data` is
  /// aligned to `alignment` (what the kernels read it as); elsewhere it is an upload. `data`
  /// must stay alive and unchanged until the run's commands that read the buffer have
  /// finished, and no kernel may write to it.
  template <typename T>
  DeviceBuffer<T> borrow(const T* data, std::size_t count, const std::string& what, std::size_t alignment = alignof(T));

  /// Whether a host<->device copy of `bytes` goes through pinned staging (large copies to a GPU).
  bool staged(std::size_t bytes) const;

  /// allocate + blocking copy of `count` 64-bit integers as 32-bit ones, narrowed on the host:
  /// while staged when the copy is (half the bytes on the bus), else through a host copy.
  /// Values outside the 32-bit range saturate (to INT32_MIN or INT32_MAX), so the range checks
  /// that follow on the device still see them.
  DeviceBuffer<cl_int> uploadNarrowed(const cl_long* data, std::size_t count, const std::string& what);

  /// Blocking copy of the first `count` elements of `buffer` to host memory.
  template <typename T>
  void download(const DeviceBuffer<T>& buffer, T* out, std::size_t count, const std::string& what);

  /// `count` REAL values of the run's precision, uninitialised.
  RealBuffer allocateReal(std::size_t count, const std::string& what);
  /// allocateReal + copy from host values of either type. Values of the run's own type go up
  /// as they are; floats into a double run are widened on the device; doubles into a float
  /// run are rounded on the host, and one outside float's range is an error naming `what`,
  /// the index and the value.
  RealBuffer uploadReal(const float* data, std::size_t count, const std::string& what);
  RealBuffer uploadReal(const double* data, std::size_t count, const std::string& what);
  /// uploadReal for values kernels only read: values of the run's own type are borrowed (read
  /// in place on a CPU device: see borrow), others converted as by uploadReal.
  RealBuffer borrowReal(const float* data, std::size_t count, const std::string& what);
  RealBuffer borrowReal(const double* data, std::size_t count, const std::string& what);
  /// Copies the first `count` values to host memory of either type (converted on the host when
  /// the types differ).
  void download(const RealBuffer& buffer, float* out, std::size_t count, const std::string& what);
  void download(const RealBuffer& buffer, double* out, std::size_t count, const std::string& what);
  /// Sets every value of `buffer` to `value` (NaN included).
  void fillReal(RealBuffer& buffer, double value, const std::string& what);
  /// Copies the first `count` values of `from` into `to` from `toOffset` on (same precision).
  void copyReal(const RealBuffer& from, RealBuffer& to, std::size_t count, const std::string& what,
    std::size_t toOffset = 0);

  /// Sets every element of `buffer` to `value` on the device.
  template <typename T>
  void fill(DeviceBuffer<T>& buffer, const T& value, const std::string& what);

  /// Copies the first `count` elements of `from` to `to` on the device (timed like a kernel).
  template <typename T>
  void copy(const DeviceBuffer<T>& from, DeviceBuffer<T>& to, std::size_t count, const std::string& what,
    std::size_t toOffset = 0);

  /// Creates kernel `name`, sets `args` in order and enqueues it over `range`: the one call
  /// every launch goes through. Arguments: DeviceBuffer<T>, RealBuffer, LocalMemory, plain
  /// values, or a value that spreads over several arguments (spreadKernelArguments below, e.g.
  /// CellArgs in mesh/DeviceCellGroup.h). `label` names it in timings/errors.
  template <typename... Args>
  void call(const KernelName& name, LaunchRange range, const std::string& label, const Args&... args)
  {
    CallableKernel& callable = callableKernel(name);
    setArgumentsFrom(callable.kernel, 0, args...);
    launch(callable.kernel, range, label, callable.group);
  }

  /// Creates kernel `name` and binds `fixed` from argument index `stepArguments` on; the
  /// kernel's first `stepArguments` arguments are the ones that change between launches.
  template <typename... Fixed>
  BoundKernel bind(const KernelName& name, cl_uint stepArguments, const Fixed&... fixed)
  {
    BoundKernel bound{ kernel(name.program, name.function, name.options), stepArguments };
    setArgumentsFrom(bound.kernel, stepArguments, fixed...);
    return bound;
  }

  /// A program whose text was generated at run time (core/gpumesh/algorithms/MeshKernel.h: its full text,
  /// kernels/runtime/common.cl included), built for the run's precision and cached by its text
  /// (DeviceContext::generatedProgram); `compiled` tells whether this call compiled it. In a
  /// Single run unsuffixed literals (0.5) are floats (-cl-single-precision-constant). `options`:
  /// further build options (e.g. cellKindOptions), part of the cache key.
  cl::Program generatedProgram(const std::string& source, const std::string& what, bool* compiled = nullptr,
    const std::string& options = {});

  /// bind() for kernel `function` of a generated program.
  template <typename... Fixed>
  BoundKernel bind(const cl::Program& program, const std::string& function, cl_uint stepArguments,
    const Fixed&... fixed)
  {
    cl_int status = CL_SUCCESS;
    BoundKernel bound{ cl::Kernel(program, function.c_str(), &status), stepArguments };
    check(status, "creating kernel '" + function + "' of a generated program");
    setArgumentsFrom(bound.kernel, stepArguments, fixed...);
    return bound;
  }

  /// Sets the bound kernel's step arguments (indices 0..) and enqueues it over `range`.
  template <typename... Step>
  void call(BoundKernel& bound, LaunchRange range, const std::string& label, const Step&... step)
  {
    if (sizeof...(Step) != bound.stepArguments)
    {
      throw Error("kernel '" + bound.kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() + "' takes " +
        std::to_string(bound.stepArguments) + " step arguments, given " + std::to_string(sizeof...(Step)));
    }
    setArgumentsFrom(bound.kernel, 0, step...);
    launch(bound.kernel, range, label);
  }

  /// The work-group size a launch of `bound` with `local` 0 uses: slices of a multiple of it
  /// cover whole work-groups, so none runs past the slice into the next one.
  std::size_t groupSize(const BoundKernel& bound);

  /// `value` as a REAL kernel argument (float or double, as the run's precision).
  RealValue real(double value) const { return { value, Real }; }

  /// Waits for every command of the shared queue.
  void finish();

  /// Device times from profiling events, aggregated by label in first-launch order (waits for
  /// the commands to complete).
  std::vector<CommandTiming> timings();
  /// Events not yet folded into the totals: at most 2 x foldBatch, however many commands the
  /// run enqueues (a million smoothing steps keep memory flat). Exposed for tests.
  std::size_t pendingEvents() const { return Events.size(); }
  /// Once 2 x foldBatch events are pending, the oldest foldBatch are waited for and folded
  /// into per-label totals. This also bounds how far the host runs ahead of the device, so
  /// an observer between launches (progress, abort) sees the device's real progress.
  static constexpr std::size_t foldBatch = 1024;
  /// Sum of kernel device times, in milliseconds.
  double kernelMilliseconds();

  /// While alive, every command of `run` is recorded under `label` (e.g. "step 6 prefix
  /// sums" for the scans an algorithm step runs), instead of its own.
  class ScopedLabel
  {
  public:
    ScopedLabel(DeviceRun& run, std::string label)
      : Run(run)
      , Saved(std::exchange(run.LabelOverride, std::move(label)))
    {
    }
    ~ScopedLabel() { Run.LabelOverride = Saved; }
    ScopedLabel(const ScopedLabel&) = delete;
    ScopedLabel& operator=(const ScopedLabel&) = delete;

  private:
    DeviceRun& Run;
    std::string Saved;
  };

  /// Builds, concurrently, those of `programs` the device has not built yet
  /// (DeviceContext::buildPrograms): what the run's kernels will ask for, named as
  /// programsRequested() names them.
  void buildPrograms(const std::vector<ProgramRequest>& programs);
  /// buildPrograms for what a run of `user` (e.g. a filter's class and precision) asked for
  /// last time on this device (DeviceContext::programsNeededBy), else, on a first use with
  /// nothing remembered, for `firstUse` (what such a run asks for on a device of this kind).
  /// A program of either list that fails to build is no error here: if the run needs it, its
  /// kernel reports the error.
  void buildProgramsNeededBy(const std::string& user, const std::vector<ProgramRequest>& firstUse = {});
  /// Remembers programsRequested() as what `user` needs, for its next run in a later process.
  void rememberProgramsNeededBy(const std::string& user);
  /// Every program of kernels/ the run's kernels asked for, with their full build options.
  std::vector<ProgramRequest> programsRequested() const { return { Requested.begin(), Requested.end() }; }
  /// The programs this run compiled or loaded from the binary cache (those the device had
  /// already built count in neither).
  const ProgramCounts& programCounts() const { return Programs; }
  /// Of programCounts(), the programs a kernel had to wait for, one after the other, because
  /// buildPrograms had not built them beforehand: 0 when the list built concurrently was whole.
  std::uint64_t programsBuiltOnDemand() const { return ProgramsOnDemand; }
  /// Wall time this run spent waiting for programs: building, loading, or another thread's build.
  double programMilliseconds() const { return ProgramMilliseconds; }

  std::uint64_t bytesUploaded() const { return Counters->bytesUploaded(); }
  /// Host memory borrowed and read in place (CPU devices): bytes that needed no upload.
  std::uint64_t bytesReadInPlace() const { return Counters->bytesReadInPlace(); }
  std::uint64_t bytesDownloaded() const { return Counters->bytesDownloaded(); }
  std::uint64_t peakDeviceMemory() const { return Counters->peakMemoryInUse(); }
  std::uint64_t deviceMemoryInUse() const { return Counters->memoryInUse(); }

private:
  struct RecordedEvent
  {
    std::string label;
    CommandTiming::Kind kind;
    cl::Event event;
  };
  /// The bytes a buffer of `bytes` takes: its BufferPool size class where the device allows one.
  std::size_t allocationBytes(std::size_t bytes) const;
  /// A buffer of `bytes` (allocationBytes): one its pool kept, else a new one.
  cl::Buffer createBuffer(std::size_t bytes, const std::string& what);
  /// A new buffer from the driver (or, on a CPU device, over the host's memory).
  cl::Buffer newBuffer(std::size_t bytes, const std::string& what);
  /// Where a buffer of `bytes` (allocationBytes) goes when let go: the device's pool of large
  /// buffers, or the run's of small ones.
  const std::shared_ptr<BufferPool>& poolFor(std::size_t bytes) const;
  /// Throws the error of a buffer or a command that does not fit the device: "<subject> needs
  /// <bytes> (left out when 0) on device '<label>'<why>", the device's global memory, its
  /// largest allocation, what this process holds on it, and what to do.
  [[noreturn]] void outOfMemory(const std::string& subject, std::uint64_t bytes, const std::string& why, int clCode = 0);
  /// check() for an enqueue: a failure to find memory or resources for it is outOfMemory.
  void checkEnqueue(int status, const std::string& doing);
  /// `count` elements of `elementSize` bytes at `data` as a read-only buffer over that very
  /// memory, counted as read in place, on a device that works in host memory when `data` is
  /// aligned to `alignment`; an empty handle otherwise (the caller then uploads).
  cl::Buffer inPlaceBuffer(
    const void* data, std::size_t count, std::size_t elementSize, std::size_t alignment, const std::string& what);
  template <typename Host>
  RealBuffer borrowRealValues(const Host* data, std::size_t count, const std::string& what);
  /// Blocking copy of `bytes` between host memory and the start of `buffer`, through pinned
  /// staging when large enough; counted and timed.
  void transfer(const cl::Buffer& buffer, void* host, std::size_t bytes, bool toDevice, const std::string& what);
  void record(const std::string& label, CommandTiming::Kind kind, const cl::Event& event);
  /// Waits for the oldest `count` pending events and adds their times to Totals.
  void fold(std::size_t count);

  /// A kernel object of kernels/<program>.cl built for the run's precision (fresh per call:
  /// kernel arguments are per-object state, so sharing one across threads would race).
  cl::Kernel kernel(const std::string& program, const std::string& name,
    const std::string& options = {});
  /// The run's one kernel object of `name` for call(), with its work-group size: call() sets
  /// every argument before each launch, and the enqueue takes their values, so one object
  /// serves all of the run's calls (its thread's only; bind() makes its own, whose fixed
  /// arguments must stay). Creating a kernel per launch cost more than some launches.
  struct CallableKernel
  {
    cl::Kernel kernel;
    std::size_t group = 0;
  };
  CallableKernel& callableKernel(const KernelName& name);

  /// Enqueues `kernel` (arguments set) over `range.global` work-items from `range.offset` (nothing
  /// for 0). With `range.local` 0 the range is rounded up to whole work-groups of groupSize, so
  /// every kernel must ignore the work-items at or beyond its element count. Otherwise global
  /// must be a multiple of local. `label` names the launch in timings and errors.
  void launch(cl::Kernel& kernel, LaunchRange range, const std::string& label, std::size_t group = 0);
  std::size_t groupSize(const cl::Kernel& kernel);

  /// Sets `args` as arguments first, first + 1, ...; a spread value counts for its parts.
  template <typename... Args>
  static void setArgumentsFrom(cl::Kernel& kernel, cl_uint first, const Args&... args);
  static void setArgument(cl::Kernel& kernel, cl_uint& index, const RealValue& real);
  template <typename T>
  static void setArgument(cl::Kernel& kernel, cl_uint& index, const T& value);
  template <typename T>
  static void setSingleArgument(cl::Kernel& kernel, cl_uint& index, const T& value);

  template <typename T>
  static const T& argument(const T& value)
  {
    return value;
  }
  template <typename T>
  static const cl::Buffer& argument(const DeviceBuffer<T>& buffer)
  {
    return buffer.handle();
  }
  static cl::LocalSpaceArg argument(const LocalMemory& local) { return cl::Local(local.bytes); }
  static const cl::Buffer& argument(const RealBuffer& buffer) { return buffer.handle(); }

  /// The device-side fill and copy every typed and REAL buffer goes through (timed as kernels).
  template <typename Pattern>
  void fillBytes(const cl::Buffer& buffer, const Pattern& value, std::size_t bytes, const std::string& what);
  void copyBytes(const cl::Buffer& from, const cl::Buffer& to, std::size_t toOffsetBytes, std::size_t bytes,
    const std::string& what);
  template <typename Host>
  void downloadConverted(const RealBuffer& buffer, Host* out, std::size_t count, const std::string& what);

  std::shared_ptr<DeviceContext> Device;
  Precision Real = Precision::Single;
  std::shared_ptr<MemoryCounters> Counters = std::make_shared<MemoryCounters>();
  /// The small buffers this run let go, for its later allocations; closed with the run.
  std::shared_ptr<BufferPool> Pool;
  /// GPUMESH_COMMAND_TRACE's record of this run's commands, or none; TraceBegin: when the
  /// host began the command being enqueued (its enqueue's start, or a transfer's).
  std::unique_ptr<CommandTrace> Trace;
  double TraceBegin = -1;
  std::map<std::string, CallableKernel> Callable; ///< by program, function and options
  std::vector<RecordedEvent> Events;  ///< pending, oldest first
  std::vector<CommandTiming> Totals; ///< the folded events, by label in first-launch order
  std::string LabelOverride;
  std::set<ProgramRequest> Requested;
  ProgramCounts Programs;
  std::uint64_t ProgramsOnDemand = 0;
  double ProgramMilliseconds = 0.0;
};

template <typename T>
DeviceBuffer<T> DeviceRun::allocate(std::size_t count, const std::string& what)
{
  if (count > SIZE_MAX / sizeof(T))
  {
    throw Error("buffer '" + what + "' of " + std::to_string(count) + " elements overflows size_t");
  }
  // OpenCL refuses empty buffers: an empty DeviceBuffer still owns one element.
  const std::size_t bytes = allocationBytes((count ? count : 1) * sizeof(T));
  cl::Buffer buffer = createBuffer(bytes, what);
  Counters->allocated(bytes);
  Device->counters()->allocated(bytes);
  return DeviceBuffer<T>(std::move(buffer), count, bytes, Counters, Device->counters(), poolFor(bytes));
}

template <typename T>
DeviceBuffer<T> DeviceRun::upload(const T* data, std::size_t count, const std::string& what)
{
  DeviceBuffer<T> buffer = allocate<T>(count, what);
  if (count)
  {
    transfer(buffer.handle(), const_cast<T*>(data), count * sizeof(T), true, what);
  }
  return buffer;
}

template <typename T>
DeviceBuffer<T> DeviceRun::borrow(const T* data, std::size_t count, const std::string& what, std::size_t alignment)
{
  cl::Buffer inPlace = inPlaceBuffer(data, count, sizeof(T), alignment, what);
  if (inPlace())
  {
    // No device memory of its own: nothing to count as allocated.
    return DeviceBuffer<T>(std::move(inPlace), count, 0, nullptr, nullptr);
  }
  return upload(data, count, what);
}

template <typename T>
void DeviceRun::download(const DeviceBuffer<T>& buffer, T* out, std::size_t count, const std::string& what)
{
  if (count > buffer.size())
  {
    throw Error("downloading " + std::to_string(count) + " elements of " + what + ", which holds " +
      std::to_string(buffer.size()));
  }
  if (count)
  {
    transfer(buffer.handle(), out, count * sizeof(T), false, what);
  }
}

template <typename T>
void DeviceRun::fill(DeviceBuffer<T>& buffer, const T& value, const std::string& what)
{
  if (buffer.empty())
  {
    return;
  }
  fillBytes(buffer.handle(), value, buffer.bytes(), what);
}

template <typename T>
void DeviceRun::copy(const DeviceBuffer<T>& from, DeviceBuffer<T>& to, std::size_t count,
  const std::string& what, std::size_t toOffset)
{
  if (count > from.size() || toOffset + count > to.size())
  {
    throw Error("copying " + std::to_string(count) + " elements of " + what + " between buffers of " +
      std::to_string(from.size()) + " and " + std::to_string(to.size()));
  }
  if (count == 0)
  {
    return;
  }
  copyBytes(from.handle(), to.handle(), toOffset * sizeof(T), count * sizeof(T), what);
}

template <typename Pattern>
void DeviceRun::fillBytes(const cl::Buffer& buffer, const Pattern& value, std::size_t bytes, const std::string& what)
{
  cl::Event event;
  checkEnqueue(Device->queue().enqueueFillBuffer(buffer, value, 0, bytes, nullptr, &event), "Filling " + what);
  record("fill " + what, CommandTiming::Kind::Kernel, event);
}

template <typename T>
void DeviceRun::setArgument(cl::Kernel& kernel, cl_uint& index, const T& value)
{
  if constexpr (detail::SpreadsOverKernelArguments<T>::value)
  {
    spreadKernelArguments(value, [&](const auto& part) { setArgument(kernel, index, part); });
  }
  else
  {
    setSingleArgument(kernel, index, value);
  }
}

template <typename T>
void DeviceRun::setSingleArgument(cl::Kernel& kernel, cl_uint& index, const T& value)
{
  const cl_int status = kernel.setArg(index, argument(value));
  if (status != CL_SUCCESS)
  {
    throw Error("setting argument " + std::to_string(index) + " of kernel '" +
        kernel.getInfo<CL_KERNEL_FUNCTION_NAME>() + "'",
      status);
  }
  ++index;
}

inline void DeviceRun::setArgument(cl::Kernel& kernel, cl_uint& index, const RealValue& real)
{
  if (real.precision == Precision::Double)
    setArgument(kernel, index, cl_double(real.value));
  else
    setArgument(kernel, index, static_cast<cl_float>(real.value));
}

template <typename... Args>
void DeviceRun::setArgumentsFrom(cl::Kernel& kernel, cl_uint first, const Args&... args)
{
  cl_uint index = first;
  (setArgument(kernel, index, args), ...);
}

} // namespace gpumesh
