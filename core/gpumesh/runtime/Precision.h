// The floating-point type the kernels compute in: one kernel source, REAL chosen when the
// program is built (kernels/runtime/common.cl).
#pragma once
#include <cstddef>

namespace gpumesh
{

enum class Precision
{
  Single, ///< REAL is float: works on every device
  Double  ///< REAL is double: needs a device with cl_khr_fp64
};

inline const char* precisionName(Precision precision)
{
  return precision == Precision::Double ? "Double" : "Single";
}

/// Bytes of one REAL.
inline std::size_t realSize(Precision precision)
{
  return precision == Precision::Double ? sizeof(double) : sizeof(float);
}

} // namespace gpumesh
