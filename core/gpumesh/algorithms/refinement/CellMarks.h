// Which cells to refine, decided on the device from a cell array and a threshold.
#pragma once
#include "gpumesh/runtime/DeviceRun.h"

#include <cstdint>

namespace gpumesh
{

/// Distinct cell ids, in increasing order, on the device.
struct MarkedCells
{
  DeviceBuffer<cl_int> ids;
  std::size_t count = 0;
};

/// The type of the values of a host array given as raw memory.
enum class ValueType
{
  Int8,
  UInt8,
  Int16,
  UInt16,
  Int32,
  UInt32,
  Int64,
  UInt64,
  Float32,
  Float64
};

/// The cells whose value (for several components, the tuple's magnitude) is greater than
/// `threshold`; NaN never marks. The array goes to the device as it is; the comparison is done
/// in double where the device has fp64 (else in float, exact for float values).
MarkedCells markCells(DeviceRun& run, const void* values, ValueType type, std::size_t tuples,
  int components, double threshold);

/// Every cell of `count`.
MarkedCells allCells(DeviceRun& run, std::size_t count);

} // namespace gpumesh
