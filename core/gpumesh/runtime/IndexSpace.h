// The device's index space: kernels address points, cells and slots with 32-bit ints.
#pragma once
#include <cstdint>
#include <string>

namespace gpumesh
{

/// Throws gpumesh::Error naming `what` unless `count` fits the device's 32-bit indices.
void checkIndexSpace(std::int64_t count, const std::string& what);

} // namespace gpumesh
