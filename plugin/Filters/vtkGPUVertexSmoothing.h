/**
 * @class   vtkGPUVertexSmoothing
 * @brief   Laplacian, Taubin, barycentric or windowed-sinc smoothing of surface and volume meshes,
 *          keeping feature edges and never inverting a cell, on the GPU
 *
 * Moves the points of the 2D cells (triangles, quads, pixels, polygons) and 3D cells
 * (tetrahedra, hexahedra, voxels, wedges, pyramids) of the input, Iterations times:
 * - LAPLACIAN: x += lambda * (mean of the vertices joined to x by a cell edge - x);
 * - TAUBIN: one iteration is a Laplacian step with lambda then one with
 *   mu = 1 / (PassBand - 1 / lambda), which is below -lambda: noise is smoothed without the
 *   shrinking of plain Laplacian smoothing (Taubin 1995). Needs lambda > 0 and
 *   0 < PassBand < 1 / lambda;
 * - BARYCENTRIC: x += lambda * (mean of the barycentres of the cells around x - x), a
 *   barycentre being the mean of a cell's vertices (a per-cell scatter and a per-vertex
 *   gather on the device);
 * - WINDOWED_SINC: vtkWindowedSincPolyDataFilter's filter, the Chebyshev expansion of degree
 *   Iterations of a Hamming-windowed sinc of pass band PassBand (in (0, 2]), one step per
 *   degree; like VTK's it scales every point, fixed ones included, by the filter's gain at
 *   zero frequency (1 - about 1e-3) about the origin (the bounds' centre with
 *   NormalizeCoordinates), so with it points that do not move are not returned bit for bit.
 * lambda is the RelaxationFactor (not used by WINDOWED_SINC). FeatureEdgeSmoothing keeps sharp
 * edges and corners (see SetFeatureEdgeSmoothing); PreventInversion (on by default for meshes
 * with 3D cells) keeps every step from inverting or collapsing a cell (see
 * SetPreventInversion). Every vertex is updated from the previous iterate (Jacobi):
 * results do not depend on the thread schedule, are identical run to run, and do not
 * depend on point or cell order beyond float rounding.
 *
 * Boundary: a boundary side is a side (edge of a 2D cell, face of a 3D cell) used by one cell;
 * a side used by more than two cells is non-manifold.
 * - FIXED (default): vertices of boundary and non-manifold sides do not move;
 * - FREE: every vertex moves;
 * - SMOOTH: boundary vertices move by the Laplacian step over their neighbours along the
 *   boundary (the edges of boundary sides), whatever the Method, so an outline is smoothed
 *   without being pulled inwards; vertices of non-manifold sides do not move.
 * FixedPointsArray names an optional point array: a point with any nonzero component (NaN
 * included) does not move. A name that is not a point array of the input is an error; an
 * empty name or "None" means no array.
 *
 * Vertices, poly-vertices, lines and polylines pass through untouched: their points move
 * only if a 2D or 3D cell uses them. Triangle strips (triangulate them first) and cell types
 * the core does not handle (quadratic cells, polyhedra) are an error naming the problem.
 * Pixels and voxels are smoothed as quads and hexahedra and keep their cell type.
 *
 * Precision: the device computes in single precision, relative to the centre of the
 * mesh bounds (no double support is needed on the device). The output points have the input
 * points' type (float stays float, double stays double; other types become double) and are
 * input + displacement, the displacement computed on the device and added in double: points
 * that do not move are returned bit for bit, and moved points carry single-precision
 * rounding (on the sample meshes, within 2e-7 of the mesh size of a double-precision run,
 * after 10 as after 100 iterations: smoothing damps earlier rounding).
 *
 * Output: the input with moved points, the point data passed through, plus the point array
 * `Displacement` (new - old position, in the points' precision) and the device report of
 * vtkGPUMeshFilter in the field data.
 *
 * Under MPI each point is updated by the one process holding every cell around it (its piece
 * plus one ghost layer), so Fixed/Free/Smooth refer to the boundary of the whole mesh, never
 * to a cut; after every Jacobi step the other processes' copies of the point are overwritten
 * with the owner's value (a halo exchange of the interface points' displacements only, in
 * the run's precision: 4 values per point and step). Global point ids
 * come from the input (vtkPointData::GetGlobalIds), else are generated from coincident points.
 * The field data `HaloBytesExchanged` counts the bytes this process sent and received.
 * The ghosted piece (the piece, its ghost layer and their index maps, about as large as the
 * piece) and the halo exchange's plan are kept between executions and reused while no process's input has changed, so
 * changing a property of the filter (Iterations, RelaxationFactor, Device...) does not rebuild
 * it; it is released with the filter. The field data `GhostedPieceReused` says whether this
 * execution reused it (1) or built it (0).
 */
