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
  return DeviceIndices(run, indices, values.size() / width, what).gather(run, values, width);
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
  DeviceIndices(run, indices, values.size() / width, what).scatter(run, values, width, scattered);
}

DeviceIndices::DeviceIndices(
  DeviceRun& run, const std::vector<std::int32_t>& indices, std::size_t elements, const std::string& what)
  : Count(indices.size())
  , Elements(elements)
  , What(what)
{
  if (!indices.empty())
    Where = checkedIndices(run, indices, elements, what);
}

void DeviceIndices::requireElements(const RealBuffer& values, int width) const
{
  if (width <= 0 || values.size() / static_cast<std::size_t>(width) < Elements)
  {
    throw Error(What + ": a buffer of " + std::to_string(values.size()) + " values holds fewer than the " +
      std::to_string(Elements) + " elements of " + std::to_string(width) + " its indices were checked against");
  }
}

template <typename Host>
void DeviceIndices::gatherInto(DeviceRun& run, const RealBuffer& values, int width, Host* out) const
{
  if (Count == 0)
    return;
  requireElements(values, width);
  const std::size_t count = static_cast<std::size_t>(width) * Count;
  RealBuffer compact = run.allocateReal(count, What);
  run.call({ "indexed_copy", "gather_real" }, Count, "gather " + What, values, static_cast<cl_int>(width), Where,
    static_cast<cl_int>(Count), compact);
  run.download(compact, out, count, What);
}

template <typename Host>
void DeviceIndices::scatterFrom(DeviceRun& run, RealBuffer& values, int width, const Host* scattered) const
{
  if (Count == 0)
    return;
  requireElements(values, width);
  const RealBuffer compact = run.uploadReal(scattered, static_cast<std::size_t>(width) * Count, What);
  run.call({ "indexed_copy", "scatter_real" }, Count, "scatter " + What, values, static_cast<cl_int>(width), Where,
    static_cast<cl_int>(Count), compact);
}

std::vector<double> DeviceIndices::gather(DeviceRun& run, const RealBuffer& values, int width) const
{
  std::vector<double> gathered(static_cast<std::size_t>(width) * Count);
  gatherInto(run, values, width, gathered.data());
  return gathered;
}

void DeviceIndices::gather(DeviceRun& run, const RealBuffer& values, int width, float* out) const
{
  gatherInto(run, values, width, out);
}

void DeviceIndices::gather(DeviceRun& run, const RealBuffer& values, int width, double* out) const
{
  gatherInto(run, values, width, out);
}

void DeviceIndices::scatter(DeviceRun& run, RealBuffer& values, int width, const std::vector<double>& scattered) const
{
  if (scattered.size() != static_cast<std::size_t>(width) * Count)
  {
    throw Error(What + ": " + std::to_string(scattered.size()) + " values for " + std::to_string(Count) +
      " indices of " + std::to_string(width));
  }
  scatterFrom(run, values, width, scattered.data());
}

void DeviceIndices::scatter(DeviceRun& run, RealBuffer& values, int width, const float* scattered) const
{
  scatterFrom(run, values, width, scattered);
}

void DeviceIndices::scatter(DeviceRun& run, RealBuffer& values, int width, const double* scattered) const
{
  scatterFrom(run, values, width, scattered);
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
