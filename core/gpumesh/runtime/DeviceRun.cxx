#include "gpumesh/runtime/DeviceRun.h"

#include "gpumesh/runtime/HostMemory.h"
#include "gpumesh/runtime/KernelSources.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

namespace gpumesh
{

DeviceRun::DeviceRun(std::shared_ptr<DeviceContext> device, Precision precision)
  : Device(std::move(device))
  , Real(precision)
  // At most 1/16 of the device's memory, and 256 MiB, kept for reuse.
  , Pool(std::make_shared<BufferPool>(std::min<std::uint64_t>(std::uint64_t(256) << 20, Device->info().globalMemoryBytes / 16)))
{
  if (Real == Precision::Double && !info().hasDoublePrecision)
  {
    throw Error("Device '" + info().label() +
      "' has no double precision (cl_khr_fp64): set Precision to Single, or choose another device");
  }
  if (const std::string folder = CommandTrace::folderFromEnvironment(); !folder.empty())
    Trace = std::make_unique<CommandTrace>(folder);
}

RealBuffer DeviceRun::allocateReal(std::size_t count, const std::string& what)
{
  if (count > SIZE_MAX / sizeof(double))
  {
    throw Error("buffer '" + what + "' of " + std::to_string(count) + " values overflows size_t");
  }
  return RealBuffer(allocate<cl_uchar>(count * realSize(Real), what), count, Real);
}

RealBuffer DeviceRun::uploadReal(const float* data, std::size_t count, const std::string& what)
{
  if (Real == Precision::Single)
  {
    RealBuffer buffer = allocateReal(count, what);
    if (count)
      transfer(buffer.handle(), const_cast<float*>(data), count * sizeof(float), true, what);
    return buffer;
  }
  // Widening is exact: do it where the values already are, after the smaller upload.
  DeviceBuffer<float> narrow = upload(data, count, what + " (float)");
  RealBuffer buffer = allocateReal(count, what);
  call({ "convert", "float_to_real" }, count, "widen " + what, narrow, static_cast<cl_ulong>(count), buffer);
  return buffer;
}

RealBuffer DeviceRun::uploadReal(const double* data, std::size_t count, const std::string& what)
{
  RealBuffer buffer = allocateReal(count, what);
  if (count == 0)
    return buffer;
  if (Real == Precision::Double)
  {
    transfer(buffer.handle(), const_cast<double*>(data), count * sizeof(double), true, what);
    return buffer;
  }
  std::vector<float> narrow(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    narrow[i] = static_cast<float>(data[i]);
    if (std::isinf(narrow[i]) && std::isfinite(data[i]))
    {
      throw Error(what + " holds " + formatNumber(data[i]) + " at index " + std::to_string(i) +
        ", outside the range of single precision: set Precision to Double");
    }
  }
  transfer(buffer.handle(), narrow.data(), count * sizeof(float), true, what);
  return buffer;
}

template <typename Host>
RealBuffer DeviceRun::borrowRealValues(const Host* data, std::size_t count, const std::string& what)
{
  if (realSize(Real) == sizeof(Host) && count <= SIZE_MAX / sizeof(Host))
  {
    DeviceBuffer<cl_uchar> bytes = borrow(reinterpret_cast<const cl_uchar*>(data), count * sizeof(Host), what, alignof(Host));
    return RealBuffer(std::move(bytes), count, Real);
  }
  return uploadReal(data, count, what);
}

RealBuffer DeviceRun::borrowReal(const float* data, std::size_t count, const std::string& what)
{
  return borrowRealValues(data, count, what);
}

RealBuffer DeviceRun::borrowReal(const double* data, std::size_t count, const std::string& what)
{
  return borrowRealValues(data, count, what);
}

template <typename Host>
void DeviceRun::downloadConverted(const RealBuffer& buffer, Host* out, std::size_t count, const std::string& what)
{
  if (count > buffer.size())
  {
    throw Error("downloading " + std::to_string(count) + " values of " + what + ", which holds " +
      std::to_string(buffer.size()));
  }
  if (count == 0)
    return;
  if (realSize(buffer.precision()) == sizeof(Host))
  {
    transfer(buffer.handle(), out, count * sizeof(Host), false, what);
    return;
  }
  if (buffer.precision() == Precision::Double)
  {
    std::vector<double> values(count);
    transfer(buffer.handle(), values.data(), count * sizeof(double), false, what);
    std::copy(values.begin(), values.end(), out);
  }
  else
  {
    std::vector<float> values(count);
    transfer(buffer.handle(), values.data(), count * sizeof(float), false, what);
    std::copy(values.begin(), values.end(), out);
  }
}

void DeviceRun::download(const RealBuffer& buffer, float* out, std::size_t count, const std::string& what)
{
  downloadConverted(buffer, out, count, what);
}

void DeviceRun::download(const RealBuffer& buffer, double* out, std::size_t count, const std::string& what)
{
  downloadConverted(buffer, out, count, what);
}

void DeviceRun::fillReal(RealBuffer& buffer, double value, const std::string& what)
{
  if (buffer.empty())
    return;
  if (buffer.precision() == Precision::Double)
    fillBytes(buffer.handle(), cl_double(value), buffer.bytes(), what);
  else
    fillBytes(buffer.handle(), cl_float(value), buffer.bytes(), what);
}

DeviceRun::~DeviceRun()
{
  // Commands may still reference buffers that die with the run's owner: let them complete.
  Device->queue().finish();
  if (Trace)
    Trace->write();
  Pool->close();
}

namespace
{
// "268435456 bytes (256 MiB)"
std::string describeBytes(std::uint64_t bytes)
{
  const double mebibytes = static_cast<double>(bytes) / (1 << 20);
  char text[32];
  if (mebibytes >= 1024)
    std::snprintf(text, sizeof(text), "%.3g GiB", mebibytes / 1024);
  else
    std::snprintf(text, sizeof(text), mebibytes >= 100 ? "%.0f MiB" : "%.3g MiB", mebibytes);
  return std::to_string(bytes) + " bytes (" + text + ")";
}

// The statuses with which drivers say that memory or resources ran out (NVIDIA's allocate at
// the first command that uses a buffer, so an enqueue can fail with them too).
bool outOfMemoryStatus(int status)
{
  return status == CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL_OUT_OF_RESOURCES ||
    status == CL_OUT_OF_HOST_MEMORY || status == CL_INVALID_BUFFER_SIZE;
}
} // namespace

void DeviceRun::outOfMemory(const std::string& subject, std::uint64_t bytes, const std::string& why, int clCode)
{
  const DeviceInfo& device = info();
  throw Error(subject + (bytes ? " needs " + describeBytes(bytes) : std::string()) + " on device '" + device.label() +
      "'" + why + ". The device has " + describeBytes(device.globalMemoryBytes) +
      " of global memory and allocates at most " + describeBytes(device.maxAllocationBytes) +
      " in one buffer; this process holds " + describeBytes(Device->counters()->memoryInUse()) +
      " on it. Use a smaller mesh (or split it over more MPI processes), or choose another device",
    clCode);
}

void DeviceRun::checkEnqueue(int status, const std::string& doing)
{
  if (outOfMemoryStatus(status))
    outOfMemory(doing, 0, " ran out of its memory or resources", status);
  check(status, doing + " on device '" + info().label() + "'");
}

void DeviceRun::requireMemory(std::uint64_t bytes, const std::string& what)
{
  const std::uint64_t global = info().globalMemoryBytes;
  const auto fits = [&] {
    const std::uint64_t inUse =
      Device->counters()->memoryInUse() + Pool->bytesHeld() + Device->largeBuffers()->bytesHeld();
    return bytes <= global && inUse <= global - bytes;
  };
  if (fits())
    return;
  // The memory of buffers kept for reuse first, then of data kept for later runs (whose
  // buffers go to the pools when dropped).
  Device->largeBuffers()->clear();
  Pool->clear();
  if (fits())
    return;
  Device->kept().clear();
  Device->largeBuffers()->clear();
  Pool->clear();
  if (!fits())
    outOfMemory(what, bytes, ", more than its global memory leaves");
}

std::size_t DeviceRun::allocationBytes(std::size_t bytes) const
{
  const std::size_t pooled = BufferPool::allocationBytes(bytes);
  return pooled <= info().maxAllocationBytes ? pooled : bytes;
}

const std::shared_ptr<BufferPool>& DeviceRun::poolFor(std::size_t bytes) const
{
  return Device->largeBuffers()->keeps(bytes) ? Device->largeBuffers() : Pool;
}

cl::Buffer DeviceRun::createBuffer(std::size_t bytes, const std::string& what)
{
  const double begin = Trace ? CommandTrace::now() : 0.0;
  cl::Buffer buffer = poolFor(bytes)->take(bytes);
  const bool kept = buffer() != nullptr;
  if (!kept)
    buffer = newBuffer(bytes, what);
  if (Trace)
    Trace->allocation(what, bytes, kept, begin);
  return buffer;
}

cl::Buffer DeviceRun::newBuffer(std::size_t bytes, const std::string& what)
{
  const DeviceInfo& device = info();
  if (bytes > device.maxAllocationBytes)
  {
    outOfMemory("'" + what + "'", bytes, ", more than its largest allocation");
  }
  requireMemory(bytes, "'" + what + "'");
  const std::string doing =
    "allocating " + std::to_string(bytes) + " bytes for '" + what + "' on device '" + device.label() + "'";
  cl_int status = CL_SUCCESS;
  if (device.isGPU)
  {
    cl::Buffer buffer(Device->context(), CL_MEM_READ_WRITE, bytes, nullptr, &status);
    if (outOfMemoryStatus(status))
      outOfMemory("'" + what + "'", bytes, ", which failed to allocate it", status);
    check(status, doing);
    return buffer;
  }
  // A CPU device's buffers are host memory: give it memory in huge pages, whose first touch
  // costs a fault per 2 MiB instead of per 4 KiB, reused from freed buffers where it can be
  // (touched memory needs no fault at all). PoCL's own allocations come in small pages, which
  // made page faults most of a refinement's time there.
  void* memory = allocateHostMemory(bytes);
  if (!memory)
  {
    outOfMemory("'" + what + "'", bytes, ", whose memory is the host's, which has no more");
  }
  cl::Buffer buffer(Device->context(), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, memory, &status);
  if (status != CL_SUCCESS)
  {
    freeHostMemory(memory);
    if (outOfMemoryStatus(status))
      outOfMemory("'" + what + "'", bytes, ", which failed to allocate it", status);
    check(status, doing);
  }
  // Freed when the runtime lets the buffer go (after every command that uses it).
  status = clSetMemObjectDestructorCallback(
    buffer(), [](cl_mem, void* owned) { freeHostMemory(owned); }, memory);
  if (status != CL_SUCCESS)
  {
    buffer = cl::Buffer(); // no command has used it yet
    freeHostMemory(memory);
    check(status, "registering the release of the host memory of '" + what + "' on device '" + device.label() + "'");
  }
  return buffer;
}

cl::Buffer DeviceRun::inPlaceBuffer(
  const void* data, std::size_t count, std::size_t elementSize, std::size_t alignment, const std::string& what)
{
  if (info().isGPU || count == 0 || count > SIZE_MAX / elementSize ||
    reinterpret_cast<std::uintptr_t>(data) % alignment != 0)
  {
    return cl::Buffer();
  }
  const std::size_t bytes = count * elementSize;
  // Read in place or not, a buffer is one allocation to the device: its limit holds.
  if (bytes > info().maxAllocationBytes)
  {
    outOfMemory("'" + what + "'", bytes, ", more than its largest allocation");
  }
  cl_int status = CL_SUCCESS;
  // The runtime never writes a read-only buffer back, so the const_cast stays a promise.
  cl::Buffer buffer(Device->context(), CL_MEM_READ_ONLY | CL_MEM_USE_HOST_PTR, bytes, const_cast<void*>(data), &status);
  if (outOfMemoryStatus(status))
    outOfMemory("'" + what + "'", bytes, ", which failed to read it in place", status);
  check(status, "using " + std::to_string(bytes) + " bytes of host memory for '" + what + "' on device '" +
      info().label() + "'");
  Counters->readInPlace(bytes);
  Device->counters()->readInPlace(bytes);
  return buffer;
}

void DeviceRun::transfer(const cl::Buffer& buffer, void* host, std::size_t bytes, bool toDevice, const std::string& what)
{
  const std::string doing = toDevice ? "uploading " + what + " to device '" + info().label() + "'"
                                     : "downloading " + what + " from device '" + info().label() + "'";
  const auto kind = toDevice ? CommandTiming::Kind::Upload : CommandTiming::Kind::Download;
  const double begin = Trace ? CommandTrace::now() : 0.0;
  const std::string label = (toDevice ? "upload " : "download ") + what;
  std::vector<cl::Event> events;
  try
  {
    if (bytes >= Device->stagingThreshold())
    {
      events = toDevice ? Device->staging().upload(buffer, 0, host, bytes)
                        : Device->staging().download(buffer, 0, host, bytes);
    }
    else
    {
      cl::Event event;
      const cl_int status = toDevice ? Device->queue().enqueueWriteBuffer(buffer, CL_TRUE, 0, bytes, host, nullptr, &event)
                                     : Device->queue().enqueueReadBuffer(buffer, CL_TRUE, 0, bytes, host, nullptr, &event);
      if (outOfMemoryStatus(status))
        outOfMemory(toDevice ? "Uploading '" + what + "'" : "Downloading '" + what + "'", bytes,
          " ran out of its memory or resources", status);
      check(status, doing);
      events.push_back(event);
    }
  }
  catch (const Error& error)
  {
    throw Error(doing + ": " + error.what()); // what() already names the OpenCL error
  }
  for (const auto& event : events)
  {
    TraceBegin = begin; // each chunk's enqueue is within the transfer's
    record(label, kind, event);
  }
  (toDevice ? Counters->uploaded(bytes) : Counters->downloaded(bytes));
  (toDevice ? Device->counters()->uploaded(bytes) : Device->counters()->downloaded(bytes));
}

bool DeviceRun::staged(std::size_t bytes) const
{
  return bytes >= Device->stagingThreshold();
}

DeviceBuffer<cl_int> DeviceRun::uploadNarrowed(const cl_long* data, std::size_t count, const std::string& what)
{
  const std::size_t bytes = count * sizeof(cl_int);
  if (!staged(bytes))
  {
    std::vector<cl_int> narrowed(count);
    narrowSaturated(narrowed.data(), data, count);
    return upload(narrowed.data(), count, what);
  }
  DeviceBuffer<cl_int> buffer = allocate<cl_int>(count, what);
  std::vector<cl::Event> events;
  const double begin = Trace ? CommandTrace::now() : 0.0;
  try
  {
    events = Device->staging().uploadNarrowed(buffer.handle(), data, count);
  }
  catch (const Error& error)
  {
    throw Error("uploading " + what + " to device '" + info().label() + "': " + error.what());
  }
  for (const auto& event : events)
  {
    TraceBegin = begin;
    record("upload " + what, CommandTiming::Kind::Upload, event);
  }
  Counters->uploaded(bytes);
  Device->counters()->uploaded(bytes);
  return buffer;
}

void DeviceRun::copyReal(const RealBuffer& from, RealBuffer& to, std::size_t count, const std::string& what,
  std::size_t toOffset)
{
  if (count > from.size() || toOffset + count > to.size() || from.precision() != to.precision())
  {
    throw Error("copying " + std::to_string(count) + " values of " + what + " between buffers of " +
      std::to_string(from.size()) + " and " + std::to_string(to.size()) + " values");
  }
  if (count == 0)
    return;
  const std::size_t size = realSize(from.precision());
  copyBytes(from.handle(), to.handle(), toOffset * size, count * size, what);
}

void DeviceRun::copyBytes(const cl::Buffer& from, const cl::Buffer& to, std::size_t toOffsetBytes,
  std::size_t bytes, const std::string& what)
{
  cl::Event event;
  checkEnqueue(Device->queue().enqueueCopyBuffer(from, to, 0, toOffsetBytes, bytes, nullptr, &event), "Copying " + what);
  record("copy " + what, CommandTiming::Kind::Kernel, event);
}

void DeviceRun::buildPrograms(const std::vector<ProgramRequest>& programs)
{
  const auto start = std::chrono::steady_clock::now();
  Device->buildPrograms(programs, &Programs);
  ProgramMilliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

void DeviceRun::buildProgramsNeededBy(const std::string& user, const std::vector<ProgramRequest>& firstUse)
{
  try
  {
    const std::vector<ProgramRequest> remembered = Device->programsNeededBy(user);
    buildPrograms(remembered.empty() ? firstUse : remembered);
  }
  catch (const std::exception&)
  {
    // A list from an older version of the kernels; the run rebuilds what it really needs.
  }
}

void DeviceRun::rememberProgramsNeededBy(const std::string& user)
{
  Device->rememberProgramsNeededBy(user, programsRequested());
}

cl::Kernel DeviceRun::kernel(const std::string& program, const std::string& name, const std::string& options)
{
  cl_int status = CL_SUCCESS;
  const std::string withReal = Real == Precision::Double ? options + " -DREAL_DOUBLE=1" : options;
  Requested.insert({ program, withReal });
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t madeBefore = Programs.built + Programs.fromBinaryCache;
  cl::Program built = Device->program(program, withReal, &Programs);
  if (Programs.built + Programs.fromBinaryCache != madeBefore)
    ++ProgramsOnDemand;
  ProgramMilliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  cl::Kernel kernel(built, name.c_str(), &status);
  check(status, "creating kernel '" + name + "' of " + kernelPath(program));
  return kernel;
}

cl::Program DeviceRun::generatedProgram(
  const std::string& source, const std::string& what, bool* compiled, const std::string& options)
{
  // In a float run a literal such as 0.5 is a float too, so user-written `0.5 * v` compiles
  // for REAL3 v in either precision.
  const std::string precision = Real == Precision::Double ? "-DREAL_DOUBLE=1" : "-cl-single-precision-constant";
  const auto start = std::chrono::steady_clock::now();
  cl::Program program =
    Device->generatedProgram(source, options.empty() ? precision : precision + " " + options, what, compiled, &Programs);
  ProgramMilliseconds += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return program;
}

std::size_t DeviceRun::groupSize(const cl::Kernel& kernel)
{
  // Left to itself a driver picks a divisor of the global size, which can be 1 or 2 for sizes
  // such as 2 x prime; and PoCL compiles a kernel anew for every work-group size it meets (the
  // first run on a mesh of a new size spent 5 s compiling at 1M triangles). So: one full
  // work-group size per kernel, and the range rounded up to it (every kernel checks its index
  // against its count).
  std::size_t kernelLimit = 0;
  kernel.getWorkGroupInfo(Device->device(), CL_KERNEL_WORK_GROUP_SIZE, &kernelLimit);
  return Device->workGroupSize(std::min<std::size_t>(256, kernelLimit ? kernelLimit : 256));
}

std::size_t DeviceRun::groupSize(const BoundKernel& bound)
{
  return groupSize(bound.kernel);
}

DeviceRun::CallableKernel& DeviceRun::callableKernel(const KernelName& name)
{
  std::string key = name.program;
  key += '\n';
  key += name.function;
  key += '\n';
  key += name.options;
  auto found = Callable.find(key);
  if (found == Callable.end())
  {
    CallableKernel created{ kernel(name.program, name.function, name.options) };
    created.group = groupSize(created.kernel);
    found = Callable.emplace(std::move(key), std::move(created)).first;
  }
  return found->second;
}

void DeviceRun::launch(cl::Kernel& kernel, LaunchRange range, const std::string& label, std::size_t group)
{
  if (range.global == 0)
  {
    return;
  }
  if (range.local == 0)
  {
    range.local = group ? group : groupSize(kernel);
    range.global = (range.global + range.local - 1) / range.local * range.local;
  }
  if (Trace)
    TraceBegin = CommandTrace::now();
  cl::Event event;
  const cl::NDRange offset = range.offset ? cl::NDRange(range.offset) : cl::NullRange;
  const cl_int status = Device->queue().enqueueNDRangeKernel(
    kernel, offset, cl::NDRange(range.global), cl::NDRange(range.local), nullptr, &event);
  checkEnqueue(status, "Launching '" + label + "' over " + std::to_string(range.global) + " work-items");
  record(label, CommandTiming::Kind::Kernel, event);
}

void DeviceRun::record(const std::string& label, CommandTiming::Kind kind, const cl::Event& event)
{
  if (Trace)
  {
    static const char* const kinds[] = { "kernel", "upload", "download" };
    const double begin = TraceBegin >= 0 ? TraceBegin : CommandTrace::now();
    TraceBegin = -1;
    Trace->command(LabelOverride.empty() ? label : LabelOverride + ": " + label, kinds[static_cast<int>(kind)], begin, event);
  }
  Events.push_back({ LabelOverride.empty() ? label : LabelOverride, kind, event });
  if (Events.size() >= 2 * foldBatch)
  {
    fold(foldBatch);
  }
}

void DeviceRun::fold(std::size_t count)
{
  if (count == 0)
  {
    return; // clWaitForEvents refuses an empty list
  }
  std::vector<cl::Event> oldest;
  oldest.reserve(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    oldest.push_back(Events[i].event);
  }
  check(cl::Event::waitForEvents(oldest), "waiting for commands on device '" + info().label() + "'");
  for (std::size_t i = 0; i < count; ++i)
  {
    const RecordedEvent& recorded = Events[i];
    cl_ulong start = 0;
    cl_ulong end = 0;
    check(recorded.event.getProfilingInfo(CL_PROFILING_COMMAND_START, &start),
      "reading the start time of '" + recorded.label + "'");
    check(recorded.event.getProfilingInfo(CL_PROFILING_COMMAND_END, &end),
      "reading the end time of '" + recorded.label + "'");
    auto found = std::find_if(Totals.begin(), Totals.end(),
      [&](const CommandTiming& t) { return t.label == recorded.label && t.kind == recorded.kind; });
    if (found == Totals.end())
    {
      Totals.push_back({ recorded.label, recorded.kind, 0.0, 0 });
      found = Totals.end() - 1;
    }
    found->milliseconds += static_cast<double>(end - start) * 1e-6;
    ++found->count;
  }
  Events.erase(Events.begin(), Events.begin() + static_cast<std::ptrdiff_t>(count));
}

void DeviceRun::finish()
{
  check(Device->queue().finish(), "waiting for device '" + info().label() + "'");
}

std::vector<CommandTiming> DeviceRun::timings()
{
  finish();
  fold(Events.size());
  return Totals;
}

double DeviceRun::kernelMilliseconds()
{
  double total = 0.0;
  for (const auto& timing : timings())
  {
    if (timing.kind == CommandTiming::Kind::Kernel)
    {
      total += timing.milliseconds;
    }
  }
  return total;
}

} // namespace gpumesh
