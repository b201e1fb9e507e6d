// Per-tuple magnitude of a multi-component array on the device.
#pragma once
#include "gpumesh/runtime/DeviceRun.h"

namespace gpumesh
{

/// The Euclidean norm of each of `tuples` tuples of `components` REALs (interleaved), scaled by
/// the tuple's largest component so that no square leaves the range of REAL.
RealBuffer tupleMagnitudes(DeviceRun& run, const RealBuffer& values, std::size_t tuples, int components);

} // namespace gpumesh
