// The surface of a mesh as vtkPolyData, from the boundary faces the core found (private to the
// module): what GPU Extract Surface outputs, in serial and under MPI alike.
#ifndef vtkGPUMeshSurface_h
#define vtkGPUMeshSurface_h

#include "gpumesh/algorithms/SurfaceExtraction.h"

#include "vtkType.h"

#include <vector>

class vtkPointSet;
class vtkPolyData;

namespace vtkGPUMeshSurface
{

struct Options
{
  bool PassCellIds = false;  ///< add vtkOriginalCellIds (the input cell of each output cell)
  bool PassPointIds = false; ///< add vtkOriginalPointIds (the input point of each output point)
};

/**
 * Fills `output` with the surface of the first `cells` cells of `mesh` (an input, or a ghosted
 * piece whose first cells are input cells and whose first points are the input's): their
 * vertices, poly-vertices, lines and polylines as verts and lines, their 2D cells as polys as
 * they are (pixels as the quadrilaterals they are, triangle strips as their triangles, as
 * vtkDataSetSurfaceFilter gives them), then `faces` (the boundary faces of their 3D cells,
 * mesh cell and point ids). The output's points are the input points those cells use, in input
 * order, with the input's point data; each output cell has the cell data of its input cell:
 * mesh cell c is input cell `inputCell[c]`, or c when `inputCell` is empty. Throws
 * gpumesh::Error for a 2D or lower cell of a type it does not know (higher-order cells).
 */
void Build(vtkPointSet* input, vtkPointSet* mesh, vtkIdType cells, const std::vector<vtkIdType>& inputCell,
  const gpumesh::BoundaryFaces& faces, const Options& options, vtkPolyData* output);

} // namespace vtkGPUMeshSurface

#endif
