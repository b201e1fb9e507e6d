#include "vtkGPUMeshRefinedTetrahedra.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkSMPTools.h"
#include "vtkTypeInt32Array.h"
#include "vtkUnstructuredGrid.h"

#include <vector>

namespace vtkGPUMeshRefinedTetrahedra
{

void BuildCells(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedTetrahedra& refined)
{
  const auto count = static_cast<vtkIdType>(refined.tetrahedronCount);
  const auto kept = static_cast<vtkIdType>(refined.keptCount);
  vtkNew<vtkTypeInt32Array> connectivity;
  connectivity->SetNumberOfValues(4 * count);
  run.download(refined.tetrahedra, connectivity->GetPointer(0), 4 * refined.keptCount, "refined tetrahedra");
  run.download(refined.appended, connectivity->GetPointer(4 * kept), 4 * (refined.tetrahedronCount - refined.keptCount),
    "appended tetrahedra");
  vtkNew<vtkTypeInt32Array> offsets;
  offsets->SetNumberOfValues(count + 1);
  vtkSMPTools::For(0, count + 1, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      offsets->SetValue(c, static_cast<vtkTypeInt32>(4 * c));
  });
  vtkNew<vtkCellArray> cells;
  cells->SetData(offsets, connectivity);
  vtkUnstructuredGrid::SafeDownCast(output)->SetCells(VTK_TETRA, cells);

  // Parents: the kept tetrahedra are their own parents in a first pass (keptParent empty).
  vtkNew<vtkIdTypeArray> parentIds;
  parentIds->SetName("ParentCellId");
  parentIds->SetNumberOfValues(count);
  std::vector<cl_int> parents(refined.tetrahedronCount);
  const bool identity = refined.keptParent.empty();
  if (!identity)
    run.download(refined.keptParent, parents.data(), refined.keptCount, "parents");
  run.download(refined.appendedParent, parents.data() + kept, refined.tetrahedronCount - refined.keptCount, "parents");
  vtkSMPTools::For(0, count, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
      parentIds->SetValue(c, identity && c < kept ? c : parents[static_cast<std::size_t>(c)]);
  });

  // Cell data: after a first pass the kept tetrahedra are their own parents (one contiguous
  // copy); only the appended children are gathered.
  vtkCellData* in = input->GetCellData();
  vtkCellData* out = output->GetCellData();
  const vtkIdType gatheredFrom = identity ? kept : 0;
  vtkNew<vtkIdList> from;
  from->SetArray(parentIds->GetPointer(gatheredFrom), count - gatheredFrom);
  for (int i = 0; i < in->GetNumberOfArrays(); ++i)
  {
    vtkAbstractArray* source = in->GetAbstractArray(i);
    vtkSmartPointer<vtkAbstractArray> array = vtk::TakeSmartPointer(source->NewInstance());
    array->SetName(source->GetName());
    array->SetNumberOfComponents(source->GetNumberOfComponents());
    array->SetNumberOfTuples(count);
    if (gatheredFrom > 0)
      array->InsertTuples(0, gatheredFrom, 0, source);
    if (count > gatheredFrom) // VTK's tuple copy reads the id list's first entry even when it is empty
      array->InsertTuplesStartingAt(gatheredFrom, from, source);
    out->AddArray(array);
  }
  from->Release(); // the ids stay parentIds'
  for (int attribute = 0; attribute < vtkDataSetAttributes::NUM_ATTRIBUTES; ++attribute)
    if (vtkAbstractArray* active = in->GetAbstractAttribute(attribute))
      out->SetActiveAttribute(active->GetName(), attribute);
  out->AddArray(parentIds);
}

} // namespace vtkGPUMeshRefinedTetrahedra
