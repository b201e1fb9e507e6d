// Stable sort of key-value pairs on the device, the matching step of sides and edges.
#pragma once
#include "gpumesh/runtime/DeviceRun.h"

namespace gpumesh
{

/// Sorts the first `count` pairs (keys[i], values[i]) by the low `keyBits` bits of the keys
/// (higher bits are ignored), stably: pairs with equal keys keep their order. A least-
/// significant-digit radix sort, 4 bits per pass, so its cost grows with count x keyBits and
/// with nothing else (no dependence on the distribution of the keys). Sort only the bits that
/// vary: ids up to n need bitWidth(n). On return `keys` and `values` may be other buffers,
/// of `count` elements. `count` above 2^31-1 is an error naming `what`.
void sortByKey(DeviceRun& run, DeviceBuffer<cl_ulong>& keys, DeviceBuffer<cl_uint>& values,
  std::size_t count, unsigned keyBits, const std::string& what);

/// The number of bits that holds every value in [0, maximum].
unsigned bitWidth(std::uint64_t maximum);

} // namespace gpumesh
