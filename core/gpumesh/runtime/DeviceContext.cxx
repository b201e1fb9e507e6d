#include "gpumesh/runtime/DeviceContext.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/KernelSources.h"

#include <algorithm>

namespace gpumesh
{


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
  StagingThreshold = Info.isGPU ? std::size_t(16) << 20 : SIZE_MAX;
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
  static auto* contexts = new std::map<int, std::shared_ptr<DeviceContext>>;
  std::lock_guard<std::mutex> lock(*mutex);
  auto& slot = (*contexts)[info.index];
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

cl::Program DeviceContext::program(const std::string& name, const std::string& options)
{
  const std::string key = name + '\n' + options;
  std::lock_guard<std::mutex> lock(ProgramsMutex);
  auto found = Programs.find(key);
  if (found != Programs.end())
  {
    return found->second;
  }
  cl::Program program = build(programSource(name), options, kernelPath(name));
  Programs.emplace(key, program);
  return program;
}

cl::Program DeviceContext::generatedProgram(
  const std::string& source, const std::string& options, const std::string& what, bool* compiled)
{
  const std::string key = options + '\n' + source;
  std::lock_guard<std::mutex> lock(ProgramsMutex);
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
  cl::Program program = build(source, options, what);
  GeneratedPrograms.emplace_front(key, program);
  GeneratedByKey.emplace(key, GeneratedPrograms.begin());
  evictGeneratedPrograms();
  return program;
}

void DeviceContext::setGeneratedProgramLimit(std::size_t limit)
{
  std::lock_guard<std::mutex> lock(ProgramsMutex);
  GeneratedProgramLimit = std::max<std::size_t>(limit, 1);
  evictGeneratedPrograms();
}

std::size_t DeviceContext::generatedProgramCount()
{
  std::lock_guard<std::mutex> lock(ProgramsMutex);
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

cl::Program DeviceContext::build(const std::string& source, const std::string& options, const std::string& what)
{
  cl_int status = CL_SUCCESS;
  cl::Program program(Context, source, false, &status);
  check(status, "creating program " + what);
  const std::string buildOptions = "-cl-std=CL1.2 " + options;
  status = program.build({ Device }, buildOptions.c_str());
  ++ProgramsBuilt;
  if (status != CL_SUCCESS)
  {
    std::string log;
    program.getBuildInfo(Device, CL_PROGRAM_BUILD_LOG, &log);
    throw Error("compiling " + what + " for device '" + Info.label() + "' with options '" + buildOptions + "'",
      status, log);
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
