// The ghosted piece of a distributed point iteration and the halo exchange plan of its points,
// kept together between executions (private to the module). The plan depends on the piece
// alone, so it is built exactly when the piece is: whether to build follows the processes'
// agreement on the piece (vtkGPUMeshGhostedPieceCache), so that all of them take part in the
// plan's exchanges or none does.
#ifndef vtkGPUMeshHaloedPiece_h
#define vtkGPUMeshHaloedPiece_h

#include "vtkGPUMeshGhostedPieceCache.h"
#include "vtkGPUMeshPointHalo.h"

#include "vtkType.h"

#include <memory>

class vtkFieldData;
class vtkMultiProcessController;
class vtkPointSet;

class vtkGPUMeshHaloedPiece
{
public:
  struct Parts
  {
    const vtkGPUMeshDistributed::GhostedPiece& Piece;
    vtkGPUMeshPointHalo& Halo;
  };

  /// Collective. The ghosted piece of `input` and its halo: the ones kept from the last call
  /// when every process's input is unchanged since, else both built afresh (whether the piece
  /// was reused goes into `report` as `GhostedPieceReused`). Throws what building them throws;
  /// nothing is kept then.
  /// `device`: where a build finds the cells around the shared points (BuildGhostedPiece).
  Parts Get(vtkPointSet* input, vtkMultiProcessController* controller, vtkFieldData* report,
    const vtkGPUMeshDistributed::PieceDevice* device = nullptr);

  /// How many pieces Get has built so far.
  vtkIdType GetBuildCount() const { return this->Cache.GetBuildCount(); }

private:
  vtkGPUMeshGhostedPieceCache Cache;
  std::unique_ptr<vtkGPUMeshPointHalo> Halo;
};

#endif
