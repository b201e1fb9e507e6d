// The mesh a filter computes on (private to the module): a dataset, and under MPI the ghost
// layer around it (points and cells of other processes) in arrays of its own that follow the
// dataset's points and cells. The dataset goes to the device as it is, never copied into a
// larger one: only the layer is extra.
#ifndef vtkGPUMeshPiece_h
#define vtkGPUMeshPiece_h

#include "vtkSmartPointer.h"
#include "vtkType.h"

class vtkCellArray;
class vtkCellData;
class vtkDataArray;
class vtkPointData;
class vtkPointSet;
class vtkUnsignedCharArray;

struct vtkGPUMeshPiece
{
  /// The dataset: its points and cells come first.
  vtkPointSet* Data = nullptr;

  ///@{
  /// The ghost layer, or all null: points after Data's (coordinates of the same type as
  /// Data's), cells after Data's (point ids in the piece's numbering: Data's points, then
  /// MorePoints) with their VTK types, and the point and cell arrays of both, named as Data's.
  vtkSmartPointer<vtkDataArray> MorePoints;
  vtkSmartPointer<vtkCellArray> MoreCells;
  vtkSmartPointer<vtkUnsignedCharArray> MoreTypes;
  vtkSmartPointer<vtkPointData> MorePointData;
  vtkSmartPointer<vtkCellData> MoreCellData;
  ///@}

  /// How many of the first points and cells a filter's result needs values for (the others
  /// are ghosts, computed by their owners); all of them unless set.
  vtkIdType ResultPoints = -1;
  vtkIdType ResultCells = -1;

  /// A piece of `data` alone.
  static vtkGPUMeshPiece Of(vtkPointSet* data);

  vtkIdType GetNumberOfPoints() const;
  vtkIdType GetNumberOfCells() const;
  vtkIdType GetNumberOfResultPoints() const;
  vtkIdType GetNumberOfResultCells() const;
  /// Point p of the piece (Data's, then MorePoints').
  void GetPoint(vtkIdType p, double xyz[3]) const;
  /// The ghost layer's same-named array of `dataArray` (a point or cell array of Data), or
  /// null when there is no layer; an error naming it when the layer lacks it.
  vtkDataArray* MoreValuesOf(vtkDataArray* dataArray, bool atPoints) const;
};

#endif
