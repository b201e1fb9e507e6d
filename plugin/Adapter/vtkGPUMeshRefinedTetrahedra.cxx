#include "vtkGPUMeshRefinedTetrahedra.h"

#include "vtkGPUMeshOutputArrays.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkSMPTools.h"
#include "vtkTypeInt32Array.h"
#include "vtkUnstructuredGrid.h"

namespace vtkGPUMeshRefinedTetrahedra
{

void BuildCells(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined)
{
  const auto count = static_cast<vtkIdType>(refined.cellCount);
  const auto kept = static_cast<vtkIdType>(refined.keptCount);
  auto connectivity = vtkGPUMeshOutputArrays::New<vtkTypeInt32Array>(4 * count);
  run.download(refined.kept, connectivity->GetPointer(0), 4 * refined.keptCount, "refined tetrahedra");
  run.download(refined.appended, connectivity->GetPointer(4 * kept), 4 * (refined.cellCount - refined.keptCount),
    "appended tetrahedra");
  auto offsets = vtkGPUMeshOutputArrays::New<vtkTypeInt32Array>(count + 1);
  vtkSMPTools::For(0, count + 1, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      offsets->SetValue(c, static_cast<vtkTypeInt32>(4 * c));
  });
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);
  vtkUnstructuredGrid::SafeDownCast(output)->SetCells(VTK_TETRA, cells);

  // Parents: the kept tetrahedra are their own parents in a first pass (keptParent empty).
  const bool identity = refined.keptParent.empty();
  auto parentIds = vtkGPUMeshOutputArrays::New<vtkIdTypeArray>(count);
  parentIds->SetName("ParentCellId");
  const vtkIdType downloadedFrom = identity ? kept : 0;
  auto downloaded = vtkGPUMeshOutputArrays::New<vtkTypeInt32Array>(count - downloadedFrom);
  if (!identity)
    run.download(refined.keptParent, downloaded->GetPointer(0), refined.keptCount, "parents");
  run.download(refined.appendedParent, downloaded->GetPointer(kept - downloadedFrom),
    refined.cellCount - refined.keptCount, "parents");
  vtkIdType* parentId = parentIds->GetPointer(0);
  const vtkTypeInt32* fromDevice = downloaded->GetPointer(0);
  vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      parentId[c] = c < downloadedFrom ? c : fromDevice[c - downloadedFrom];
  });

  // Cell data: after a first pass the kept tetrahedra are their own parents (one contiguous
  // copy); only the appended children are gathered.
  vtkGPUMeshOutputArrays::CopyParentCellData(input->GetCellData(), output->GetCellData(), parentIds, downloadedFrom);
  output->GetCellData()->AddArray(parentIds);
}

} // namespace vtkGPUMeshRefinedTetrahedra
