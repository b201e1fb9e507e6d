#include "gpumesh/runtime/Devices.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/runtime/OpenCL.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <mutex>

namespace gpumesh
{

namespace
{
// The ICD loader initialises itself on the first clGetPlatformIDs and is not thread-safe
// while doing so: concurrent first calls can see no platform at all. Serialise discovery.
std::mutex& discoveryMutex()
{
  static std::mutex mutex;
  return mutex;
}

std::string lower(std::string text)
{
  std::transform(text.begin(), text.end(), text.begin(),
    [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

std::string trim(const std::string& text)
{
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos)
  {
    return {};
  }
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

// CLHPP's getInfo<std::string> keeps the terminating NUL of some drivers: drop it.
std::string clean(std::string text)
{
  while (!text.empty() && text.back() == '\0')
  {
    text.pop_back();
  }
  return trim(text);
}

bool allDigits(const std::string& text)
{
  return !text.empty() &&
    std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); });
}

const DeviceInfo& byIndex(const std::vector<DeviceInfo>& devices, const std::string& digits,
  const std::string& spec)
{
  const long index = std::strtol(digits.c_str(), nullptr, 10);
  if (index < 0 || index >= static_cast<long>(devices.size()))
  {
    throw Error("No OpenCL device has index " + digits + " (device spec " + spec +
      "). Devices found:\n" + describeDevices(devices));
  }
  return devices[static_cast<std::size_t>(index)];
}

const DeviceInfo* firstOfType(const std::vector<DeviceInfo>& devices, bool gpu)
{
  const auto found = std::find_if(devices.begin(), devices.end(),
    [gpu](const DeviceInfo& device) { return gpu ? device.isGPU : device.isCPU; });
  return found == devices.end() ? nullptr : &*found;
}

DeviceInfo selectAuto(const std::vector<DeviceInfo>& devices)
{
  if (const DeviceInfo* gpu = firstOfType(devices, true))
  {
    return *gpu;
  }
  if (const DeviceInfo* cpu = firstOfType(devices, false))
  {
    return *cpu;
  }
  return devices.front(); // neither (an accelerator only): whatever exists
}
} // namespace

std::string DeviceInfo::label() const
{
  std::string part;
  if (isPart())
  {
    const int last = firstComputeUnit + computeUnits - 1;
    part = computeUnits == 1 ? ", compute unit " + std::to_string(firstComputeUnit)
                             : ", compute units " + std::to_string(firstComputeUnit) + "-" + std::to_string(last);
    part += " of " + std::to_string(deviceComputeUnits);
  }
  return std::to_string(index) + ": " + name + " (" + (isGPU ? "GPU" : isCPU ? "CPU" : "accelerator") + part + ")";
}

std::vector<DeviceInfo> listDevices()
{
  std::lock_guard<std::mutex> lock(discoveryMutex());
  std::vector<cl::Platform> platforms;
  // CL_PLATFORM_NOT_FOUND_KHR (no ICD at all) simply means "no devices".
  if (cl::Platform::get(&platforms) != CL_SUCCESS)
  {
    return {};
  }
  std::vector<DeviceInfo> result;
  for (std::size_t p = 0; p < platforms.size(); ++p)
  {
    std::vector<cl::Device> devices;
    if (platforms[p].getDevices(CL_DEVICE_TYPE_ALL, &devices) != CL_SUCCESS)
    {
      continue; // a platform without devices (CL_DEVICE_NOT_FOUND) contributes none
    }
    for (std::size_t d = 0; d < devices.size(); ++d)
    {
      const cl::Device& device = devices[d];
      DeviceInfo info;
      info.index = static_cast<int>(result.size());
      info.platformIndex = static_cast<int>(p);
      info.deviceIndexInPlatform = static_cast<int>(d);
      info.name = clean(device.getInfo<CL_DEVICE_NAME>());
      info.platformName = clean(platforms[p].getInfo<CL_PLATFORM_NAME>());
      info.vendor = clean(device.getInfo<CL_DEVICE_VENDOR>());
      info.openclVersion = clean(device.getInfo<CL_DEVICE_VERSION>());
      const cl_device_type type = device.getInfo<CL_DEVICE_TYPE>();
      info.isGPU = (type & CL_DEVICE_TYPE_GPU) != 0;
      info.isCPU = (type & CL_DEVICE_TYPE_CPU) != 0;
      info.hasDoublePrecision = device.getInfo<CL_DEVICE_DOUBLE_FP_CONFIG>() != 0;
      info.computeUnits = static_cast<int>(device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
      info.deviceComputeUnits = info.computeUnits;
      info.maxWorkGroupSize = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
      info.globalMemoryBytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
      info.maxAllocationBytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
      info.localMemoryBytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
      result.push_back(std::move(info));
    }
  }
  return result;
}

cl::Device openDevice(const DeviceInfo& info)
{
  std::lock_guard<std::mutex> lock(discoveryMutex());
  std::vector<cl::Platform> platforms;
  check(cl::Platform::get(&platforms), "listing OpenCL platforms");
  std::vector<cl::Device> devices;
  check(platforms.at(static_cast<std::size_t>(info.platformIndex)).getDevices(CL_DEVICE_TYPE_ALL, &devices),
    "listing the devices of platform '" + info.platformName + "'");
  const cl::Device device = devices.at(static_cast<std::size_t>(info.deviceIndexInPlatform));
  if (!info.isPart())
  {
    return device;
  }
  // The units before the part, the part, the units after it: the part is the sub-device after
  // those before, if any. (Which physical cores run a part is the driver's and the OS's choice;
  // what the partition fixes is how many threads its kernels use.)
  const int after = info.deviceComputeUnits - info.firstComputeUnit - info.computeUnits;
  if (info.firstComputeUnit < 0 || after < 0)
  {
    throw Error("Compute units " + std::to_string(info.firstComputeUnit) + "-" +
      std::to_string(info.firstComputeUnit + info.computeUnits - 1) + " are not within the " +
      std::to_string(info.deviceComputeUnits) + " of device '" + info.name + "'");
  }
  std::vector<cl_device_partition_property> counts = { CL_DEVICE_PARTITION_BY_COUNTS };
  for (int units : { info.firstComputeUnit, info.computeUnits, after })
  {
    if (units > 0)
      counts.push_back(static_cast<cl_device_partition_property>(units));
  }
  counts.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
  counts.push_back(0);
  cl_uint made = 0;
  const std::string doing = "dividing device '" + info.name + "' into parts of " +
    std::to_string(info.computeUnits) + " compute units (clCreateSubDevices)";
  check(clCreateSubDevices(device(), counts.data(), 0, nullptr, &made), doing);
  std::vector<cl_device_id> parts(made);
  check(clCreateSubDevices(device(), counts.data(), made, parts.data(), nullptr), doing);
  const std::size_t mine = info.firstComputeUnit > 0 ? 1 : 0;
  if (mine >= parts.size())
  {
    throw Error(doing + " gave " + std::to_string(parts.size()) + " parts");
  }
  for (std::size_t p = 0; p < parts.size(); ++p)
  {
    if (p != mine)
      clReleaseDevice(parts[p]);
  }
  return cl::Device(parts[mine]); // takes the reference clCreateSubDevices gave
}

std::string describeDevices(const std::vector<DeviceInfo>& devices)
{
  if (devices.empty())
  {
    return "  (none: no OpenCL platform or device was found; install an ICD such as "
           "pocl-opencl-icd, or check OCL_ICD_VENDORS)\n";
  }
  std::string text;
  for (const auto& device : devices)
  {
    text += "  " + device.label() + " [platform '" + device.platformName + "', " +
      device.openclVersion + "]\n";
  }
  return text;
}

DeviceInfo selectDevice(const std::string& spec)
{
  return selectDevice(spec, listDevices());
}

DeviceInfo selectDevice(const std::string& rawSpec, const std::vector<DeviceInfo>& devices)
{
  std::string spec = trim(rawSpec);
  std::string origin; // says where a spec came from when it was not given directly
  if (spec.empty() || lower(spec) == "auto")
  {
    const char* fromEnvironment = std::getenv("GPUMESH_DEVICE");
    if (fromEnvironment && !trim(fromEnvironment).empty() && lower(trim(fromEnvironment)) != "auto")
    {
      spec = trim(fromEnvironment);
      origin = " (from GPUMESH_DEVICE)";
    }
    else
    {
      if (devices.empty())
      {
        throw Error("No OpenCL device is available for device 'auto'. Devices found:\n" +
          describeDevices(devices));
      }
      return selectAuto(devices);
    }
  }
  if (devices.empty())
  {
    throw Error("No OpenCL device matches '" + spec + "'" + origin + ". Devices found:\n" +
      describeDevices(devices));
  }
  if (lower(spec) == "gpu" || lower(spec) == "cpu")
  {
    const bool gpu = lower(spec) == "gpu";
    if (const DeviceInfo* device = firstOfType(devices, gpu))
    {
      return *device;
    }
    throw Error(std::string("No OpenCL device is a ") + (gpu ? "GPU" : "CPU") + " (device '" + spec +
      "'" + origin + "). Devices found:\n" + describeDevices(devices));
  }
  if (allDigits(spec))
  {
    return byIndex(devices, spec, "'" + spec + "'" + origin);
  }
  // A drop-down label "<index>: <name> (GPU)" selects by its index.
  const auto colon = spec.find(':');
  if (colon != std::string::npos && allDigits(trim(spec.substr(0, colon))))
  {
    return byIndex(devices, trim(spec.substr(0, colon)), "'" + spec + "'" + origin);
  }
  const std::string wanted = lower(spec);
  for (const auto& device : devices)
  {
    if (lower(device.name).find(wanted) != std::string::npos)
    {
      return device;
    }
  }
  throw Error("No OpenCL device matches '" + spec + "'" + origin + ". Devices found:\n" +
    describeDevices(devices));
}

} // namespace gpumesh
