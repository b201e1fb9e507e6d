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

/// selectDevice(spec), except that "auto" (without a GPUMESH_DEVICE naming a device) gives
/// assignDevice(listDevices(), localRank).
DeviceInfo selectDeviceForLocalRank(const std::string& spec, int localRank);

} // namespace gpumesh
