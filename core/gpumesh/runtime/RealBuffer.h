// A device array of REAL values: float or double, as the precision of the run that made it.
#pragma once
#include "gpumesh/runtime/DeviceBuffer.h"
#include "gpumesh/runtime/Precision.h"

namespace gpumesh
{

/// Move-only, like DeviceBuffer; made by DeviceRun::allocateReal / uploadReal. `size()` counts
/// REAL values, not bytes.
class RealBuffer
{
public:
  RealBuffer() = default;
  RealBuffer(DeviceBuffer<cl_uchar> storage, std::size_t count, Precision precision)
    : Storage(std::move(storage))
    , Count(count)
    , Type(precision)
  {
  }

  std::size_t size() const { return Count; }
  bool empty() const { return Count == 0; }
  std::size_t bytes() const { return Count * realSize(Type); }
  Precision precision() const { return Type; }
  const cl::Buffer& handle() const { return Storage.handle(); }
  void release()
  {
    Storage.release();
    Count = 0;
  }

private:
  DeviceBuffer<cl_uchar> Storage;
  std::size_t Count = 0;
  Precision Type = Precision::Single;
};

} // namespace gpumesh
