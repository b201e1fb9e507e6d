#include "gpumesh/primitives/IndexedCopy.h"

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

std::vector<double> gather(DeviceRun& run, const RealBuffer& values, int width,
  const std::vector<std::int32_t>& indices, const std::string& what)
{
  std::vector<double> gathered(static_cast<std::size_t>(width) * indices.size());
  if (indices.empty())
  {
    return gathered;
  }
  const DeviceBuffer<cl_int> where = checkedIndices(run, indices, values.size() / width, what);
  RealBuffer compact = run.allocateReal(gathered.size(), what);
  run.call({ "indexed_copy", "gather_real" }, indices.size(), "gather " + what, values,
    static_cast<cl_int>(width), where, static_cast<cl_int>(indices.size()), compact);
  run.download(compact, gathered.data(), gathered.size(), what);
  return gathered;
}

std::vector<cl_int> gather(DeviceRun& run, const DeviceBuffer<cl_int>& values, int width,
  const std::vector<std::int32_t>& indices, const std::string& what)
{
  std::vector<cl_int> gathered(static_cast<std::size_t>(width) * indices.size());
  if (indices.empty())
  {
    return gathered;
  }
  const DeviceBuffer<cl_int> where = checkedIndices(run, indices, values.size() / width, what);
  DeviceBuffer<cl_int> compact = run.allocate<cl_int>(gathered.size(), what);
  run.call({ "indexed_copy", "gather_int" }, indices.size(), "gather " + what, values,
    static_cast<cl_int>(width), where, static_cast<cl_int>(indices.size()), compact);
  run.download(compact, gathered.data(), gathered.size(), what);
  return gathered;
}

void scatter(DeviceRun& run, RealBuffer& values, int width, const std::vector<std::int32_t>& indices,
  const std::vector<double>& scattered, const std::string& what)
{
  if (scattered.size() != static_cast<std::size_t>(width) * indices.size())
  {
    throw Error(what + ": " + std::to_string(scattered.size()) + " values for " +
      std::to_string(indices.size()) + " indices of " + std::to_string(width));
  }
  if (indices.empty())
  {
    return;
  }
  const DeviceBuffer<cl_int> where = checkedIndices(run, indices, values.size() / width, what);
  const RealBuffer compact = run.uploadReal(scattered.data(), scattered.size(), what);
  run.call({ "indexed_copy", "scatter_real" }, indices.size(), "scatter " + what, values,
    static_cast<cl_int>(width), where, static_cast<cl_int>(indices.size()), compact);
}

void fillAt(DeviceRun& run, RealBuffer& values, const std::vector<std::int32_t>& indices, double value,
  const std::string& what)
{
  if (indices.empty())
  {
    return;
  }
  const DeviceBuffer<cl_int> where = checkedIndices(run, indices, values.size(), what);
  run.call({ "indexed_copy", "fill_real_at" }, indices.size(), "fill " + what, values, where,
    static_cast<cl_int>(indices.size()), run.real(value));
}

} // namespace gpumesh
