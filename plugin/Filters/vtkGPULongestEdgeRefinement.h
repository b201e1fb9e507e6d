/**
 * @class   vtkGPULongestEdgeRefinement
 * @brief   conforming longest-edge bisection (Rivara) of triangle or tetrahedron meshes, on the GPU
 *
 * Refines the marked triangles by bisecting their longest edge and, to keep the mesh
 * conforming, the longest edges of the neighbours that the refinement reaches, in the
 * seven steps of Hatipoglu's GPU algorithm (edge lengths; longest-edge marks; dependency
 * forest; propagation; per-triangle counts; prefix sums; Rivara's templates), all on the
 * device, with every output array allocated once from the prefix sums. The unique edges are
 * extracted on the device from the triangles: no oriented edge list is needed.
 *
 * Marks: a cell is marked when its value in the mark array (SetInputArrayToProcess(0, ...),
 * a cell array, vectors by their magnitude; NaN never marks) is greater than
 * MarkThreshold, or every cell when RefineAll is on. Passes > 1 refine again the children of
 * the cells marked in the previous pass.
 *
 * Longest edge: the largest squared length (single precision, points relative to the centre
 * of the bounds). Ties (equal values) go to the edge whose (smaller point id, larger point id)
 * pair is smallest. Every triangle sharing an edge reads the same length, so the result
 * depends neither on the cell order nor on the orientation of the cells, and two processes
 * sharing an edge (with the same point ids) agree on it.
 *
 * Output (same type as the input, triangles only): every marked triangle bisected at least
 * once, no hanging nodes; new points at the exact midpoints (computed in the input's point
 * precision) of bisected edges, shared by the triangles on both sides; point data
 * interpolated at midpoints (the mean of the two ends); cell data copied from the parent;
 * the cell array `ParentCellId`; each child keeps its parent's orientation. Field data:
 * `MarkedCells` (marked in the first pass), `CreatedCells` (output minus input cells) and
 * the device time of each step (`KernelTimeMs_step_1_edge_lengths`, ...).
 *
 * Tetrahedra (a vtkUnstructuredGrid of tetrahedra only) are refined with the same properties
 * and guarantees (gpumesh::refineTetrahedra): a marked tetrahedron marks its longest edge, a
 * tetrahedron with a marked edge its longest edge, a face with a marked edge the face's
 * longest edge, to a fixed point on the device; then each tetrahedron is bisected by its
 * marked edges, longest first, into 2 to 8 children, so that both cells of a face cut it the
 * same way. Field data names the steps `KernelTimeMs_step_1_edge_lengths` ...
 * `KernelTimeMs_step_5_templates`.
 *
 * Errors naming the cell: a cell that is neither a triangle nor a tetrahedron, or both kinds
 * mixed, a degenerate cell (a zero-length edge, zero area or volume), an edge shared by more
 * than two triangles or a face shared by more than two tetrahedra, unmerged duplicate points
 * that cut the mesh along a seam. No output is written then.
 *
 * Under MPI the refinement conforms across processes, in every pass: the processes exchange
 * the cut edges divided in each propagation round, by global point ids (the input's, else
 * generated), until none divides a new one; ties between equal lengths go by global point id;
 * midpoints of shared edges are computed identically on both sides. For tetrahedra the cut
 * edges are those of faces used by one tetrahedron that another process also has; they are
 * exchanged after each local fixed point of the closure. Between passes the new points on the
 * cut take global ids agreed with the neighbours, the cut is found again in the refined mesh,
 * and ties between new points go as the serial point ids order them (after every older point,
 * by their edge's ends), so Passes > 1 give the serial mesh too. The first pass's cut (the
 * piece's interface with its neighbours, its boundary edges there) is kept between
 * executions: a re-execution on an input unchanged on every process finds none of it again
 * (field data `FirstCutReused`: 1, else 0; under MPI only).
 */
#ifndef vtkGPULongestEdgeRefinement_h
#define vtkGPULongestEdgeRefinement_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshFilter.h"

#include <memory> // for std::unique_ptr

namespace vtkGPUMeshDistributedRefinement
{
class FirstCut;
}

class GPUMESHFILTERS_EXPORT vtkGPULongestEdgeRefinement : public vtkGPUMeshFilter
{
public:
  static vtkGPULongestEdgeRefinement* New();
  vtkTypeMacro(vtkGPULongestEdgeRefinement, vtkGPUMeshFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// A cell is marked when its mark value is greater than this (default 0).
  vtkSetMacro(MarkThreshold, double);
  vtkGetMacro(MarkThreshold, double);
  ///@}

  ///@{
  /// Mark every cell, ignoring the mark array (default off).
  vtkSetMacro(RefineAll, bool);
  vtkGetMacro(RefineAll, bool);
  vtkBooleanMacro(RefineAll, bool);
  ///@}

  ///@{
  /// Number of refinement passes (default 1, at least 1): each further pass refines again
  /// the children of the cells marked in the previous pass.
  vtkSetMacro(Passes, int);
  vtkGetMacro(Passes, int);
  ///@}

protected:
  vtkGPULongestEdgeRefinement();
  ~vtkGPULongestEdgeRefinement() override;

  void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output,
    gpumesh::DeviceRun& run) override;

  double MarkThreshold = 0.0;
  bool RefineAll = false;
  int Passes = 1;

private:
  // Under MPI: the first pass's cut, kept while the input is unchanged on every process.
  std::unique_ptr<vtkGPUMeshDistributedRefinement::FirstCut> FirstCut;

  vtkGPULongestEdgeRefinement(const vtkGPULongestEdgeRefinement&) = delete;
  void operator=(const vtkGPULongestEdgeRefinement&) = delete;
};

#endif
