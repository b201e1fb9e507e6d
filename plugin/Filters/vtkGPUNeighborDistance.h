/**
 * @class   vtkGPUNeighborDistance
 * @brief   distances from each cell's centroid to its neighbours' centroids, on the GPU
 *
 * Neighbours share a side: an edge for 2D cells (triangles, quads, polygons), a face for 3D
 * cells (tetrahedra, hexahedra, wedges, pyramids, voxels, mixed), a triangle face matching a
 * triangle face and a quad face a quad face whatever the cell types. Only cells of the same
 * dimension are neighbours. A side shared by more than two cells (non-manifold) makes all of
 * them neighbours of each other. The centroid of a cell is the mean of its vertices.
 *
 * The sides are matched on the device (each keyed by its sorted vertex ids, bucketed under its
 * smallest vertex); results do not depend on cell order or thread schedule.
 *
 * Output: the input plus the float cell arrays `MinNeighborDistance`,
 * `MaxNeighborDistance`, `MeanNeighborDistance` (NaN for a cell without neighbours, such as
 * vertices, lines and isolated cells), the int array `NeighborCount`, and with
 * ComputeCentroids the 3-component array `Centroid` (in the points' precision), plus the
 * device report of vtkGPUMeshFilter. Distances are computed in single precision relative
 * to the centre of the mesh bounds. Triangle strips and cells of types the core does not
 * handle (quadratic cells, polyhedra) are an error naming the first such cell.
 *
 * Under MPI the filter works on its piece plus one layer of ghost cells
 * (vtkGhostCellsGenerator), so cells on a cut between processes see their neighbours there;
 * values equal the serial ones. Cells the input marks as ghosts (DUPLICATECELL) get NaN and a
 * NeighborCount of -1: the process owning them holds their values. The ghosted piece (the
 * piece, its ghost layer and their index maps, about as large as the piece) is kept between
 * executions and reused while no process's input has changed, so changing a property of the
 * filter does not rebuild it; it is released with the filter. The field data
 * `GhostedPieceReused` says whether this execution reused it (1) or built it (0).
 */
#ifndef vtkGPUNeighborDistance_h
#define vtkGPUNeighborDistance_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshPieceFilter.h"

class GPUMESHFILTERS_EXPORT vtkGPUNeighborDistance : public vtkGPUMeshPieceFilter
{
public:
  static vtkGPUNeighborDistance* New();
  vtkTypeMacro(vtkGPUNeighborDistance, vtkGPUMeshPieceFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// Whether to add the cell array `Centroid` (default off).
  vtkSetMacro(ComputeCentroids, bool);
  vtkGetMacro(ComputeCentroids, bool);
  vtkBooleanMacro(ComputeCentroids, bool);
  ///@}

protected:
  vtkGPUNeighborDistance();
  ~vtkGPUNeighborDistance() override;

  /// The distances (and centroids) of every cell of `mesh`.
  void ComputeArrays(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& mesh, const std::array<double, 3>* origin,
    vtkPointSet* result) override;

  bool ComputeCentroids = false;

private:
  vtkGPUNeighborDistance(const vtkGPUNeighborDistance&) = delete;
  void operator=(const vtkGPUNeighborDistance&) = delete;
};

#endif
