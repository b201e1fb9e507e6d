#include "vtkGPUMeshOwnedValues.h"

#include "vtkGPUMeshDistributed.h"

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDataSetAttributes.h"
#include "vtkIdList.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkSmartPointer.h"
#include "vtkTimerLog.h"

#include <cmath>
#include <cstdint>
#include <vector>

namespace
{
// What an input ghost gets: NaN, or -1 in an integer array (which has no NaN).
double ghostValue(vtkDataArray* array)
{
  const int type = array->GetDataType();
  return type == VTK_FLOAT || type == VTK_DOUBLE ? NAN : -1.0;
}

// Every array of `piece` as an array of the input's `count` entries (`source`: see
// InputArrayOfPiece), into `out`.
void addOwned(
  vtkDataSetAttributes* piece, const std::vector<vtkIdType>& source, vtkIdType count, vtkDataSetAttributes* out)
{
  for (int a = 0; a < piece->GetNumberOfArrays(); ++a)
  {
    vtkDataArray* array = piece->GetArray(a);
    out->AddArray(vtkGPUMeshDistributed::InputArrayOfPiece(array, source, count, ghostValue(array)));
  }
}
} // namespace

void vtkGPUMeshOwnedValues::Compute(vtkPointSet* input, vtkPointSet* output, vtkMultiProcessController* controller,
  const Computation& compute, const vtkGPUMeshDistributed::PieceDevice* device)
{
  if (!controller)
  {
    compute(vtkGPUMeshPiece::Of(input), nullptr, output);
    return;
  }
  const vtkGPUMeshDistributed::GhostedPiece& piece = this->Cache.Get(input, controller, output->GetFieldData(), device);
  vtkTimerLog::MarkStartEvent("GPUMesh: global bounds");
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(piece.InputBox, controller);
  vtkTimerLog::MarkEndEvent("GPUMesh: global bounds");
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    vtkSmartPointer<vtkPointSet> result = vtk::TakeSmartPointer(piece.Mesh->NewInstance());
    vtkTimerLog::MarkStartEvent("GPUMesh: compute on piece");
    compute(piece.View(), &origin, result);
    vtkTimerLog::MarkEndEvent("GPUMesh: compute on piece");
    vtkTimerLogScope owned("GPUMesh: owned values of piece");
    if (result->GetCellData()->GetNumberOfArrays() > 0)
    {
      addOwned(result->GetCellData(), vtkGPUMeshDistributed::PieceCellsOfInput(piece, input->GetNumberOfCells()),
        input->GetNumberOfCells(), output->GetCellData());
    }
    vtkPoints* moved = result->GetPoints();
    if (result->GetPointData()->GetNumberOfArrays() == 0 && !moved)
    {
      return;
    }
    // The piece's first points are the input's, in order.
    const std::vector<vtkIdType> identity;
    addOwned(result->GetPointData(), identity, input->GetNumberOfPoints(), output->GetPointData());
    if (moved)
    {
      vtkSmartPointer<vtkDataArray> xyz =
        vtkGPUMeshDistributed::InputArrayOfPiece(moved->GetData(), identity, input->GetNumberOfPoints(), NAN);
      if (!piece.OwnedInputCell.empty())
      {
        // Points only the input's own ghost cells use keep their coordinates (their owner moves
        // them): here their neighbourhood may be cut.
        std::vector<std::uint8_t> usedByOwned(static_cast<std::size_t>(input->GetNumberOfPoints()), 0);
        vtkNew<vtkIdList> ids;
        for (vtkIdType c = 0; c < piece.OwnedCells; ++c)
        {
          piece.Mesh->GetCellPoints(c, ids);
          for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k)
            if (ids->GetId(k) < input->GetNumberOfPoints())
              usedByOwned[ids->GetId(k)] = 1;
        }
        for (vtkIdType p = 0; p < input->GetNumberOfPoints(); ++p)
          if (!usedByOwned[p])
            xyz->SetTuple(p, input->GetPoint(p));
      }
      vtkNew<vtkPoints> points;
      points->SetData(xyz);
      output->SetPoints(points);
    }
  });
}
