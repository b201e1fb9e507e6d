// Raw passes over a vtkCellArray (private to the module): the distributed path reads cells in
// parallel through their offsets and connectivity, whichever width VTK stores them in, and
// checks their point ids as it reads them.
#ifndef vtkGPUMeshCellArrays_h
#define vtkGPUMeshCellArrays_h

#include "vtkCellArray.h"
#include "vtkDataArray.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"

#include "vtkGPUMeshHostLoops.h"

#include "gpumesh/runtime/Error.h"

#include <algorithm>
#include <cstdint>
#include <string>
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

/// "Cell c refers to point id, outside the piece's n points" for the cell of `cells` (numbered
/// from `firstCell`) whose ids hold position `position`.
inline std::string OutsideMessage(vtkCellArray* cells, vtkIdType firstCell, vtkIdType position, vtkIdType points)
{
  vtkDataArray* offsets = cells->GetOffsetsArray();
  vtkIdType low = 0, high = cells->GetNumberOfCells(); // the cell: offsets[c] <= position < offsets[c + 1]
  while (high - low > 1)
  {
    const vtkIdType middle = (low + high) / 2;
    (static_cast<vtkIdType>(offsets->GetComponent(middle, 0)) <= position ? low : high) = middle;
  }
  const auto id = static_cast<long long>(cells->GetConnectivityArray()->GetComponent(position, 0));
  return "Cell " + std::to_string(firstCell + low) + " refers to point " + std::to_string(id) +
    ", outside the piece's " + std::to_string(points) + " points";
}

/// The cells c of `cells` (numbered from `firstCell`) for which take(c) holds and a point is
/// flagged (non-zero) in `points`, ascending: searched on all threads in fixed blocks. Every point id is
/// read, so each is checked too: one outside `points` is a gpumesh::Error naming the first
/// such cell (OutsideMessage), thrown after the search.
template <typename Flags, typename Take>
std::vector<vtkIdType> CellsTouching(vtkCellArray* cells, vtkIdType firstCell, const Flags& points, Take take)
{
  constexpr vtkIdType block = 1 << 16;
  const vtkIdType count = cells->GetNumberOfCells();
  const vtkIdType blocks = (count + block - 1) / block;
  const auto pointCount = static_cast<long long>(points.size());
  std::vector<std::vector<vtkIdType>> perBlock(static_cast<std::size_t>(blocks));
  std::vector<vtkIdType> outside(static_cast<std::size_t>(blocks), -1); // per block: the first bad position
  WithStorage(cells, [&](const auto* offsets, const auto* ids) {
    vtkGPUMeshHostLoops::For(0, blocks, [&](vtkIdType first, vtkIdType last) {
      for (vtkIdType b = first; b < last; ++b)
      {
        for (vtkIdType c = b * block; c < std::min(count, (b + 1) * block); ++c)
        {
          bool touches = false;
          for (auto k = offsets[c]; k < offsets[c + 1]; ++k)
          {
            const auto id = static_cast<long long>(ids[k]);
            if (id < 0 || id >= pointCount)
            {
              if (outside[b] < 0)
                outside[b] = static_cast<vtkIdType>(k);
              touches = false;
              break;
            }
            touches = touches || points[id] != 0;
          }
          if (touches && take(firstCell + c))
            perBlock[b].push_back(firstCell + c);
        }
      }
    });
  });
  for (vtkIdType b = 0; b < blocks; ++b)
  {
    if (outside[b] >= 0)
      throw gpumesh::Error(OutsideMessage(cells, firstCell, outside[b], pointCount));
  }
  std::vector<vtkIdType> found;
  for (const auto& part : perBlock)
  {
    found.insert(found.end(), part.begin(), part.end());
  }
  return found;
}

} // namespace vtkGPUMeshCellArrays

#endif
