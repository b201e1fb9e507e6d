// Device 'auto' in a distributed run: node-local ranks spread over a node's GPUs; processes of a
// node that share a CPU device each take their own part of its compute units.
#include "gpumesh/primitives/Reduce.h"
#include "gpumesh/runtime/DeviceAssignment.h"
#include "gpumesh/runtime/DeviceContext.h"
#include "gpumesh/runtime/DeviceRun.h"
#include "gpumesh/runtime/Error.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <initializer_list>
#include <numeric>
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

namespace
{
DeviceInfo cpu(int computeUnits)
{
  DeviceInfo info = device(0, "pthread-cpu", false);
  info.isCPU = true;
  info.computeUnits = info.deviceComputeUnits = computeUnits;
  return info;
}

// Neither of PoCL's thread-count variables set, for one test.
ScopedEnvironment noDriverThreadCount()
{
  return ScopedEnvironment({ { "POCL_MAX_PTHREAD_COUNT", nullptr }, { "POCL_CPU_MAX_CU_COUNT", nullptr } });
}
} // namespace

TEST(ComputeUnitShare, TheRanksOfANodeTileTheDeviceInRankOrder)
{
  for (int units = 1; units <= 17; ++units)
  {
    for (int processes = 1; processes <= units; ++processes)
    {
      int next = 0;
      for (int rank = 0; rank < processes; ++rank)
      {
        const ComputeUnitRange share = computeUnitShare(units, rank, processes);
        EXPECT_EQ(share.first, next) << units << " units, rank " << rank << " of " << processes;
        // As even as they go: floor or ceiling of units / processes.
        EXPECT_GE(share.count, units / processes);
        EXPECT_LE(share.count, (units + processes - 1) / processes);
        next = share.first + share.count;
      }
      EXPECT_EQ(next, units) << units << " units over " << processes << " processes";
    }
  }
}

TEST(ComputeUnitShare, MoreProcessesThanUnitsTakeOneUnitEachInTurn)
{
  for (int rank = 0; rank < 5; ++rank)
  {
    const ComputeUnitRange share = computeUnitShare(2, rank, 5);
    EXPECT_EQ(share.first, rank % 2);
    EXPECT_EQ(share.count, 1);
  }
}

TEST(ComputeUnitShare, ARankOutsideTheNodeOrNoUnitsIsAnError)
{
  EXPECT_THROW(computeUnitShare(4, 2, 2), Error);
  EXPECT_THROW(computeUnitShare(4, -1, 2), Error);
  EXPECT_THROW(computeUnitShare(0, 0, 2), Error);
}

TEST(ShareOfDevice, TwoProcessesOnOneNodeTakeDisjointHalvesOfACPU)
{
  auto unset = noDriverThreadCount();
  const DeviceInfo first = shareOfDevice(cpu(16), 0, 2);
  const DeviceInfo second = shareOfDevice(cpu(16), 1, 2);
  EXPECT_TRUE(first.isPart());
  EXPECT_TRUE(second.isPart());
  EXPECT_EQ(std::make_pair(first.firstComputeUnit, first.computeUnits), std::make_pair(0, 8));
  EXPECT_EQ(std::make_pair(second.firstComputeUnit, second.computeUnits), std::make_pair(8, 8));
  EXPECT_EQ(second.deviceComputeUnits, 16);
  EXPECT_EQ(second.label(), "0: pthread-cpu (CPU, compute units 8-15 of 16)");
  EXPECT_EQ(shareOfDevice(cpu(2), 1, 2).label(), "0: pthread-cpu (CPU, compute unit 1 of 2)");
}

TEST(ShareOfDevice, GPUsLoneProcessesAndOneUnitDevicesStayWhole)
{
  auto unset = noDriverThreadCount();
  EXPECT_FALSE(shareOfDevice(device(1, "GPU A", true), 1, 2).isPart());
  EXPECT_FALSE(shareOfDevice(cpu(16), 0, 1).isPart());
  EXPECT_FALSE(shareOfDevice(cpu(1), 1, 2).isPart());
  // Launcher variables that disagree (a rank beyond the count): the whole device, no failure.
  EXPECT_FALSE(shareOfDevice(cpu(16), 3, 2).isPart());
  // A part is not divided again.
  const DeviceInfo half = shareOfDevice(cpu(16), 1, 2);
  const DeviceInfo again = shareOfDevice(half, 1, 2);
  EXPECT_EQ(std::make_pair(again.firstComputeUnit, again.computeUnits), std::make_pair(8, 8));
}

TEST(ShareOfDevice, TheUsersDriverThreadCountWins)
{
  for (const char* name : { "POCL_MAX_PTHREAD_COUNT", "POCL_CPU_MAX_CU_COUNT" })
  {
    auto unset = noDriverThreadCount();
    ScopedEnvironment chosen({ { name, "4" } });
    EXPECT_TRUE(cpuDriverThreadsChosenByUser()) << name;
    const DeviceInfo kept = shareOfDevice(cpu(16), 1, 2);
    EXPECT_FALSE(kept.isPart()) << name;
    EXPECT_EQ(kept.computeUnits, 16) << name;
  }
  auto unset = noDriverThreadCount();
  EXPECT_FALSE(cpuDriverThreadsChosenByUser());
}

// On this machine's CPU device (PoCL): each rank's part is a sub-device of its share of the
// compute units, with a context of its own, and kernels on it give the whole device's results.
TEST(ShareOfDevice, EachPartOfTheCPUDeviceIsASubDeviceThatRunsKernels)
{
  auto unset = noDriverThreadCount();
  ScopedEnvironment noChoice({ { "GPUMESH_DEVICE", nullptr } });
  const DeviceInfo whole = selectDevice("cpu");
  ASSERT_GE(whole.computeUnits, 2) << "the test needs a CPU device of at least 2 compute units";
  std::vector<float> values(100003);
  std::iota(values.begin(), values.end(), 1.0f);
  const auto sumOn = [&](const DeviceInfo& info) {
    DeviceRun run(DeviceContext::acquire(info));
    RealBuffer buffer = run.uploadReal(values.data(), values.size(), "values");
    return reduceStatistics(run, buffer, values.size()).sum;
  };
  const double expected = sumOn(whole);
  int next = 0;
  std::vector<const DeviceContext*> contexts = { DeviceContext::acquire(whole).get() };
  for (int rank = 0; rank < 2; ++rank)
  {
    const DeviceInfo part = selectDeviceForLocalRank("cpu", rank, 2);
    ASSERT_TRUE(part.isPart()) << "rank " << rank;
    EXPECT_EQ(part.firstComputeUnit, next);
    next += part.computeUnits;
    const auto context = DeviceContext::acquire(part);
    EXPECT_EQ(context->device().getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>(), static_cast<cl_uint>(part.computeUnits));
    EXPECT_NE(context->device().getInfo<CL_DEVICE_PARENT_DEVICE>()(), nullptr) << "rank " << rank << ": not a sub-device";
    EXPECT_EQ(DeviceContext::acquire(part).get(), context.get()) << "one context per part";
    contexts.push_back(context.get());
    EXPECT_EQ(sumOn(part), expected) << "rank " << rank;
  }
  EXPECT_EQ(next, whole.computeUnits);
  EXPECT_NE(contexts[0], contexts[1]);
  EXPECT_NE(contexts[1], contexts[2]);
}
