#include "gpumesh/algorithms/refinement/CellMarks.h"

#include "gpumesh/primitives/Scan.h"

#include <cmath>
#include <limits>
#include <string>

namespace gpumesh
{

namespace
{
struct TypeInfo
{
  const char* openclName;
  std::size_t bytes;
};

TypeInfo typeInfo(ValueType type)
{
  switch (type)
  {
    case ValueType::Int8:
      return { "char", 1 };
    case ValueType::UInt8:
      return { "uchar", 1 };
    case ValueType::Int16:
      return { "short", 2 };
    case ValueType::UInt16:
      return { "ushort", 2 };
    case ValueType::Int32:
      return { "int", 4 };
    case ValueType::UInt32:
      return { "uint", 4 };
    case ValueType::Int64:
      return { "long", 8 };
    case ValueType::UInt64:
      return { "ulong", 8 };
    case ValueType::Float32:
      return { "float", 4 };
    default:
      return { "double", 8 };
  }
}

// The largest float not above t: for a float v, v > t exactly when v > floatBelow(t).
float floatBelow(double t)
{
  if (std::isnan(t))
    return std::numeric_limits<float>::quiet_NaN();
  float f = static_cast<float>(t);
  if (static_cast<double>(f) > t)
    f = std::nextafter(f, -std::numeric_limits<float>::infinity());
  return f;
}
} // namespace

MarkedCells markCells(DeviceRun& run, const void* values, ValueType type, std::size_t tuples,
  int components, double threshold)
{
  if (components < 1)
  {
    throw Error("a mark array needs at least one component");
  }
  MarkedCells marked;
  if (tuples == 0)
  {
    marked.ids = run.allocate<cl_int>(0, "marked cells");
    return marked;
  }
  const TypeInfo info = typeInfo(type);
  const bool inDouble = run.info().hasDoublePrecision;
  const std::size_t count = tuples * static_cast<std::size_t>(components);
  // Read in place on a CPU device (as VALUE: aligned to it): only mark_flags reads it, and the
  // scan's total (read back below) waits for that.
  DeviceBuffer<cl_uchar> raw =
    run.borrow(static_cast<const cl_uchar*>(values), count * info.bytes, "mark array", info.bytes);
  DeviceBuffer<cl_uint> flags = run.allocate<cl_uint>(tuples, "mark flags");
  const std::string options =
    std::string("-DVALUE=") + info.openclName + " -DCOMPARE_DOUBLE=" + (inDouble ? "1" : "0");
  const KernelName flag{ "cell_marks", "mark_flags", options };
  if (inDouble)
    run.call(flag, tuples, "mark cells", raw, cl_int(components), static_cast<cl_int>(tuples), cl_double(threshold),
      flags);
  else
    run.call(flag, tuples, "mark cells", raw, cl_int(components), static_cast<cl_int>(tuples),
      cl_float(floatBelow(threshold)), flags);
  DeviceBuffer<cl_uint> positions = run.allocate<cl_uint>(tuples + 1, "mark positions");
  marked.count = exclusiveScan(run, flags, tuples, positions, "marked cells");
  marked.ids = run.allocate<cl_int>(marked.count, "marked cells");
  run.call({ "cell_marks", "compact_marks", options }, tuples, "mark cells", flags, positions,
    static_cast<cl_int>(tuples), marked.ids);
  return marked;
}

MarkedCells allCells(DeviceRun& run, std::size_t count)
{
  MarkedCells marked{ run.allocate<cl_int>(count, "marked cells"), count };
  run.call({ "sequence", "iota" }, count, "mark cells", cl_int(0), static_cast<cl_int>(count), marked.ids);
  return marked;
}

} // namespace gpumesh
