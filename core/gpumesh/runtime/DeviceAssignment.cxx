#include "gpumesh/runtime/DeviceAssignment.h"

#include "gpumesh/runtime/Error.h"

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

DeviceInfo selectDeviceForLocalRank(const std::string& spec, int localRank)
{
  const char* fromEnvironment = std::getenv("GPUMESH_DEVICE");
  if (!isAuto(spec) || (fromEnvironment && !isAuto(fromEnvironment)))
  {
    return selectDevice(spec);
  }
  return assignDevice(listDevices(), localRank);
}

} // namespace gpumesh
