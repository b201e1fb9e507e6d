// Where a piece meets the others (private to the module): its neighbouring processes, the
// global id of each of its points, and the points it shares with each neighbour. Found from the
// pieces' bounding boxes and one exchange with the neighbours of the points in their boxes (the
// interface candidates), never from a pass over every process's data.
#ifndef vtkGPUMeshPieceInterface_h
#define vtkGPUMeshPieceInterface_h

#include "vtkGPUMeshNeighbors.h"

#include "vtkType.h"

#include "gpumesh/runtime/HostMemory.h"

#include <vector>

class vtkMultiProcessController;
class vtkPointSet;

struct vtkGPUMeshPieceInterface
{
  /// Collective. Global point ids are the input's (vtkPointData::GetGlobalIds) when every
  /// non-empty piece has them; otherwise they are generated: a point takes the smallest of
  /// (first point id of its process + its index) over the processes holding a point at exactly
  /// its coordinates. Throws gpumesh::Error on every process when one fails.
  static vtkGPUMeshPieceInterface Find(vtkPointSet* input, vtkMultiProcessController* controller);

  /// The processes whose bounding box meets this piece's.
  vtkGPUMeshNeighbors Neighbors;
  /// Per input point: its global id, the same on every process holding the point.
  gpumesh::HostVector<long long> GlobalIds;
  /// Per neighbour (Neighbors' order): the input points that it holds too, ascending.
  std::vector<std::vector<vtkIdType>> Shared;
  /// Whether the global ids were generated here (the input had none).
  bool Generated = false;
};

#endif
