#include "vtkGPUMeshOwnedValues.h"

#include "vtkGPUMeshDistributed.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDataSetAttributes.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkSmartPointer.h"

#include <cmath>
#include <vector>

namespace
{
// What an input ghost gets: NaN, or -1 in an integer array (which has no NaN).
double ghostValue(vtkDataArray* array)
{
  const int type = array->GetDataType();
  return type == VTK_FLOAT || type == VTK_DOUBLE ? NAN : -1.0;
}

// Every array of `piece` as an array of the input's entries (`source`: PieceEntries), into `out`.
void addOwned(vtkDataSetAttributes* piece, const std::vector<vtkIdType>& source, vtkDataSetAttributes* out)
{
  for (int a = 0; a < piece->GetNumberOfArrays(); ++a)
  {
    vtkDataArray* array = piece->GetArray(a);
    out->AddArray(vtkGPUMeshDistributed::InputArrayOfPiece(array, source, ghostValue(array)));
  }
}
} // namespace

void vtkGPUMeshOwnedValues::Compute(
  vtkPointSet* input, vtkPointSet* output, vtkMultiProcessController* controller, const Computation& compute)
{
  if (!controller)
  {
    compute(input, nullptr, output);
    return;
  }
  const vtkGPUMeshDistributed::GhostedPiece& piece = this->Cache.Get(input, controller, output->GetFieldData());
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller);
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    vtkSmartPointer<vtkPointSet> result = vtk::TakeSmartPointer(piece.Mesh->NewInstance());
    compute(piece.Mesh, &origin, result);
    if (result->GetCellData()->GetNumberOfArrays() > 0)
    {
      addOwned(result->GetCellData(), vtkGPUMeshDistributed::PieceEntries(piece.InputCell, input->GetNumberOfCells()),
        output->GetCellData());
    }
    vtkPoints* moved = result->GetPoints();
    if (result->GetPointData()->GetNumberOfArrays() == 0 && !moved)
    {
      return;
    }
    const std::vector<vtkIdType> source =
      vtkGPUMeshDistributed::PieceEntries(piece.InputPoint, input->GetNumberOfPoints());
    addOwned(result->GetPointData(), source, output->GetPointData());
    if (moved)
    {
      vtkSmartPointer<vtkDataArray> xyz = vtkGPUMeshDistributed::InputArrayOfPiece(moved->GetData(), source, NAN);
      // Points only the input's own ghost cells use keep their coordinates.
      for (vtkIdType p = 0; p < input->GetNumberOfPoints(); ++p)
        if (source[p] < 0)
          xyz->SetTuple(p, input->GetPoint(p));
      vtkNew<vtkPoints> points;
      points->SetData(xyz);
      output->SetPoints(points);
    }
  });
}
