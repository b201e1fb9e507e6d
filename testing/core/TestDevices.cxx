// Device listing and selection: by index, label, name substring, auto and GPUMESH_DEVICE.
#include "gpumesh/runtime/DeviceContext.h"
#include "gpumesh/runtime/Devices.h"
#include "gpumesh/runtime/Error.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

using namespace gpumesh;

namespace
{
// Restores GPUMESH_DEVICE as it was when the test started.
class ScopedDeviceVariable
{
public:
  explicit ScopedDeviceVariable(const char* value)
  {
    if (const char* old = std::getenv("GPUMESH_DEVICE"))
    {
      Saved = old;
      HadValue = true;
    }
    value ? setenv("GPUMESH_DEVICE", value, 1) : unsetenv("GPUMESH_DEVICE");
  }
  ~ScopedDeviceVariable()
  {
    HadValue ? setenv("GPUMESH_DEVICE", Saved.c_str(), 1) : unsetenv("GPUMESH_DEVICE");
  }

private:
  std::string Saved;
  bool HadValue = false;
};

std::string errorOf(const std::string& spec)
{
  try
  {
    selectDevice(spec);
  }
  catch (const Error& error)
  {
    return error.what();
  }
  return {};
}

// A device of a made-up list: the selection rules do not depend on what the machine has.
DeviceInfo madeUp(const std::string& name, bool gpu, bool cpu)
{
  DeviceInfo device;
  device.name = name;
  device.isGPU = gpu;
  device.isCPU = cpu;
  return device;
}

std::vector<DeviceInfo> numbered(std::vector<DeviceInfo> devices)
{
  for (std::size_t i = 0; i < devices.size(); ++i)
    devices[i].index = static_cast<int>(i);
  return devices;
}
} // namespace

TEST(Devices, ListsAtLeastOneDeviceWithConsistentIndices)
{
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty()) << "CI needs an OpenCL device (PoCL)";
  for (std::size_t i = 0; i < devices.size(); ++i)
  {
    EXPECT_EQ(devices[i].index, static_cast<int>(i));
    EXPECT_FALSE(devices[i].name.empty());
    EXPECT_GT(devices[i].maxWorkGroupSize, 0u);
    EXPECT_GT(devices[i].maxAllocationBytes, 0u);
    EXPECT_EQ(devices[i].label().rfind(std::to_string(i) + ": " + devices[i].name, 0), 0u);
  }
}

TEST(Devices, SelectsByIndexLabelAndName)
{
  ScopedDeviceVariable none(nullptr);
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty());
  const auto& last = devices.back();
  EXPECT_EQ(selectDevice(std::to_string(last.index)).index, last.index);
  EXPECT_EQ(selectDevice(last.label()).index, last.index);
  EXPECT_EQ(selectDevice("  " + std::to_string(last.index) + " ").index, last.index);
  // A name substring, in another case, finds the first device of that name.
  std::string part = last.name.substr(0, std::min<std::size_t>(6, last.name.size()));
  for (auto& c : part)
  {
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  const DeviceInfo byName = selectDevice(part);
  EXPECT_NE(byName.name.find(last.name.substr(0, part.size())), std::string::npos);
}

TEST(Devices, AutoPrefersAGpu)
{
  ScopedDeviceVariable none(nullptr);
  const auto devices = listDevices();
  const DeviceInfo chosen = selectDevice("auto");
  bool anyGpu = false;
  for (const auto& d : devices)
  {
    anyGpu = anyGpu || d.isGPU;
  }
  EXPECT_EQ(chosen.isGPU, anyGpu);
  EXPECT_EQ(selectDevice("").index, chosen.index);
  EXPECT_EQ(selectDevice("AUTO").index, chosen.index);
}

TEST(Devices, BadSpecIsAnErrorNamingTheDevices)
{
  ScopedDeviceVariable none(nullptr);
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty());
  for (const std::string spec : { "999", "no-such-device-anywhere", "42: imaginary (GPU)" })
  {
    const std::string message = errorOf(spec);
    ASSERT_FALSE(message.empty()) << spec << " was accepted";
    EXPECT_NE(message.find(devices.front().label()), std::string::npos) << message;
  }
}

