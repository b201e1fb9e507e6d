// The longest-edge refinement of a distributed mesh (private to the module): the processes agree
// on the kind of cells, and the closure crosses the cuts between pieces through an exchange of
// the cut edges each process divides (CutEdgeExchange, in the .cxx), pass after pass. What the
// first pass's cut needs from the input alone is kept between executions (FirstCut).
//
// The functions are collective when given a controller; without one (a serial run) nothing is
// exchanged.
#ifndef vtkGPUMeshDistributedRefinement_h
#define vtkGPUMeshDistributedRefinement_h

#include "vtkGPUMeshInputKey.h"
#include "vtkGPUMeshPieceInterface.h"

#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/mesh/DeviceMesh.h"

#include <functional>
#include <memory>

class vtkMultiProcessController;
class vtkPointSet;

namespace vtkGPUMeshDistributedRefinement
{

class FirstCut;

/// `refine(distributed)`: the core's refinement of this piece, `input` (its box: `box`, found
/// once by the caller), in one pass or more.
/// Without a controller, refine(nullptr). With one, the closure of each pass crosses the cuts
/// round by round, and ties go by global point id: the first pass's cut is the boundary edges of
/// `mesh` (the piece on the device, not yet handed to `refine`) that another process has too,
/// found among the cells holding two points shared with neighbours, or taken from `first` when
/// it holds this input's (FirstCut::Reusable), else kept there; before each further pass the new
/// points take global ids (the same on every process holding them) and the cut is found again
/// in the refined mesh, with `run`. A process that failed makes the others throw "Another
/// process failed to refine its piece (see its error)".
gpumesh::RefinedSimplices RefinePiece(vtkPointSet* input, const vtkGPUMeshPieceBox& box,
  vtkMultiProcessController* controller, gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh, FirstCut& first,
  const std::function<gpumesh::RefinedSimplices(const gpumesh::DistributedRefinement*)>& refine);

/// What RefinePiece finds from its input alone before the first pass: the piece's box, its
/// interface with the neighbours and the first pass's cut (on 4 H200, about 10 ms of a 33 ms
/// re-execution for a quarter of 30M triangles, more than the refinement's device work). A
/// filter keeps one between executions, so that a re-execution on the same input on every
/// process (a new threshold, say) finds none of it again.
class FirstCut
{
public:
  FirstCut();
  ~FirstCut();
  FirstCut(const FirstCut&) = delete;
  FirstCut& operator=(const FirstCut&) = delete;

  /// Collective: whether what is kept was found from `input` as it is now, on every process
  /// (vtkGPUMeshInputKey). Drops it otherwise: the next RefinePiece finds and keeps it again.
  bool Reusable(vtkPointSet* input, vtkMultiProcessController* controller);

  /// The input's box kept (Reusable returned true): no pass over the points for it.
  vtkGPUMeshPieceBox Box() const;

private:
  friend gpumesh::RefinedSimplices RefinePiece(vtkPointSet*, const vtkGPUMeshPieceBox&, vtkMultiProcessController*,
    gpumesh::DeviceRun&, const gpumesh::DeviceMesh&, FirstCut&,
    const std::function<gpumesh::RefinedSimplices(const gpumesh::DistributedRefinement*)>&);
  struct Found; // in the .cxx: the interface and the cut
  std::unique_ptr<Found> Kept;
  vtkGPUMeshInputKey Key;  // of the input at the last Reusable
  bool Reused = false;     // what the last Reusable returned
};

/// The kind every process refines, CellKind::Triangle or CellKind::Tetra, or their exchanges
/// would not match: `pieceKind` where every process with cells has that kind; a piece without
/// cells takes the others' kind. Triangles on one process with tetrahedra on another are an
/// error on all of them (as a serial mesh of both kinds is).
gpumesh::CellKind AgreedKind(gpumesh::CellKind pieceKind, bool pieceHasCells, vtkMultiProcessController* controller);

} // namespace vtkGPUMeshDistributedRefinement

#endif
