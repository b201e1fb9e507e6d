// Device 'auto' in a distributed run: node-local ranks spread over a node's GPUs.
#include "gpumesh/runtime/DeviceAssignment.h"
#include "gpumesh/runtime/Error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

using namespace gpumesh;

namespace
{
DeviceInfo device(int index, const std::string& name, bool isGPU)
{
  DeviceInfo info;
  info.index = index;
  info.name = name;
  info.isGPU = isGPU;
  return info;
}

// A made-up node: PoCL listed first (as CUDA's ICD loader does), then two GPUs, then a CPU.
std::vector<DeviceInfo> mixedNode()
{
  return { device(0, "pthread-cpu", false), device(1, "GPU A", true), device(2, "GPU B", true),
    device(3, "other cpu", false) };
}

// Sets the launcher variables for one test and restores them afterwards.
class ScopedEnvironment
{
public:
  explicit ScopedEnvironment(std::initializer_list<std::pair<const char*, const char*>> values)
  {
    for (const auto& [name, value] : values)
    {
      const char* old = std::getenv(name);
      Saved.push_back({ name, old ? std::string(old) : std::string(), old != nullptr });
      value ? setenv(name, value, 1) : unsetenv(name);
    }
  }
  ~ScopedEnvironment()
  {
    for (const auto& saved : Saved)
    {
      saved.had ? setenv(saved.name.c_str(), saved.value.c_str(), 1) : unsetenv(saved.name.c_str());
    }
  }

private:
  struct Entry
  {
    std::string name;
    std::string value;
    bool had;
  };
  std::vector<Entry> Saved;
};
} // namespace

TEST(DeviceAssignment, LocalRanksSpreadOverTheGPUsInListedOrder)
{
  const auto devices = mixedNode();
  const std::vector<int> expected = { 1, 2, 1, 2, 1 };
  for (int rank = 0; rank < 5; ++rank)
  {
    EXPECT_EQ(assignDevice(devices, rank).index, expected[rank]) << "local rank " << rank;
  }
}

TEST(DeviceAssignment, FourGPUsFourRanksAreAllDifferent)
{
  std::vector<DeviceInfo> devices;
  for (int i = 0; i < 4; ++i)
  {
    devices.push_back(device(i, "H200 #" + std::to_string(i), true));
  }
  devices.push_back(device(4, "pthread-cpu", false));
  std::vector<int> used;
  for (int rank = 0; rank < 4; ++rank)
  {
    used.push_back(assignDevice(devices, rank).index);
  }
  EXPECT_EQ(used, (std::vector<int>{ 0, 1, 2, 3 }));
}

TEST(DeviceAssignment, WithoutAGPUEveryRankGetsTheFirstDevice)
{
  const std::vector<DeviceInfo> devices = { device(0, "pthread-cpu", false), device(1, "cpu 2", false) };
  for (int rank = 0; rank < 3; ++rank)
  {
    EXPECT_EQ(assignDevice(devices, rank).index, 0);
  }
}

TEST(DeviceAssignment, NoDeviceOrNegativeRankIsAnError)
{
  EXPECT_THROW(assignDevice({}, 0), Error);
  EXPECT_THROW(assignDevice(mixedNode(), -1), Error);
}

TEST(DeviceAssignment, LocalRankFromHostNamesCountsLowerRanksOnTheSameHost)
{
  const std::vector<std::string> hosts = { "a", "b", "a", "a", "b" };
  const std::vector<int> expected = { 0, 0, 1, 2, 1 };
  for (int rank = 0; rank < 5; ++rank)
  {
    EXPECT_EQ(localRankFromHostNames(hosts, rank), expected[rank]) << "rank " << rank;
  }
  EXPECT_THROW(localRankFromHostNames(hosts, 5), Error);
}

TEST(DeviceAssignment, LocalRankFromTheLaunchersVariables)
{
  {
    ScopedEnvironment none({ { "OMPI_COMM_WORLD_LOCAL_RANK", nullptr }, { "MPI_LOCALRANKID", nullptr },
      { "SLURM_LOCALID", nullptr } });
    EXPECT_EQ(localRankFromEnvironment(), -1);
  }
  {
    ScopedEnvironment openMPI({ { "OMPI_COMM_WORLD_LOCAL_RANK", "3" }, { "MPI_LOCALRANKID", "1" },
      { "SLURM_LOCALID", nullptr } });
    EXPECT_EQ(localRankFromEnvironment(), 3);
  }
  {
    ScopedEnvironment slurm({ { "OMPI_COMM_WORLD_LOCAL_RANK", "not a number" }, { "MPI_LOCALRANKID", nullptr },
      { "SLURM_LOCALID", "2" } });
    EXPECT_EQ(localRankFromEnvironment(), 2);
  }
}

TEST(DeviceAssignment, AnExplicitSpecOrGPUMESH_DEVICEWinsOverTheRank)
{
  ScopedEnvironment unset({ { "GPUMESH_DEVICE", nullptr } });
  const auto devices = listDevices();
  ASSERT_FALSE(devices.empty()) << "CI needs an OpenCL device (PoCL)";
  const int last = static_cast<int>(devices.size()) - 1;
  EXPECT_EQ(selectDeviceForLocalRank(std::to_string(last), 5).index, last);
  EXPECT_EQ(selectDeviceForLocalRank("auto", 7).index, assignDevice(devices, 7).index);
  ScopedEnvironment chosen({ { "GPUMESH_DEVICE", "0" } });
  EXPECT_EQ(selectDeviceForLocalRank("auto", 1).index, 0);
}