TEST(Devices, CpuAndGpuSelectTheFirstDeviceOfThatType)
{
  ScopedDeviceVariable none(nullptr);
  // Device 0's name contains both words: a name match would pick it for either.
  const auto devices = numbered({ madeUp("FPGA emulating a cpu and a gpu", false, false),
    madeUp("pthread-cpu", false, true), madeUp("NVIDIA H200", true, false),
    madeUp("NVIDIA H100", true, false), madeUp("Another CPU", false, true) });
  for (const std::string spec : { "gpu", "GPU", " Gpu " })
    EXPECT_EQ(selectDevice(spec, devices).index, 2) << spec;
  for (const std::string spec : { "cpu", "CPU", "cPu\t" })
    EXPECT_EQ(selectDevice(spec, devices).index, 1) << spec;
  EXPECT_EQ(selectDevice("auto", devices).index, 2);
  EXPECT_EQ(selectDevice("FPGA", devices).index, 0); // other words still match names
  EXPECT_EQ(devices[0].label(), "0: FPGA emulating a cpu and a gpu (accelerator)");
  {
    ScopedDeviceVariable variable("cpu");
    EXPECT_EQ(selectDevice("auto", devices).index, 1);
  }

  // Without a GPU, "gpu" is an error listing the devices, and auto falls back to a CPU.
  const auto cpusOnly = numbered({ madeUp("FPGA", false, false), madeUp("pthread-cpu", false, true) });
  EXPECT_EQ(selectDevice("auto", cpusOnly).index, 1);
  try
  {
    selectDevice("gpu", cpusOnly);
    FAIL() << "'gpu' chose a device among CPUs";
  }
  catch (const Error& error)
  {
    const std::string message = error.what();
    EXPECT_NE(message.find("No OpenCL device is a GPU"), std::string::npos) << message;
    EXPECT_NE(message.find("1: pthread-cpu (CPU)"), std::string::npos) << message;
  }
}

TEST(Devices, CpuAndGpuOnThisMachine)
{
  ScopedDeviceVariable none(nullptr);
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty());
  for (const bool gpu : { false, true })
  {
    const std::string spec = gpu ? "gpu" : "cpu";
    const auto first = std::find_if(devices.begin(), devices.end(),
      [gpu](const DeviceInfo& d) { return gpu ? d.isGPU : d.isCPU; });
    if (first != devices.end())
    {
      EXPECT_EQ(selectDevice(spec).index, first->index) << spec;
      EXPECT_EQ(DeviceContext::acquire(spec)->info().index, first->index) << spec;
    }
    else
    {
      EXPECT_NE(errorOf(spec).find("No OpenCL device is a"), std::string::npos) << errorOf(spec);
    }
  }
}

TEST(Devices, EnvironmentOverridesAutoOnly)
{
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty());
  {
    ScopedDeviceVariable variable(std::to_string(devices.back().index).c_str());
    EXPECT_EQ(selectDevice("auto").index, devices.back().index);
    EXPECT_EQ(selectDevice("0").index, 0); // an explicit spec wins over the variable
  }
  {
    ScopedDeviceVariable variable("no-such-device-anywhere");
    const std::string message = errorOf("auto");
    EXPECT_NE(message.find("GPUMESH_DEVICE"), std::string::npos) << message;
  }
}

TEST(DeviceContext, OneSharedContextPerDeviceAcrossThreads)
{
  ScopedDeviceVariable none(nullptr);
  std::shared_ptr<DeviceContext> seen[4];
  std::thread threads[4];
  for (int t = 0; t < 4; ++t)
  {
    threads[t] = std::thread([&seen, t] { seen[t] = DeviceContext::acquire("0"); });
  }
  for (auto& thread : threads)
  {
    thread.join();
  }
  for (const auto& context : seen)
  {
    EXPECT_EQ(context.get(), seen[0].get());
  }
  EXPECT_EQ(DeviceContext::acquire(seen[0]->info().label()).get(), seen[0].get());
}

TEST(DeviceContext, ProgramsAreCachedAndCompileErrorsCarryTheLog)
{
  auto context = DeviceContext::acquire("0");
  cl::Program first = context->program("reduce", "-DWG=64");
  cl::Program second = context->program("reduce", "-DWG=64");
  EXPECT_EQ(first(), second());
  try
  {
    context->program("reduce", "-DWG=not_a_number");
    FAIL() << "a kernel that cannot compile was accepted";
  }
  catch (const Error& error)
  {
    EXPECT_EQ(error.clName(), "CL_BUILD_PROGRAM_FAILURE");
    EXPECT_FALSE(error.buildLog().empty());
    EXPECT_NE(std::string(error.what()).find("kernels/primitives/reduce.cl"), std::string::npos);
  }
}
