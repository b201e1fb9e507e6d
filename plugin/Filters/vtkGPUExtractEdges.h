/**
 * @class   vtkGPUExtractEdges
 * @brief   the unique edges of a mesh as lines, all of them or its boundary and feature edges, on the GPU
 *
 * With Selection ALL (default), what ParaView's *Extract Edges* (vtkExtractEdges) gives: every
 * edge of every 2D and 3D cell once, as a line (vertices, lines and polylines have none). With
 * BOUNDARY, FEATURE or BOUNDARY_AND_FEATURE, what vtkFeatureEdges gives with only those kinds
 * on: the edges one 2D cell uses, and the edges two 2D cells share whose normals (each cell's
 * own, as vtkPolygon::ComputeNormal gives it) make an angle above FeatureAngle; these need a
 * mesh without 3D cells (run GPU Extract Surface first: an error says so). Edges are matched on
 * the OpenCL device (gpumesh::extractEdges over gpumesh::CellEntities). Triangle strips are an
 * error (triangulate them first), as are the cells the core does not handle (quadratic cells,
 * polyhedra).
 *
 * Output: a vtkPolyData of lines, one per edge, in the order of their smallest point id, each
 * from its smaller point id to its larger; the input points they use (in input order) with
 * their point data; each line carries the cell data of the lowest-numbered cell using the edge
 * (as vtkExtractEdges). With PassThroughPointIds and PassThroughCellIds, the arrays
 * `vtkOriginalPointIds` and `vtkOriginalCellIds` (that cell). Field data: the device report of
 * vtkGPUMeshFilter.
 *
 * Under MPI (a global controller with several processes) each edge of the whole mesh is output
 * once, by the lowest-ranked process owning a cell that uses it; boundary and feature edges are
 * those of the whole mesh (an edge on a cut between processes is shared, not boundary). Each
 * process selects on its ghosted piece (its cells and those of other processes sharing a point
 * with them; vtkGPUMeshGhostedPieceCache, kept while no input changes). A line's cell data is
 * then that of the lowest-numbered cell of its process's piece using the edge.
 */
#ifndef vtkGPUExtractEdges_h
#define vtkGPUExtractEdges_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshExtractionFilter.h"


class GPUMESHFILTERS_EXPORT vtkGPUExtractEdges : public vtkGPUMeshExtractionFilter
{
public:
  static vtkGPUExtractEdges* New();
  vtkTypeMacro(vtkGPUExtractEdges, vtkGPUMeshExtractionFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum SelectionType
  {
    ALL = 0,                 ///< every edge (vtkExtractEdges)
    BOUNDARY = 1,            ///< edges of one 2D cell
    FEATURE = 2,             ///< edges of two 2D cells at an angle above FeatureAngle
    BOUNDARY_AND_FEATURE = 3 ///< both
  };

  ///@{
  /// Which edges (ALL by default). Another value is an error.
  vtkSetMacro(Selection, int);
  vtkGetMacro(Selection, int);
  ///@}
  /// "All Edges", "Boundary Edges", "Feature Edges" or "Boundary and Feature Edges".
  static const char* GetSelectionName(int selection);

  ///@{
  /// The angle in degrees above which an edge between two 2D cells is a feature edge (30 by
  /// default, as vtkFeatureEdges). Outside [0, 180] is an error when features are selected.
  vtkSetMacro(FeatureAngle, double);
  vtkGetMacro(FeatureAngle, double);
  ///@}

protected:
  vtkGPUExtractEdges();
  ~vtkGPUExtractEdges() override;

  void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output,
    gpumesh::DeviceRun& run) override;

  int Selection = ALL;
  double FeatureAngle = 30.0;

private:
  vtkGPUExtractEdges(const vtkGPUExtractEdges&) = delete;
  void operator=(const vtkGPUExtractEdges&) = delete;
};

#endif