#ifndef vtkGPUVertexSmoothing_h
#define vtkGPUVertexSmoothing_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshFilter.h"

#include <memory> // for std::unique_ptr

class vtkGPUMeshHaloedPiece;

class GPUMESHFILTERS_EXPORT vtkGPUVertexSmoothing : public vtkGPUMeshFilter
{
public:
  static vtkGPUVertexSmoothing* New();
  vtkTypeMacro(vtkGPUVertexSmoothing, vtkGPUMeshFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum MethodType
  {
    LAPLACIAN = 0,
    TAUBIN = 1,
    BARYCENTRIC = 2,
    WINDOWED_SINC = 3
  };

  enum BoundaryType
  {
    FIXED = 0,
    FREE = 1,
    SMOOTH = 2
  };

  enum PreventInversionType
  {
    PREVENT_INVERSION_OFF = 0,
    PREVENT_INVERSION_ON = 1,
    /// On when the mesh (under MPI: any piece) has 3D cells.
    PREVENT_INVERSION_AUTOMATIC = 2
  };

  ///@{
  /// Number of iterations (default 10; 0 returns the input points; negative is an error). A
  /// Taubin iteration is a lambda step and a mu step. Progress is reported as the iterations
  /// run, and an abort (SetAbortExecute, ParaView's stop button) is honoured between them:
  /// an aborted run produces an empty output and an error saying where it stopped.
  vtkSetMacro(Iterations, int);
  vtkGetMacro(Iterations, int);
  ///@}

  ///@{
  /// lambda, the fraction of the way to the mean that a vertex moves per step (default 0.5).
  /// It must lie in (0, 1]: above 1 a step overshoots the mean and the smoothing can diverge,
  /// at 0 or below points do not move or move away from the mean; other values are an error.
  vtkSetMacro(RelaxationFactor, double);
  vtkGetMacro(RelaxationFactor, double);
  ///@}

  ///@{
  /// LAPLACIAN (default), TAUBIN, BARYCENTRIC or WINDOWED_SINC (vtkWindowedSincPolyDataFilter's
  /// filter: the Chebyshev expansion of a Hamming-windowed sinc of pass band PassBand, one
  /// step per degree; RelaxationFactor is not used); another value is an error.
  vtkSetMacro(Method, int);
  vtkGetMacro(Method, int);
  ///@}

  ///@{
  /// WINDOWED_SINC: scale and centre the coordinates into the unit cube before filtering, as
  /// vtkWindowedSincPolyDataFilter's NormalizeCoordinates (default off). The filter is linear,
  /// so this changes only the point its gain (the sum of its coefficients, 1 - about 1e-3)
  /// scales positions about: the centre of the input's bounds instead of the origin.
  vtkSetMacro(NormalizeCoordinates, vtkTypeBool);
  vtkGetMacro(NormalizeCoordinates, vtkTypeBool);
  vtkBooleanMacro(NormalizeCoordinates, vtkTypeBool);
  ///@}

  ///@{
  /// Taubin's pass-band frequency k_PB (default 0.1): mu = 1 / (PassBand - 1 / lambda); for
  /// WINDOWED_SINC the pass band of the filter, in (0, 2].
  vtkSetMacro(PassBand, double);
  vtkGetMacro(PassBand, double);
  ///@}

  ///@{
  /// FIXED (default), FREE or SMOOTH; another value is an error.
  vtkSetMacro(Boundary, int);
  vtkGetMacro(Boundary, int);
  ///@}

  ///@{
  /// Feature edges as vtkSmoothPolyDataFilter defines them (default off), for every Method, on
  /// the surface: the 2D cells of a surface mesh, the boundary faces of a volume mesh. An edge
  /// of the surface whose two faces' normals make an angle of FeatureAngle degrees or more
  /// (default 45) is a feature; non-manifold edges, and with Boundary SMOOTH the boundary edges
  /// of a surface mesh, count as such (non-manifold edges only without NonManifoldSmoothing).
  /// A point with such edges moves only along them (the
  /// Laplacian step over its two neighbours along them) when it has exactly two and they turn
  /// by at most EdgeAngle degrees (default 15); otherwise (corners where features meet, ends,
  /// sharper turns) it does not move. Angles outside [0, 180] are an error.
  vtkSetMacro(FeatureEdgeSmoothing, vtkTypeBool);
  vtkGetMacro(FeatureEdgeSmoothing, vtkTypeBool);
  vtkBooleanMacro(FeatureEdgeSmoothing, vtkTypeBool);
  vtkSetMacro(FeatureAngle, double);
  vtkGetMacro(FeatureAngle, double);
  vtkSetMacro(EdgeAngle, double);
  vtkGetMacro(EdgeAngle, double);
  ///@}

  ///@{
  /// vtkWindowedSincPolyDataFilter's NonManifoldSmoothing (default off), for every Method,
  /// unless Boundary is FREE (every point moves). Off: points of non-manifold sides (used by
  /// more than two cells) do not move. On, as that filter (VTK 9.2, WeightNonManifoldEdges on):
  /// such a point with no boundary side and no feature edge moves like an interior point,
  /// each neighbour counted once per face of the edge to it on surfaces (all methods but
  /// BARYCENTRIC); one that also has a boundary side or feature edges does not move.
  vtkSetMacro(NonManifoldSmoothing, vtkTypeBool);
  vtkGetMacro(NonManifoldSmoothing, vtkTypeBool);
  vtkBooleanMacro(NonManifoldSmoothing, vtkTypeBool);
  ///@}

  ///@{
  /// The inversion guard: AUTOMATIC (default: on for meshes with 3D cells), ON or OFF; another
  /// value is an error. On, after every Jacobi step (all points moved together) no 3D cell has a
  /// signed volume below MinimumVolumeFraction of its volume before the step (in the cell's own
  /// orientation) and no 2D cell's area along its normal before the step falls below
  /// MinimumVolumeFraction of its area before (so none flips): the moves of the points of a
  /// cell that would are halved, repeatedly, and zeroed after 8 halvings, until the whole step
  /// holds. Decisions read only the previous iterate (deterministic, and under MPI the serial
  /// ones). The field data `ShortenedMoves` counts the point moves shortened (one per point
  /// and step), `InversionGuardRounds` the rounds of halving.
  vtkSetMacro(PreventInversion, int);
  vtkGetMacro(PreventInversion, int);
  ///@}

  ///@{
  /// The share of its volume before a step that a cell keeps after it with the guard on
  /// (default 0.1), in [0, 1]; 0 forbids only inversion.
  vtkSetMacro(MinimumVolumeFraction, double);
  vtkGetMacro(MinimumVolumeFraction, double);
  ///@}

  ///@{
  /// Name of a point array pinning the points where it is nonzero; empty or "None": none.
  vtkSetStringMacro(FixedPointsArray);
  vtkGetStringMacro(FixedPointsArray);
  ///@}

  /// "Laplacian", "Taubin", "Barycentric"; "Fixed", "Free", "Smooth"; "Off", "On", "Automatic".
  static const char* GetMethodName(int method);
  static const char* GetBoundaryName(int boundary);
  static const char* GetPreventInversionName(int preventInversion);

  /// Under MPI: how many times this filter has built its ghosted piece (0 in serial runs,
  /// which need none). An execution whose input is unchanged on every process reuses it.
  vtkIdType GetGhostedPieceBuildCount();

protected:
  vtkGPUVertexSmoothing();
  ~vtkGPUVertexSmoothing() override;

  void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output,
    gpumesh::DeviceRun& run) override;

  int Iterations = 10;
  double RelaxationFactor = 0.5;
  int Method = LAPLACIAN;
  double PassBand = 0.1;
  vtkTypeBool NormalizeCoordinates = 0;
  int Boundary = FIXED;
  char* FixedPointsArray = nullptr;
  vtkTypeBool FeatureEdgeSmoothing = 0;
  vtkTypeBool NonManifoldSmoothing = 0;
  double FeatureAngle = 45.0;
  double EdgeAngle = 15.0;
  int PreventInversion = PREVENT_INVERSION_AUTOMATIC;
  double MinimumVolumeFraction = 0.1;

private:
  std::unique_ptr<vtkGPUMeshHaloedPiece> HaloedPiece; // the kept piece and its exchange plan

  vtkGPUVertexSmoothing(const vtkGPUVertexSmoothing&) = delete;
  void operator=(const vtkGPUVertexSmoothing&) = delete;
};

#endif
