/**
 * @class   vtkGPUExtractSurface
 * @brief   the boundary of a mesh as vtkPolyData, its volume cells' faces matched on the GPU
 *
 * What ParaView's *Extract Surface* (vtkDataSetSurfaceFilter) gives for linear cells: the faces
 * of 3D cells (tetrahedra, hexahedra, voxels, wedges, pyramids) that no other 3D cell has, each
 * with its cell's vertices in the cell's own face order (outward for a cell that is not
 * inverted), and the input's vertices, lines, polylines and 2D cells as they are (pixels as the
 * quadrilaterals they are, triangle strips as their triangles). A 2D cell lying on a 3D cell's
 * face does not hide it: both are output, as vtkDataSetSurfaceFilter outputs them. A face shared
 * by three or more cells is inner. Faces are matched on the OpenCL device
 * (gpumesh::extractBoundaryFaces over gpumesh::CellEntities).
 *
 * Output: a vtkPolyData of the input points the output cells use (in input order) with their
 * point data, and the cells in vtkPolyData's order (verts, lines, then polys: the 2D cells first,
 * in input order, then the boundary faces, by cell kind and cell), each with the cell data of
 * its input cell; with PassThroughPointIds, the point array `vtkOriginalPointIds` (the input
 * point of each output point), with PassThroughCellIds, the cell array `vtkOriginalCellIds` (the
 * input cell of each output cell), as vtkDataSetSurfaceFilter names them. Field data: the device
 * report of vtkGPUMeshFilter.
 *
 * Quadratic and higher-order cells, polyhedra and the other cells the core does not handle are
 * an error naming the first such cell (vtkDataSetSurfaceFilter subdivides or triangulates them).
 *
 * Under MPI (a global controller with several processes) the output is each process's part of
 * the whole mesh's boundary: faces on a cut between processes are inner, not boundary. Each
 * process matches the faces of its ghosted piece (the cells it owns plus the cells of other
 * processes sharing a point with them; vtkGPUMeshGhostedPieceCache, kept while no input
 * changes) and outputs the boundary faces of the cells it owns; the input's own ghost cells
 * (vtkGhostType DUPLICATECELL) are left out, their owner outputs them. The pieces together are
 * the serial output's faces, each once.
 */
#ifndef vtkGPUExtractSurface_h
#define vtkGPUExtractSurface_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshExtractionFilter.h"

class GPUMESHFILTERS_EXPORT vtkGPUExtractSurface : public vtkGPUMeshExtractionFilter
{
public:
  static vtkGPUExtractSurface* New();
  vtkTypeMacro(vtkGPUExtractSurface, vtkGPUMeshExtractionFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

protected:
  vtkGPUExtractSurface();
  ~vtkGPUExtractSurface() override;

  void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output,
    gpumesh::DeviceRun& run) override;

private:
  vtkGPUExtractSurface(const vtkGPUExtractSurface&) = delete;
  void operator=(const vtkGPUExtractSurface&) = delete;
};

#endif
