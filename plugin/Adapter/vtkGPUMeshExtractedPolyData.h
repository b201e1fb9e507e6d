// The vtkPolyData outputs of the extraction filters (private to the module): the surface of a
// mesh from the boundary faces the core found (GPU Extract Surface), its edges as lines (GPU
// Extract Edges), in serial and under MPI alike.
#ifndef vtkGPUMeshExtractedPolyData_h
#define vtkGPUMeshExtractedPolyData_h

#include "gpumesh/algorithms/EdgeExtraction.h"
#include "gpumesh/algorithms/SurfaceExtraction.h"

#include "vtkType.h"

#include <vector>

class vtkPointSet;
class vtkPolyData;

namespace vtkGPUMeshExtractedPolyData
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

/**
 * Fills `output` with `edges` as lines (ends in the mesh's point numbering, whose first points
 * are the input's), each with the cell data of its first cell (`inputCell` maps mesh cells to
 * input cells as for Build); the points and ids as for Build.
 */
void BuildEdges(vtkPointSet* input, const std::vector<vtkIdType>& inputCell, const gpumesh::ExtractedEdges& edges,
  const Options& options, vtkPolyData* output);

} // namespace vtkGPUMeshExtractedPolyData

#endif
