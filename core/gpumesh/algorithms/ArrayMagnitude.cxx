#include "gpumesh/algorithms/ArrayMagnitude.h"

namespace gpumesh
{

RealBuffer tupleMagnitudes(DeviceRun& run, const RealBuffer& values, std::size_t tuples, int components)
{
  if (components < 1 || values.size() != tuples * static_cast<std::size_t>(components))
  {
    throw Error("an array of " + std::to_string(values.size()) + " values is not " +
      std::to_string(tuples) + " tuples of " + std::to_string(components) + " components");
  }
  RealBuffer magnitude = run.allocateReal(tuples, "tuple magnitudes");
  run.call({ "array_magnitude", "tuple_magnitude" }, tuples, "magnitude", values,
    static_cast<cl_int>(components), static_cast<cl_ulong>(tuples), magnitude);
  return magnitude;
}

} // namespace gpumesh
