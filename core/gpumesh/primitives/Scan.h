// Exclusive prefix sums on the device, the building block of every variable-size layout.
#pragma once
#include "gpumesh/runtime/AccessPattern.h"
#include "gpumesh/runtime/DeviceRun.h"

#include <cstdint>

namespace gpumesh
{

/// Writes offsets[i] = counts[0] + ... + counts[i-1] for i in [0, n], so offsets has n + 1
/// entries and offsets[n] is the total, which is also returned. Sums are accumulated in 64
/// bits; a total above 2^31-1 (the device's int indices) is an error naming `what`.
/// `pattern`: Strided scans tiles of a work-group through local memory (coalesced, for GPUs);
/// Contiguous scans long chunks, one per work-item, without barriers (for CPUs).
std::uint64_t exclusiveScan(DeviceRun& run, const DeviceBuffer<cl_uint>& counts, std::size_t n,
  DeviceBuffer<cl_uint>& offsets, const std::string& what, AccessPattern pattern = AccessPattern::Auto);

} // namespace gpumesh
