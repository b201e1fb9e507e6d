// How the work-items of a streaming kernel walk an array.
#pragma once

namespace gpumesh
{

/// Contiguous: each work-item takes consecutive elements, which suits CPUs (cache lines stay
/// with one core). Strided: neighbouring work-items take neighbouring elements (coalesced
/// loads), which suits GPUs. Auto picks by device type; tests force each on any device, so
/// both code paths run wherever the tests do.
enum class AccessPattern
{
  Auto,
  Contiguous,
  Strided
};

/// Whether `pattern` means contiguous on a device that is (or is not) a GPU.
inline bool isContiguous(AccessPattern pattern, bool isGPU)
{
  return pattern == AccessPattern::Contiguous || (pattern == AccessPattern::Auto && !isGPU);
}

} // namespace gpumesh
