#include "gpumesh/IndexedCopy.h"

#include <limits>

namespace gpumesh
{

namespace
{
// Uploads the indices after checking them against the buffer (a kernel cannot report them).
DeviceBuffer<cl_int> checkedIndices(DeviceRun& run, const std::vector<std::int32_t>& indices,
  std::size_t bufferSize, const std::string& what)
{
  if (indices.size() > static_cast<std::size_t>(std::numeric_limits<cl_int>::max()))
  {
    throw Error(what + ": " + std::to_string(indices.size()) + " indices exceed the 32-bit range");
  }
  for (std::size_t i = 0; i < indices.size(); ++i)
  {
    if (indices[i] < 0 || static_cast<std::size_t>(indices[i]) >= bufferSize)
    {
      throw Error(what + ": index " + std::to_string(indices[i]) + " (entry " + std::to_string(i) +
        ") is outside the buffer of " + std::to_string(bufferSize) + " elements");
    }
  }
  return run.upload(indices.data(), indices.size(), what + " indices");
}
} // namespace

std::vector<cl_float4> gather(DeviceRun& run, const DeviceBuffer<cl_float4>& values,
  const std::vector<std::int32_t>& indices, const std::string& what)
{
  std::vector<cl_float4> gathered(indices.size());
  if (indices.empty())
  {
    return gathered;
  }
  const DeviceBuffer<cl_int> where = checkedIndices(run, indices, values.size(), what);
  DeviceBuffer<cl_float4> compact = run.allocate<cl_float4>(indices.size(), what);
  cl::Kernel kernel = run.kernel("indexed_copy", "gather_float4");
  run.setArguments(kernel, values, where, static_cast<cl_int>(indices.size()), compact);
  run.launch(kernel, indices.size(), "gather " + what);
  run.download(compact, gathered.data(), gathered.size(), what);
  return gathered;
}

void scatter(DeviceRun& run, DeviceBuffer<cl_float4>& values, const std::vector<std::int32_t>& indices,
  const std::vector<cl_float4>& scattered, const std::string& what)
{
  if (scattered.size() != indices.size())
  {
    throw Error(what + ": " + std::to_string(scattered.size()) + " values for " +
      std::to_string(indices.size()) + " indices");
  }
  if (indices.empty())
  {
    return;
  }
  const DeviceBuffer<cl_int> where = checkedIndices(run, indices, values.size(), what);
  const DeviceBuffer<cl_float4> compact = run.upload(scattered.data(), scattered.size(), what);
  cl::Kernel kernel = run.kernel("indexed_copy", "scatter_float4");
  run.setArguments(kernel, values, where, static_cast<cl_int>(indices.size()), compact);
  run.launch(kernel, indices.size(), "scatter " + what);
}

void fillAt(DeviceRun& run, DeviceBuffer<float>& values, const std::vector<std::int32_t>& indices,
  float value, const std::string& what)
{
  if (indices.empty())
  {
    return;
  }
  const DeviceBuffer<cl_int> where = checkedIndices(run, indices, values.size(), what);
  cl::Kernel kernel = run.kernel("indexed_copy", "fill_float_at");
  run.setArguments(kernel, values, where, static_cast<cl_int>(indices.size()), value);
  run.launch(kernel, indices.size(), "fill " + what);
}

} // namespace gpumesh
