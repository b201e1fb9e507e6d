// Per-tuple magnitude of a multi-component array on the device.
#pragma once
#include "gpumesh/DeviceRun.h"

namespace gpumesh
{

/// The Euclidean norm of each of `tuples` tuples of `components` floats (interleaved).
DeviceBuffer<float> tupleMagnitudes(
  DeviceRun& run, const DeviceBuffer<float>& values, std::size_t tuples, int components);

} // namespace gpumesh
