#include "gpumesh/runtime/DeviceContext.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/KernelSources.h"

#include <algorithm>
#include <sstream>
#include <thread>
#include <tuple>

namespace gpumesh
{

namespace
{
std::string identityOf(const cl::Device& device)
{
  // Everything a driver's binary may depend on besides the program: a new driver or another
  // device of the same platform never gets an old binary.
  const cl::Platform platform(device.getInfo<CL_DEVICE_PLATFORM>());
  return "platform: " + platform.getInfo<CL_PLATFORM_NAME>() + " " + platform.getInfo<CL_PLATFORM_VERSION>() +
    "\ndevice: " + device.getInfo<CL_DEVICE_NAME>() + " " + device.getInfo<CL_DEVICE_VERSION>() +
    "\ndriver: " + device.getInfo<CL_DRIVER_VERSION>() + "\nbits: " +
    std::to_string(device.getInfo<CL_DEVICE_ADDRESS_BITS>());
}
} // namespace


DeviceContext::DeviceContext(const DeviceInfo& info, const cl::Device& device)
  : Info(info)
  , Device(device)
{
  cl_int status = CL_SUCCESS;
  Context = cl::Context(Device, nullptr, nullptr, nullptr, &status);
  check(status, "creating an OpenCL context on device '" + Info.label() + "'");
  Queue = cl::CommandQueue(Context, Device, CL_QUEUE_PROFILING_ENABLE, &status);
  check(status, "creating a command queue on device '" + Info.label() + "'");
  Staging = std::make_unique<StagingArea>(Context, Queue, defaultStagingChunkBytes);
  Kept = std::make_unique<KeptDeviceData>(Info.globalMemoryBytes / 4);
  LargeBuffers = std::make_shared<BufferPool>(Info.isGPU ? Info.globalMemoryBytes / 8 : 0, BufferPool::Kind::Large);
  StagingThreshold = Info.isGPU ? std::size_t(1) << 20 : SIZE_MAX;
  DeviceIdentity = identityOf(Device);
  BinaryCache = ProgramBinaryCache::fromEnvironment();
}

std::shared_ptr<DeviceContext> DeviceContext::acquire(const std::string& spec)
{
  return acquire(selectDevice(spec));
}

std::shared_ptr<DeviceContext> DeviceContext::acquire(const DeviceInfo& info)
{
  // Deliberately never destroyed: OpenCL drivers may already be unloaded when static objects
  // die at process exit, and releasing a context then crashes some of them.
  static auto* mutex = new std::mutex;
  // By device and, for a part of one, its compute units.
  static auto* contexts = new std::map<std::tuple<int, int, int>, std::shared_ptr<DeviceContext>>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto& slot = (*contexts)[{ info.index, info.firstComputeUnit, info.isPart() ? info.computeUnits : 0 }];
  if (!slot)
  {
    slot = std::make_shared<DeviceContext>(info, openDevice(info));
  }
  return slot;
}

void DeviceContext::setStaging(std::size_t thresholdBytes, std::size_t chunkBytes)
{
  StagingThreshold = thresholdBytes;
  Staging = std::make_unique<StagingArea>(Context, Queue, chunkBytes);
}

void DeviceContext::setBinaryCache(ProgramBinaryCache cache)
{
  std::lock_guard<std::mutex> lock(ProgramsMutex);
  BinaryCache = std::move(cache);
}

cl::Program DeviceContext::program(const std::string& name, const std::string& options, ProgramCounts* counts)
{
  const std::string key = name + '\n' + options;
  std::promise<cl::Program> promise;
  {
    std::unique_lock<std::mutex> lock(ProgramsMutex);
    auto found = Programs.find(key);
    if (found != Programs.end())
    {
      std::shared_future<cl::Program> built = found->second;
      lock.unlock();
      return built.get(); // waits while another thread builds it
    }
    Programs.emplace(key, promise.get_future().share());
  }
  // Built outside the lock, so that other programs build meanwhile.
  try
  {
    cl::Program program = build(programSource(name), options, kernelPath(name), counts);
    promise.set_value(program);
    return program;
  }
  catch (...)
  {
    // Not kept: a later call tries again (and throws again).
    promise.set_exception(std::current_exception());
    std::lock_guard<std::mutex> lock(ProgramsMutex);
    Programs.erase(key);
    throw;
  }
}

void DeviceContext::buildPrograms(const std::vector<ProgramRequest>& requests, ProgramCounts* counts)
{
  std::vector<ProgramRequest> missing;
  {
    std::lock_guard<std::mutex> lock(ProgramsMutex);
    for (const auto& request : requests)
    {
      if (!Programs.count(request.name + '\n' + request.options))
        missing.push_back(request);
    }
  }
  if (missing.empty())
    return;
  // The largest sources first: the longest builds start at once instead of last, when the other
  // threads have run out of work (a cold GPU Decimation waited on decimation.cl, begun fifth).
  std::vector<std::pair<std::size_t, std::size_t>> bySize;
  for (std::size_t i = 0; i < missing.size(); ++i)
    bySize.emplace_back(programSource(missing[i].name).size(), i);
  std::stable_sort(bySize.begin(), bySize.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<ProgramRequest> ordered;
  for (const auto& entry : bySize)
    ordered.push_back(missing[entry.second]);
  missing.swap(ordered);
  // A few threads: drivers compile each program on one thread, and more would only fight
  // over the cores the caller's host loops need too (NVIDIA's driver, 13 programs truly cold on a
  // 16-core host: 1.4-1.5 s on 4 threads, 1.7 s on 8, 2.4-3.0 s on one).
  const std::size_t threads =
    std::min<std::size_t>({ missing.size(), std::max(2u, std::thread::hardware_concurrency()), 4 });
  std::atomic<std::size_t> next{ 0 };
  std::vector<ProgramCounts> threadCounts(threads);
  std::vector<std::exception_ptr> errors(threads);
  auto work = [&](std::size_t thread) {
    for (std::size_t i = next++; i < missing.size(); i = next++)
    {
      try
      {
        program(missing[i].name, missing[i].options, &threadCounts[thread]);
      }
      catch (...)
      {
        if (!errors[thread])
          errors[thread] = std::current_exception();
      }
    }
  };
  std::vector<std::thread> pool;
  for (std::size_t thread = 1; thread < threads; ++thread)
    pool.emplace_back(work, thread);
  work(0);
  for (auto& thread : pool)
    thread.join();
  for (std::size_t thread = 0; thread < threads; ++thread)
  {
    if (counts)
    {
      counts->built += threadCounts[thread].built;
      counts->fromBinaryCache += threadCounts[thread].fromBinaryCache;
    }
  }
  for (const auto& error : errors)
  {
    if (error)
      std::rethrow_exception(error);
  }
}

std::vector<ProgramRequest> DeviceContext::programsNeededBy(const std::string& user)
{
  std::lock_guard<std::mutex> lock(ProgramsMutex);
  auto found = Needs.find(user);
  if (found != Needs.end())
    return found->second;
  // One "name<TAB>options" line per program, as rememberProgramsNeededBy wrote them.
  std::vector<ProgramRequest> needs;
  std::istringstream lines(BinaryCache.loadNote(DeviceIdentity + "\nneeds of: " + user));
  for (std::string line; std::getline(lines, line);)
  {
    const std::size_t tab = line.find('\t');
    if (tab != std::string::npos)
      needs.push_back({ line.substr(0, tab), line.substr(tab + 1) });
  }
  Needs.emplace(user, needs);
  return needs;
}

void DeviceContext::rememberProgramsNeededBy(const std::string& user, std::vector<ProgramRequest> requests)
{
  // Added to what was remembered before, not put in its place: a larger mesh (or another
  // property) may need a program a smaller one did not, and the next session should build both.
  const std::vector<ProgramRequest> remembered = programsNeededBy(user);
  for (const auto& request : remembered)
  {
    try
    {
      kernelPath(request.name); // a program of an older version of the kernels is forgotten
      requests.push_back(request);
    }
    catch (const Error&)
    {
    }
  }
  std::sort(requests.begin(), requests.end());
  requests.erase(std::unique(requests.begin(), requests.end()), requests.end());
  if (remembered == requests)
    return;
  // A first line without a tab, which the reader skips: whose list it is and on what kind of
  // device, for testing/benchmark/collect_first_use_programs.py.
  std::string text = "# " + std::string(Info.isGPU ? "gpu" : Info.isCPU ? "cpu" : "accelerator") + " " + user + '\n';
  for (const auto& request : requests)
  {
    if (request.name.find_first_of("\t\n") == std::string::npos &&
      request.options.find('\n') == std::string::npos)
      text += request.name + '\t' + request.options + '\n';
  }
  std::lock_guard<std::mutex> lock(ProgramsMutex);
  Needs[user] = requests;
  BinaryCache.storeNote(DeviceIdentity + "\nneeds of: " + user, text);
}

cl::Program DeviceContext::generatedProgram(const std::string& source, const std::string& options,
  const std::string& what, bool* compiled, ProgramCounts* counts)
{
  const std::string key = options + '\n' + source;
  std::lock_guard<std::mutex> lock(GeneratedMutex);
  auto found = GeneratedByKey.find(key);
  if (compiled)
  {
    *compiled = found == GeneratedByKey.end();
  }
  if (found != GeneratedByKey.end())
  {
    GeneratedPrograms.splice(GeneratedPrograms.begin(), GeneratedPrograms, found->second);
    return found->second->second;
  }
  cl::Program program = build(source, options, what, counts);
  GeneratedPrograms.emplace_front(key, program);
  GeneratedByKey.emplace(key, GeneratedPrograms.begin());
  evictGeneratedPrograms();
  return program;
}

void DeviceContext::setGeneratedProgramLimit(std::size_t limit)
{
  std::lock_guard<std::mutex> lock(GeneratedMutex);
  GeneratedProgramLimit = std::max<std::size_t>(limit, 1);
  evictGeneratedPrograms();
}

std::size_t DeviceContext::generatedProgramCount()
{
  std::lock_guard<std::mutex> lock(GeneratedMutex);
  return GeneratedPrograms.size();
}

void DeviceContext::evictGeneratedPrograms()
{
  // A kernel made from an evicted program keeps it alive (OpenCL reference counts).
  while (GeneratedPrograms.size() > GeneratedProgramLimit)
  {
    GeneratedByKey.erase(GeneratedPrograms.back().first);
    GeneratedPrograms.pop_back();
  }
}

cl::Program DeviceContext::build(
  const std::string& source, const std::string& options, const std::string& what, ProgramCounts* counts)
{
  const std::string buildOptions = "-cl-std=CL1.2 " + options;
  ProgramBinaryCache cache;
  {
    std::lock_guard<std::mutex> lock(ProgramsMutex);
    cache = BinaryCache;
  }
  const std::string key = cache.enabled() ? ProgramBinaryCache::key(DeviceIdentity, buildOptions, source) : "";
  // Moved, not copied, into the driver's list: a copy of every binary (about 200 KB each on
  // PoCL) is fresh memory, a page fault per 4 KiB, in every fresh process.
  cl::Program::Binaries binaries(1);
  binaries[0] = cache.load(key);
  if (!binaries[0].empty())
  {
    // A binary the driver rejects (another driver build, a damaged file) is built from source.
    std::vector<cl_int> binaryStatus;
    cl_int status = CL_SUCCESS;
    cl::Program program(Context, { Device }, binaries, &binaryStatus, &status);
    if (status == CL_SUCCESS && binaryStatus == std::vector<cl_int>{ CL_SUCCESS } &&
      program.build({ Device }, buildOptions.c_str()) == CL_SUCCESS)
    {
      ++ProgramsFromBinaryCache;
      if (counts)
        ++counts->fromBinaryCache;
      return program;
    }
  }
  cl_int status = CL_SUCCESS;
  cl::Program program(Context, source, false, &status);
  check(status, "creating program " + what);
  status = program.build({ Device }, buildOptions.c_str());
  ++ProgramsBuilt;
  if (counts)
    ++counts->built;
  if (status != CL_SUCCESS)
  {
    std::string log;
    program.getBuildInfo(Device, CL_PROGRAM_BUILD_LOG, &log);
    throw Error("compiling " + what + " for device '" + Info.label() + "' with options '" + buildOptions + "'",
      status, log);
  }
  if (cache.enabled())
  {
    std::vector<std::vector<unsigned char>> binaries;
    if (program.getInfo(CL_PROGRAM_BINARIES, &binaries) == CL_SUCCESS && binaries.size() == 1)
      cache.store(key, binaries[0]);
  }
  return program;
}

std::size_t DeviceContext::workGroupSize(std::size_t preferred) const
{
  std::size_t size = 1;
  while (size * 2 <= preferred && size * 2 <= Info.maxWorkGroupSize)
  {
    size *= 2;
  }
  return size;
}

} // namespace gpumesh
