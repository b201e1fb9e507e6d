// Raw passes over a vtkCellArray (private to the module): the distributed path reads cells in
// parallel through their offsets and connectivity, whichever width VTK stores them in.
#ifndef vtkGPUMeshCellArrays_h
#define vtkGPUMeshCellArrays_h

#include "vtkCellArray.h"
#include "vtkSMPTools.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace vtkGPUMeshCellArrays
{

/// Calls work(offsets, connectivity) with the raw arrays of `cells`, 32- or 64-bit.
template <typename Work>
void WithStorage(vtkCellArray* cells, Work&& work)
{
  if (cells->IsStorage64Bit())
  {
    work(cells->GetOffsetsArray64()->GetPointer(0), cells->GetConnectivityArray64()->GetPointer(0));
  }
  else
  {
    work(cells->GetOffsetsArray32()->GetPointer(0), cells->GetConnectivityArray32()->GetPointer(0));
  }
}

/// The cells c of `cells` (numbered from `firstCell`) for which take(c) holds and a point is
/// flagged in `points`, ascending: searched on all threads in fixed blocks.
template <typename Take>
std::vector<vtkIdType> CellsTouching(
  vtkCellArray* cells, vtkIdType firstCell, const std::vector<std::uint8_t>& points, Take take)
{
  constexpr vtkIdType block = 1 << 16;
  const vtkIdType count = cells->GetNumberOfCells();
  const vtkIdType blocks = (count + block - 1) / block;
  std::vector<std::vector<vtkIdType>> perBlock(static_cast<std::size_t>(blocks));
  WithStorage(cells, [&](const auto* offsets, const auto* ids) {
    vtkSMPTools::For(0, blocks, [&](vtkIdType first, vtkIdType last) {
      for (vtkIdType b = first; b < last; ++b)
      {
        for (vtkIdType c = b * block; c < std::min(count, (b + 1) * block); ++c)
        {
          for (auto k = offsets[c]; k < offsets[c + 1]; ++k)
          {
            if (points[ids[k]])
            {
              if (take(firstCell + c))
                perBlock[b].push_back(firstCell + c);
              break;
            }
          }
        }
      }
    });
  });
  std::vector<vtkIdType> found;
  for (const auto& part : perBlock)
  {
    found.insert(found.end(), part.begin(), part.end());
  }
  return found;
}

} // namespace vtkGPUMeshCellArrays

#endif
