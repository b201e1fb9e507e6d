#include "gpumesh/runtime/DeviceAssignment.h"

#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace gpumesh
{

namespace
{
// A non-negative decimal number, or -1.
int parseRank(const char* text)
{
  if (!text || !*text)
  {
    return -1;
  }
  for (const char* c = text; *c; ++c)
  {
    if (!std::isdigit(static_cast<unsigned char>(*c)))
    {
      return -1;
    }
  }
  return std::atoi(text);
}

bool isAuto(const std::string& spec)
{
  std::string trimmed;
  for (char c : spec)
  {
    if (!std::isspace(static_cast<unsigned char>(c)))
    {
      trimmed += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  return trimmed.empty() || trimmed == "auto";
}
} // namespace

int localRankFromEnvironment()
{
  for (const char* name : { "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID" })
  {
    const int rank = parseRank(std::getenv(name));
    if (rank >= 0)
    {
      return rank;
    }
  }
  return -1;
}

int localRankFromHostNames(const std::vector<std::string>& hostNames, int rank)
{
  if (rank < 0 || rank >= static_cast<int>(hostNames.size()))
  {
    throw Error("Rank " + std::to_string(rank) + " is not among the " +
      std::to_string(hostNames.size()) + " host names gathered");
  }
  int lowerOnSameHost = 0;
  for (int other = 0; other < rank; ++other)
  {
    lowerOnSameHost += hostNames[other] == hostNames[rank];
  }
  return lowerOnSameHost;
}

DeviceInfo assignDevice(const std::vector<DeviceInfo>& devices, int localRank)
{
  if (localRank < 0)
  {
    throw Error("Node-local rank " + std::to_string(localRank) + " is negative");
  }
  if (devices.empty())
  {
    throw Error("No OpenCL device is available for device 'auto' (node-local rank " +
      std::to_string(localRank) + ")");
  }
  std::vector<const DeviceInfo*> gpus;
  for (const auto& device : devices)
  {
    if (device.isGPU)
    {
      gpus.push_back(&device);
    }
  }
  if (gpus.empty())
  {
    return devices.front(); // the rule of selectDevice("auto") without a GPU
  }
  return *gpus[static_cast<std::size_t>(localRank) % gpus.size()];
}

ComputeUnitRange computeUnitShare(int computeUnits, int localRank, int nodeProcesses)
{
  if (computeUnits < 1 || nodeProcesses < 1 || localRank < 0 || localRank >= nodeProcesses)
  {
    throw Error("No share of " + std::to_string(computeUnits) + " compute units for node-local rank " +
      std::to_string(localRank) + " of " + std::to_string(nodeProcesses) + " processes");
  }
  if (nodeProcesses >= computeUnits)
  {
    return { localRank % computeUnits, 1 };
  }
  const int base = computeUnits / nodeProcesses;
  const int larger = computeUnits % nodeProcesses; // the first ranks take one unit more
  return { localRank * base + std::min(localRank, larger), base + (localRank < larger ? 1 : 0) };
}

bool cpuDriverThreadsChosenByUser()
{
  for (const char* name : { "POCL_MAX_PTHREAD_COUNT", "POCL_CPU_MAX_CU_COUNT" })
  {
    const char* value = std::getenv(name);
    if (value && *value)
    {
      return true;
    }
  }
  return false;
}

DeviceInfo shareOfDevice(DeviceInfo device, int localRank, int nodeProcesses)
{
  // A rank outside the count (launcher variables that disagree) keeps the whole device rather
  // than failing the filter.
  if (!device.isCPU || device.isGPU || nodeProcesses < 2 || localRank < 0 || localRank >= nodeProcesses ||
    device.isPart() || device.computeUnits < 2 || cpuDriverThreadsChosenByUser())
  {
    return device;
  }
  const ComputeUnitRange share = computeUnitShare(device.computeUnits, localRank, nodeProcesses);
  device.deviceComputeUnits = device.computeUnits;
  device.firstComputeUnit = share.first;
  device.computeUnits = share.count;
  return device;
}

DeviceInfo selectDeviceForLocalRank(const std::string& spec, int localRank, int nodeProcesses)
{
  const char* fromEnvironment = std::getenv("GPUMESH_DEVICE");
  const DeviceInfo device = !isAuto(spec) || (fromEnvironment && !isAuto(fromEnvironment))
    ? selectDevice(spec)
    : assignDevice(listDevices(), localRank);
  return shareOfDevice(device, localRank, nodeProcesses);
}

} // namespace gpumesh
