// The filters' host loops (copies, gathers and passes as large as the mesh) on the core's
// threads, which are started once per process (gpumesh::parallelFor), instead of vtkSMPTools:
// the STDThread backend of this ParaView's VTK starts its threads anew for every loop, and a
// filter runs many such loops. As many threads as vtkSMPTools would use where the loop runs
// (the filter's LocalScope sets them; one with the Sequential backend). Private to the module.
#ifndef vtkGPUMeshHostLoops_h
#define vtkGPUMeshHostLoops_h

#include "vtkSMPTools.h"
#include "vtkType.h"

#include "gpumesh/runtime/HostThreadPool.h"

#include <algorithm>
#include <cstdint>
#include <vector>

namespace vtkGPUMeshHostLoops
{

/// The threads a loop started here runs on (at least 1).
inline unsigned Threads()
{
  return static_cast<unsigned>(std::max(1, vtkSMPTools::GetEstimatedNumberOfThreads()));
}

/// body(first, last) over [begin, end) in blocks of `grain` (0: about four a thread), as
/// vtkSMPTools::For; an exception in any block is rethrown here.
template <typename Body>
void For(vtkIdType begin, vtkIdType end, vtkIdType grain, Body&& body)
{
  gpumesh::parallelFor(begin, end, grain, Threads(), [&body](std::int64_t first, std::int64_t last) {
    body(static_cast<vtkIdType>(first), static_cast<vtkIdType>(last));
  });
}

template <typename Body>
void For(vtkIdType begin, vtkIdType end, Body&& body)
{
  For(begin, end, 0, std::forward<Body>(body));
}

/// Lists made on all threads in fixed blocks of `block` items of [0, count): body(first, last,
/// add) visits the items [first, last) of one block in order and calls add(list, value) to
/// append a value to list `list` (of `lists`). Each list holds its values in item order, as one
/// loop over [0, count) would have made it (the blocks' lists joined in block order).
template <typename T, typename Body>
std::vector<std::vector<T>> Lists(vtkIdType count, std::size_t lists, vtkIdType block, Body&& body)
{
  const vtkIdType blocks = (count + block - 1) / block;
  std::vector<std::vector<std::vector<T>>> perBlock(static_cast<std::size_t>(blocks));
  For(0, blocks, [&](vtkIdType firstBlock, vtkIdType lastBlock) {
    for (vtkIdType b = firstBlock; b < lastBlock; ++b)
    {
      std::vector<std::vector<T>>& own = perBlock[static_cast<std::size_t>(b)];
      own.resize(lists);
      const auto add = [&own](std::size_t list, const T& value) { own[list].push_back(value); };
      body(b * block, std::min(count, (b + 1) * block), add);
    }
  });
  std::vector<std::vector<T>> joined(lists);
  for (std::size_t l = 0; l < lists; ++l)
  {
    std::size_t size = 0;
    for (const auto& own : perBlock)
      size += own[l].size();
    joined[l].reserve(size);
    for (const auto& own : perBlock)
      joined[l].insert(joined[l].end(), own[l].begin(), own[l].end());
  }
  return joined;
}

/// The indices i of [0, count) for which keep(i) holds, ascending: tested on all threads in
/// fixed blocks, each block's list joined in block order.
template <typename Keep>
std::vector<vtkIdType> Where(vtkIdType count, Keep&& keep)
{
  std::vector<std::vector<vtkIdType>> found =
    Lists<vtkIdType>(count, 1, 1 << 16, [&](vtkIdType first, vtkIdType last, const auto& add) {
      for (vtkIdType i = first; i < last; ++i)
        if (keep(i))
          add(0, i);
    });
  return std::move(found[0]);
}

/// [first, last) set to `value`, as vtkSMPTools::Fill.
template <typename Iterator, typename T>
void Fill(Iterator first, Iterator last, const T& value)
{
  For(0, static_cast<vtkIdType>(last - first),
    [&](vtkIdType begin, vtkIdType end) { std::fill(first + begin, first + end, value); });
}

} // namespace vtkGPUMeshHostLoops

#endif
