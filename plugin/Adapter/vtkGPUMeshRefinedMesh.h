// The VTK side of the longest-edge refinement (private to the module): the marks going to the
// device, the kind of cells to refine, and the refined dataset built from the device's result,
// for triangles and tetrahedra alike.
#ifndef vtkGPUMeshRefinedMesh_h
#define vtkGPUMeshRefinedMesh_h

#include "vtkGPUMeshOutputArrays.h"

#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/runtime/HostMemory.h"

#include <cstddef>
#include <future>

class vtkDataArray;
class vtkPointSet;

namespace vtkGPUMeshRefinedMesh
{

/// The cells whose value in `array` is above `threshold` (gpumesh::markCells), decided on the
/// device from the array as it is (no host pass over it); arrays of another layout, and bit
/// arrays, go up as a double copy.
gpumesh::MarkedCells MarkCells(gpumesh::DeviceRun& run, vtkDataArray* array, double threshold);

/// CellKind::Tetra or CellKind::Triangle (also for a mesh without cells): what `mesh`, made
/// from `input`, holds. Any other kind, or the two mixed, is an error naming the first offending
/// cell.
gpumesh::CellKind RefinedKind(vtkPointSet* input, const gpumesh::DeviceMesh& mesh);

/// The input's triangles (3 ids each, in cell order) narrowed to 32 bits, at the start of
/// memory reserved for twice as many (the appended triangles follow them there).
struct NarrowedTriangles
{
  vtkGPUMeshOutputArrays::Reservation ids{ nullptr, &gpumesh::freeHostMemory };
  vtkIdType capacity = 0; ///< triangles
};

/// One pass with few marks leaves most triangles as they are: on a GPU, the input's own are
/// narrowed (in parallel) while the device refines, and BuildCells then downloads only the kept
/// triangles that changed. A CPU device's triangles are host memory already: they come down as
/// one copy into reused memory, where narrowing would compete with the device for the cores and
/// touch fresh memory. Gives no future (valid() false) where narrowing does not pay.
/// `hostPassesMeanwhile`: the filter runs loops over the piece on the host meanwhile (the
/// piece's interface from its points), which then keep half the threads.
std::future<NarrowedTriangles> NarrowTrianglesMeanwhile(const gpumesh::DeviceRun& run, vtkPointSet* input,
  std::size_t markedCount, int passes, bool hostPassesMeanwhile);

/// The output's points: the input's as they are, then the new ones, straight from the device
/// when it computed in the input's type without a shift, else as midpoints of their parents in
/// the input's type. Point data is interpolated at the new points (the mean of the two parents;
/// both as VTK interpolates, see vtkGPUMeshOutputArrays::Midpoints). The parents come down from
/// the device only when something needs them.
void BuildPoints(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined);

/// The output's cells (VTK_TRIANGLE or VTK_TETRA, as the refined kind; the polygons of a
/// vtkPolyData), in a 32-bit vtkCellArray straight from the device, plus `ParentCellId` and
/// each input cell array gathered from the parents. `inputTriangles` (NarrowTrianglesMeanwhile,
/// or no future): the input's triangles, of which only those that changed come down.
void BuildCells(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined, std::future<NarrowedTriangles>& inputTriangles);

} // namespace vtkGPUMeshRefinedMesh

#endif
