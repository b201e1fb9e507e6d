// Copies of selected elements of a device buffer: what a distributed run exchanges (the points
// on a process interface) or masks (ghost cells), without moving whole buffers.
#pragma once
#include "gpumesh/runtime/DeviceRun.h"

#include <cstdint>
#include <string>
#include <vector>

namespace gpumesh
{

/// Elements of `width` REALs: values[width * indices[i] + k] for every i and k < width, on the
/// host in double (exact for either precision). Throws gpumesh::Error naming an index outside
/// the buffer.
std::vector<double> gather(DeviceRun& run, const RealBuffer& values, int width,
  const std::vector<std::int32_t>& indices, const std::string& what);

/// The same for 32-bit integers (e.g. the corners of selected cells).
std::vector<cl_int> gather(DeviceRun& run, const DeviceBuffer<cl_int>& values, int width,
  const std::vector<std::int32_t>& indices, const std::string& what);

/// values[width * indices[i] + k] = scattered[width * i + k]. The indices must be distinct; a
/// value outside the run's precision is an error (DeviceRun::uploadReal).
void scatter(DeviceRun& run, RealBuffer& values, int width, const std::vector<std::int32_t>& indices,
  const std::vector<double>& scattered, const std::string& what);

/// Indices of `elements` elements (of `width` REALs each), checked and on the device once, for
/// gathers and scatters of the same elements repeated within a run (a distributed run's halo,
/// exchanged every step): each then costs its kernel and its values' transfer alone.
class DeviceIndices
{
public:
  DeviceIndices() = default;
  /// Throws gpumesh::Error naming an index outside [0, elements).
  DeviceIndices(DeviceRun& run, const std::vector<std::int32_t>& indices, std::size_t elements, const std::string& what);

  std::size_t size() const { return Count; }

  /// As gather above; `values` must hold the elements the indices were checked against.
  std::vector<double> gather(DeviceRun& run, const RealBuffer& values, int width) const;
  /// As scatter above.
  void scatter(DeviceRun& run, RealBuffer& values, int width, const std::vector<double>& scattered) const;

  /// The same into and out of the caller's width * size() values: in the buffer's own precision
  /// nothing is converted or copied on the host (a halo exchanged every step sends them as they
  /// are).
  void gather(DeviceRun& run, const RealBuffer& values, int width, float* out) const;
  void gather(DeviceRun& run, const RealBuffer& values, int width, double* out) const;
  void scatter(DeviceRun& run, RealBuffer& values, int width, const float* scattered) const;
  void scatter(DeviceRun& run, RealBuffer& values, int width, const double* scattered) const;

private:
  void requireElements(const RealBuffer& values, int width) const;
  template <typename Host>
  void gatherInto(DeviceRun& run, const RealBuffer& values, int width, Host* out) const;
  template <typename Host>
  void scatterFrom(DeviceRun& run, RealBuffer& values, int width, const Host* scattered) const;

  DeviceBuffer<cl_int> Where;
  std::size_t Count = 0;
  std::size_t Elements = 0;
  std::string What;
};

/// values[indices[i]] = value for every i (NaN included).
void fillAt(DeviceRun& run, RealBuffer& values, const std::vector<std::int32_t>& indices, double value,
  const std::string& what);

} // namespace gpumesh
