#include "vtkGPUMeshPiece.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkUnsignedCharArray.h"

#include "gpumesh/runtime/Error.h"

#include <string>

vtkGPUMeshPiece vtkGPUMeshPiece::Of(vtkPointSet* data)
{
  vtkGPUMeshPiece piece;
  piece.Data = data;
  return piece;
}

vtkIdType vtkGPUMeshPiece::GetNumberOfPoints() const
{
  return this->Data->GetNumberOfPoints() + (this->MorePoints ? this->MorePoints->GetNumberOfTuples() : 0);
}

vtkIdType vtkGPUMeshPiece::GetNumberOfCells() const
{
  return this->Data->GetNumberOfCells() + (this->MoreCells ? this->MoreCells->GetNumberOfCells() : 0);
}

vtkIdType vtkGPUMeshPiece::GetNumberOfResultPoints() const
{
  return this->ResultPoints >= 0 ? this->ResultPoints : this->GetNumberOfPoints();
}

vtkIdType vtkGPUMeshPiece::GetNumberOfResultCells() const
{
  return this->ResultCells >= 0 ? this->ResultCells : this->GetNumberOfCells();
}

void vtkGPUMeshPiece::GetPoint(vtkIdType p, double xyz[3]) const
{
  const vtkIdType own = this->Data->GetNumberOfPoints();
  if (p < own)
    this->Data->GetPoint(p, xyz);
  else
    this->MorePoints->GetTuple(p - own, xyz);
}

vtkDataArray* vtkGPUMeshPiece::MoreValuesOf(vtkDataArray* dataArray, bool atPoints) const
{
  vtkDataSetAttributes* more = atPoints ? static_cast<vtkDataSetAttributes*>(this->MorePointData)
                                        : static_cast<vtkDataSetAttributes*>(this->MoreCellData);
  const vtkIdType count = atPoints ? (this->MorePoints ? this->MorePoints->GetNumberOfTuples() : 0)
                                   : (this->MoreCells ? this->MoreCells->GetNumberOfCells() : 0);
  if (count == 0)
  {
    return nullptr;
  }
  const char* name = dataArray->GetName();
  vtkDataArray* found = more && name ? more->GetArray(name) : nullptr;
  if (!found || found->GetNumberOfTuples() != count ||
    found->GetNumberOfComponents() != dataArray->GetNumberOfComponents())
  {
    throw gpumesh::Error(std::string("The ghost layer of this piece lacks the ") + (atPoints ? "point" : "cell") +
      " array '" + (name ? name : "") + "' (another process's piece has no such array)");
  }
  return found;
}
