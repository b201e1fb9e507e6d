// One device per process of a node: what Device 'auto' means when several processes of a
// distributed run share a machine.
#pragma once
#include "gpumesh/runtime/Devices.h"

#include <string>
#include <vector>

namespace gpumesh
{

/// The node-local rank the MPI launcher gave this process: OMPI_COMM_WORLD_LOCAL_RANK (Open MPI),
/// MPI_LOCALRANKID (MPICH, Intel MPI) or SLURM_LOCALID (srun), the first that is a number;
/// -1 when none is set.
int localRankFromEnvironment();

/// The node-local rank of process `rank` given the host name of every process in rank order:
/// the number of lower ranks with the same host name.
int localRankFromHostNames(const std::vector<std::string>& hostNames, int rank);

/// The device of the process with node-local rank `localRank` (>= 0) under "auto": the GPUs in
/// listed order, localRank modulo their count, so the processes of a node spread over its GPUs;
/// without a GPU, the device selectDevice("auto") would choose. Throws gpumesh::Error when
/// `devices` is empty or localRank is negative.
DeviceInfo assignDevice(const std::vector<DeviceInfo>& devices, int localRank);

/// Compute units [first, first + count) of a device.
struct ComputeUnitRange
{
  int first = 0;
  int count = 0;
};

/// The compute units that node-local process `localRank` (>= 0) of `nodeProcesses` takes of a
/// device of `computeUnits` that they all use: consecutive ranges in rank order that tile the
/// device, as even as they go (the first computeUnits % nodeProcesses ranks one unit more);
/// with more processes than units, one unit each, unit localRank % computeUnits. Throws
/// gpumesh::Error for a rank outside [0, nodeProcesses) or a device without units.
ComputeUnitRange computeUnitShare(int computeUnits, int localRank, int nodeProcesses);

/// Whether the user fixed how many threads the CPU OpenCL driver runs per process (PoCL's
/// POCL_MAX_PTHREAD_COUNT or POCL_CPU_MAX_CU_COUNT set): then each process keeps the whole
/// device the driver made.
bool cpuDriverThreadsChosenByUser();

/// The device as node-local process `localRank` of `nodeProcesses` uses it: a CPU device that
/// several processes of the node share becomes the part of it holding this process's
/// computeUnitShare (each process's kernels then run on as many driver threads as its share,
/// instead of every process running one per core of the node), unless
/// cpuDriverThreadsChosenByUser(). A GPU, a lone process, or a device already a part: unchanged.
DeviceInfo shareOfDevice(DeviceInfo device, int localRank, int nodeProcesses);

/// selectDevice(spec), except that "auto" (without a GPUMESH_DEVICE naming a device) gives
/// assignDevice(listDevices(), localRank); then shareOfDevice(that, localRank, nodeProcesses).
DeviceInfo selectDeviceForLocalRank(const std::string& spec, int localRank, int nodeProcesses = 1);

} // namespace gpumesh
