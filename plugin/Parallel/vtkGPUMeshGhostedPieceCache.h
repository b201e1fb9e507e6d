// The ghosted piece of a filter's input, kept between executions under MPI (private to the
// module). Building it (global point ids, the exchange with the neighbours, a copy of the
// piece) costs more than the filters' device work; a GUI user who changes only a property of the filter
// re-executes it with the same input, and then gets the piece built last time.
//
// The piece is reused only when no process's input changed (vtkGPUMeshInputKey): one changed
// piece makes every process rebuild (building is collective).
#ifndef vtkGPUMeshGhostedPieceCache_h
#define vtkGPUMeshGhostedPieceCache_h

#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshGhostLayer.h"
#include "vtkGPUMeshInputKey.h"

#include "vtkFieldData.h"
#include "vtkMultiProcessController.h"
#include "vtkPointSet.h"
#include "vtkType.h"

#include <memory>

class vtkGPUMeshGhostedPieceCache
{
public:
  /// Collective. The ghosted piece of `input` (vtkGPUMeshDistributed::BuildGhostedPiece): the
  /// one kept from the last call when every process's input is unchanged since, else built
  /// afresh and kept; which of the two, as the field `GhostedPieceReused` (1 or 0) of
  /// `report`, with `GhostedPieceBuildMs`, `GhostedPieceBytesExchanged` and
  /// `GhostedPieceCellsFoundOnDevice` (1: the cells around the shared points were found on the
  /// device) when it was built.
  /// Throws what BuildGhostedPiece throws (on every process); nothing is kept then. `device`:
  /// where a build finds the cells around the shared points (BuildGhostedPiece).
  const vtkGPUMeshDistributed::GhostedPiece& Get(vtkPointSet* input, vtkMultiProcessController* controller,
    vtkFieldData* report, const vtkGPUMeshDistributed::PieceDevice* device = nullptr);

  /// Whether the last Get returned the piece kept from the call before.
  bool LastReused() const { return this->Reused; }

  /// How many pieces Get has built so far.
  vtkIdType GetBuildCount() const { return this->Builds; }

  /// Drops the kept piece (the next Get builds one).
  void Release();

private:
  std::unique_ptr<vtkGPUMeshDistributed::GhostedPiece> Piece;
  vtkGPUMeshInputKey PieceKey;
  bool Reused = false;
  vtkIdType Builds = 0;
};

#endif
