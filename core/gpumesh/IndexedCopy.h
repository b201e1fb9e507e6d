// Copies of selected elements of a device buffer: what a distributed run exchanges (the points
// on a process interface) or masks (ghost cells), without moving whole buffers.
#pragma once
#include "gpumesh/DeviceRun.h"

#include <cstdint>
#include <vector>

namespace gpumesh
{

/// values[indices[i]] for every i, on the host. Throws gpumesh::Error naming an index outside
/// the buffer.
std::vector<cl_float4> gather(DeviceRun& run, const DeviceBuffer<cl_float4>& values,
  const std::vector<std::int32_t>& indices, const std::string& what);

/// values[indices[i]] = scattered[i] for every i. The indices must be distinct.
void scatter(DeviceRun& run, DeviceBuffer<cl_float4>& values, const std::vector<std::int32_t>& indices,
  const std::vector<cl_float4>& scattered, const std::string& what);

/// values[indices[i]] = value for every i.
void fillAt(DeviceRun& run, DeviceBuffer<float>& values, const std::vector<std::int32_t>& indices,
  float value, const std::string& what);

} // namespace gpumesh
