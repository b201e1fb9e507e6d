// The longest-edge refinement of a distributed mesh (private to the module): the processes agree
// on the kind of cells, and the closure crosses the cuts between pieces through an exchange of
// the cut edges each process divides (CutEdgeExchange, in the .cxx), pass after pass.
//
// Both functions are collective when given a controller; without one (a serial run) nothing is
// exchanged.
#ifndef vtkGPUMeshDistributedRefinement_h
#define vtkGPUMeshDistributedRefinement_h

#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/mesh/DeviceMesh.h"

#include <functional>

class vtkMultiProcessController;
class vtkPointSet;
struct vtkGPUMeshPieceBox;

namespace vtkGPUMeshDistributedRefinement
{

/// The kind every process refines, CellKind::Triangle or CellKind::Tetra, or their exchanges
/// would not match: `pieceKind` where every process with cells has that kind; a piece without
/// cells takes the others' kind. Triangles on one process with tetrahedra on another are an
/// error on all of them (as a serial mesh of both kinds is).
gpumesh::CellKind AgreedKind(gpumesh::CellKind pieceKind, bool pieceHasCells, vtkMultiProcessController* controller);

/// `refine(distributed)`: the core's refinement of this piece, `input` (its box: `box`, found
/// once by the caller), in one pass or more.
/// Without a controller, refine(nullptr). With one, the closure of each pass crosses the cuts
/// round by round, and ties go by global point id: the first pass's cut is the boundary edges of
/// `mesh` (the piece on the device, not yet handed to `refine`) that another process has too,
/// found among the cells holding two points shared with neighbours; before each further pass
/// the new points take global ids (the same on every process holding them) and the cut is found
/// again in the refined mesh, with `run`. A process that failed
/// makes the others throw "Another process failed to refine its piece (see its error)".
gpumesh::RefinedSimplices RefinePiece(vtkPointSet* input, const vtkGPUMeshPieceBox& box,
  vtkMultiProcessController* controller, gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh,
  const std::function<gpumesh::RefinedSimplices(const gpumesh::DistributedRefinement*)>& refine);

} // namespace vtkGPUMeshDistributedRefinement

#endif
