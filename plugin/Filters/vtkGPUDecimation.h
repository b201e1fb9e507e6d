/**
 * @class   vtkGPUDecimation
 * @brief   quadric edge collapse of triangle surfaces, on the GPU
 *
 * Reduces the number of triangles of a triangle surface by collapsing edges, choosing the
 * collapses by Garland and Heckbert's quadric error as vtkQuadricDecimation does: each point
 * carries the sum of the planes of its triangles (weighted by area; boundary edges add a plane
 * through the edge perpendicular to its triangle), a collapse puts the merged point where the
 * summed quadric is least (when the 3x3 system is well conditioned and the point stays within
 * an edge length of the edge's midpoint; else at the best of the two ends and the midpoint) and
 * costs the quadric there. The collapses run in rounds on the device: in each, every edge that
 * is the cheapest (by cost, then edge id) of all the edges around both its ends collapses, so
 * no two collapses of a round touch the same triangles; each is checked before (no triangle
 * flipped by more than 60 degrees or made degenerate, no duplicate triangle, and with
 * PreserveTopology the link condition). The result is the same on every run.
 *
 * Stops when the triangles left are at most (1 - TargetReduction) times the input's (or
 * TargetCount, when it is positive), or when no edge may collapse any more under the
 * constraints (PreserveBoundary, PreserveTopology, PreserveFeatures, MaximumError): then a
 * warning says so.
 *
 * Output: a vtkPolyData or vtkUnstructuredGrid (as the input) of the surviving triangles, each
 * with its input orientation; a point that never merged keeps its input coordinates exactly;
 * point data of a merged point is interpolated along the input edge of its last collapse; cell
 * data comes from each triangle's input cell; optionally vtkOriginalPointIds (the input point
 * each point is) and vtkOriginalCellIds. Field data: TrianglesIn, TrianglesOut, Rounds,
 * AchievedReduction, LargestQuadricError and the device times of the steps.
 *
 * Errors: a cell that is not a triangle (naming the first), a triangle with a repeated point or
 * zero area, a non-finite point, TargetReduction outside [0, 1), a negative TargetCount or
 * MaximumError, FeatureAngle outside [0, 180].
 *
 * Under MPI each process decimates its own triangles (ghost cells are left out) with its
 * interface frozen: the points that another process holds too neither move nor go, so the
 * pieces still meet along the same points and edges, and appending them and merging points
 * gives a conforming surface. TargetReduction applies to each piece, TargetCount to the whole
 * mesh (each piece takes its share); the field data counts the whole mesh. Serial and
 * parallel results differ by design (the cuts are kept).
 */
#ifndef vtkGPUDecimation_h
#define vtkGPUDecimation_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshFilter.h"

#include <cfloat> // for DBL_MAX

class GPUMESHFILTERS_EXPORT vtkGPUDecimation : public vtkGPUMeshFilter
{
public:
  static vtkGPUDecimation* New();
  vtkTypeMacro(vtkGPUDecimation, vtkGPUMeshFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The fraction of the input's triangles to remove, in [0, 1) (default 0.9, as
  /// vtkQuadricDecimation's semantics: 0.9 leaves 10%).
  vtkSetMacro(TargetReduction, double);
  vtkGetMacro(TargetReduction, double);
  ///@}

  ///@{
  /// When positive, the number of triangles to leave instead of TargetReduction (default 0).
  vtkSetMacro(TargetCount, vtkIdType);
  vtkGetMacro(TargetCount, vtkIdType);
  ///@}

  ///@{
  /// Boundary edges collapse only along the boundary; points where boundary chains end or turn
  /// by more than FeatureAngle stay (default off).
  vtkSetMacro(PreserveBoundary, bool);
  vtkGetMacro(PreserveBoundary, bool);
  vtkBooleanMacro(PreserveBoundary, bool);
  ///@}

  ///@{
  /// No collapse that changes the genus or makes an edge or a point non-manifold: the link
  /// condition (default on).
  vtkSetMacro(PreserveTopology, bool);
  vtkGetMacro(PreserveTopology, bool);
  vtkBooleanMacro(PreserveTopology, bool);
  ///@}

  ///@{
  /// Edges whose triangles' normals differ by more than FeatureAngle stay sharp: their points
  /// move only along them, points where they end or meet stay (default off).
  vtkSetMacro(PreserveFeatures, bool);
  vtkGetMacro(PreserveFeatures, bool);
  vtkBooleanMacro(PreserveFeatures, bool);
  ///@}

  ///@{
  /// Degrees (default 30): the angle between two triangles' normals beyond which their edge is a
  /// feature, and the turn of a boundary or feature line beyond which its point is a corner.
  vtkSetMacro(FeatureAngle, double);
  vtkGetMacro(FeatureAngle, double);
  ///@}

  ///@{
  /// No collapse whose quadric error exceeds this (squared distance times area; default
  /// DBL_MAX: no limit).
  vtkSetMacro(MaximumError, double);
  vtkGetMacro(MaximumError, double);
  ///@}

  ///@{
  /// Add the point array vtkOriginalPointIds and the cell array vtkOriginalCellIds (default off).
  vtkSetMacro(PassThroughPointIds, bool);
  vtkGetMacro(PassThroughPointIds, bool);
  vtkBooleanMacro(PassThroughPointIds, bool);
  vtkSetMacro(PassThroughCellIds, bool);
  vtkGetMacro(PassThroughCellIds, bool);
  vtkBooleanMacro(PassThroughCellIds, bool);
  ///@}

protected:
  vtkGPUDecimation() = default;
  ~vtkGPUDecimation() override = default;

  void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output,
    gpumesh::DeviceRun& run) override;

  double TargetReduction = 0.9;
  vtkIdType TargetCount = 0;
  bool PreserveBoundary = false;
  bool PreserveTopology = true;
  bool PreserveFeatures = false;
  double FeatureAngle = 30.0;
  double MaximumError = DBL_MAX;
  bool PassThroughPointIds = false;
  bool PassThroughCellIds = false;

private:
  /// Throws gpumesh::Error naming a property outside its range.
  void CheckProperties();

  vtkGPUDecimation(const vtkGPUDecimation&) = delete;
  void operator=(const vtkGPUDecimation&) = delete;
};

#endif
