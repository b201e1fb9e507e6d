// Vertex smoothing on the device: Laplacian (umbrella), Taubin (lambda|mu) and barycentric
// (scatter/gather), Jacobi-style with ping-pong buffers.
#pragma once
#include "gpumesh/topology/VertexTable.h"

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace gpumesh
{

class CellEntities;
class DeviceMesh;
struct DeviceCellGroup;
struct MeshView;
class VertexOrder;

enum class SmoothingMethod
{
  /// x += lambda * (mean of the vertices joined to x by a cell edge - x).
  Laplacian,
  /// One iteration is a Laplacian step with lambda then one with
  /// mu = 1 / (passBand - 1 / lambda) < -lambda: smoothing without shrinking (Taubin 1995).
  Taubin,
  /// x += lambda * (mean of the barycentres of the cells around x - x); a barycentre is the
  /// mean of the cell's vertices. Per-cell scatter then per-vertex gather, no atomics.
  Barycentric,
  /// Taubin's windowed-sinc low-pass filter as vtkWindowedSincPolyDataFilter computes it: the
  /// Chebyshev expansion, to degree `iterations`, of a sinc of pass band `passBand` (in
  /// (0, 2]) under a Hamming window, its cut-off shifted so that the filter is 1 at the pass
  /// band (windowedSincCoefficients); the umbrella operator, one Jacobi step per degree. A
  /// point that may not move keeps its position in the recursion (its Laplacian is 0), and
  /// like every point its result is the filter's gain at zero frequency (the sum of the
  /// coefficients, 1 - about 1e-3) times its position, about windowedSincCentre: so even
  /// pinned points and corners move by that factor, as VTK's do. relaxationFactor is not used.
  WindowedSinc
};

enum class SmoothingBoundary
{
  /// Vertices of boundary sides (used by one cell) and of non-manifold sides (more than two
  /// cells) do not move.
  Fixed,
  /// Every vertex moves.
  Free,
  /// Boundary vertices move by the umbrella step over their neighbours along the boundary
  /// (edges of boundary sides), whatever the method; non-manifold vertices do not move.
  Smooth
};

/// The numbering the iterations run in; results always come back in the mesh's own.
enum class SmoothingVertexOrder
{
  /// Renumbered for locality where the mesh is large, its numbering scatters neighbours in
  /// memory and enough steps follow to pay for the renumbering (the rule: VertexSmoother).
  Automatic,
  /// The mesh's own numbering.
  Mesh,
  /// Always renumbered for locality: the points by their place in space, the cells after
  /// them (VertexOrder).
  Locality
};

struct SmoothingOptions
{
  SmoothingMethod method = SmoothingMethod::Laplacian;
  SmoothingBoundary boundary = SmoothingBoundary::Fixed;
  int iterations = 10;
  double relaxationFactor = 0.5;
  double passBand = 0.1;
  VertexTableLayout layout;
  /// Renumbering changes where values sit in memory, never a result: each vertex sums the
  /// same values in the same order, so results are bit-identical either way.
  SmoothingVertexOrder vertexOrder = SmoothingVertexOrder::Automatic;
  /// The inversion guard: after every Jacobi step (all points moved together) no 3D cell has a
  /// signed volume below minimumVolumeFraction of its volume before the step (measured in the
  /// cell's orientation before the step: sign(V) V' >= f |V|), and no 2D cell's vector area
  /// (its normal times its area) has a component along its normal before the step below f
  /// times its area before (so none flips). The moves of the points of a cell that would
  /// fail are halved, in rounds until the step holds, and zeroed after
  /// inversionGuardHalvings halvings (kernels/algorithms/smoothing_guard.cl). A cell flat
  /// before the step (V = 0) is not guarded.
  bool preventInversion = false;
  double minimumVolumeFraction = 0.1;
  /// Feature edges, as vtkSmoothPolyDataFilter defines them, on the surface: the 2D cells of a
  /// surface mesh, the boundary faces of a volume mesh (its 2D cells, if any, take no part). A
  /// constraint edge of the surface is a feature (its two faces' normals make an angle of at
  /// least featureAngle degrees), a non-manifold edge (more than two faces), or with
  /// SmoothingBoundary::Smooth a boundary edge of a surface mesh. A vertex free to move with
  /// constraint edges moves only along them (the umbrella step over its two constraint
  /// neighbours, whatever the method) when it has exactly two and the chain turns there by at
  /// most edgeAngle degrees; otherwise (an end, a corner where features meet, a sharp turn)
  /// it does not move. With SmoothingBoundary::Fixed a volume mesh's boundary does not move
  /// anyway, and nothing is found.
  /// WindowedSinc: the point its gain scales positions about, in the input's coordinates
  /// (vtkWindowedSincPolyDataFilter: the origin, or with NormalizeCoordinates the centre of the
  /// input's bounds).
  std::array<double, 3> windowedSincCentre{ 0.0, 0.0, 0.0 };
  bool featureEdgeSmoothing = false;
  double featureAngle = 45.0;
  double edgeAngle = 15.0;
  /// What vertices of non-manifold sides (used by more than two cells) do, unless
  /// SmoothingBoundary::Free moves every vertex anyway. Off: they do not move. On, as
  /// vtkWindowedSincPolyDataFilter's NonManifoldSmoothing (VTK 9.2, WeightNonManifoldEdges on):
  /// a non-manifold vertex with no boundary side and no feature edge moves like an interior
  /// one, and on a surface mesh (no 3D cells) with the umbrella methods (all but Barycentric)
  /// each neighbour counts once per face of the edge to it; one that also has a boundary side,
  /// or feature edges, does not move.
  bool nonManifoldSmoothing = false;

  /// Throws gpumesh::Error naming the offending value: negative iterations, a relaxation
  /// factor outside (0, 1] (above 1 the steps overshoot and diverge), and for Taubin
  /// anything but 0 < passBand < 1/lambda; a minimumVolumeFraction outside [0, 1] with
  /// preventInversion; feature and edge angles outside [0, 180] with featureEdgeSmoothing.
  void validate() const;
  /// Taubin's mu = 1 / (passBand - 1 / relaxationFactor).
  double mu() const;
};

/// The iterations + 1 Chebyshev coefficients of the windowed-sinc filter of `passBand` (Taubin,
/// Zhang and Golub, "Optimal surface smoothing as filter design", as vtkWindowedSincPolyData-
/// Filter computes them): a Hamming window, and the cut-off moved by Newton steps until the
/// filter is within 1e-3 of 1 at the pass band (for 2 or more iterations).
std::vector<double> windowedSincCoefficients(int iterations, double passBand);

/// Called after every Jacobi step (one per iteration, two per Taubin iteration) with the step's
/// result, the displacement of every point from its input position (4 REALs per point: x, y,
/// z, 0), `step` counted from 1 up to `steps`. It may change `result` in place (a halo
/// exchange of the points other processes own); returning false stops the smoothing there
/// (an abort), leaving `result` as the last iterate.
/// The result is in the mesh's numbering: where the smoother iterates in another order
/// (SmoothingVertexOrder), every step's state goes to that numbering and back, two copies of
/// the state per step. An observer that needs only the step count is a SmoothingProgress.
using SmoothingStepObserver =
  std::function<bool(DeviceRun& run, RealBuffer& result, int step, int steps)>;

/// Called after every step with `step` counted from 1 up to `steps`; returning false stops the
/// smoothing there (an abort). Sees no state, so it costs no copy whatever the vertex order.
using SmoothingProgress = std::function<bool(int step, int steps)>;

/// How a smoother that is one piece of a distributed mesh keeps its decisions those of the whole
/// mesh (the inversion guard's): every point of the piece is owned by one process, whose piece
/// holds every cell around it.
struct SmoothingCollectives
{
  /// Overwrites the values (4 REALs per point, the mesh's numbering) of the points other
  /// processes own with their owners' values. Collective.
  std::function<void(DeviceRun& run, RealBuffer& values)> exchange;
  /// Whether `local` holds on any process (an all-reduce). Collective.
  std::function<bool(bool local)> anyProcess;
  /// One flag per point of the mesh: nonzero for the points this process owns, which alone it
  /// counts (shortenedMoves). Empty: all.
  std::vector<std::uint8_t> owned;
};

/// Vertex roles on the device (one int per vertex).
enum VertexRole : cl_int
{
  Pinned = 0,
  OnBoundary = 1,
  Interior = 2,
  /// Moves along its constraint edges (SmoothingOptions::featureEdgeSmoothing).
  OnFeature = 3,
  /// A non-manifold vertex of a surface moving with its neighbours weighted by their edges'
  /// faces (SmoothingOptions::nonManifoldSmoothing).
  OnNonManifold = 4
};

/// The links a method needs, built once on the device, and the ping-pong buffers. `mesh`
/// should hold only 2D and 3D cells (DeviceMesh with minimumDimension 2): their edges, sides
/// and balls define the smoothing; vertices of no cell do not move.
///
/// With SmoothingVertexOrder::Automatic the smoother renumbers the mesh for locality
/// (core/gpumesh/mesh/VertexOrder.h) and builds its topology, tables and iterations on that copy
/// when all of these hold: the mesh has at least `renumberingMinimumPoints` points (fewer fit
/// a core's cache in any order), the smoothing takes at least `renumberingMinimumSteps` steps
/// (renumbering costs about as much as a few steps in a scattered order), and more than a
/// quarter of the cells have points more than `renumberingWindow` ids apart (farCellShare; a
/// mesh numbered row by row, or already in a space-filling order, has almost none and pays
/// only that one pass over its cells).
class VertexSmoother
{
public:
  /// `pinned`: empty, or one flag per point (nonzero: the vertex does not move).
  VertexSmoother(DeviceRun& run, const DeviceMesh& mesh, const SmoothingOptions& options,
    const std::vector<std::uint8_t>& pinned = {});
  ~VertexSmoother();

  static constexpr std::size_t renumberingMinimumPoints = 32768;
  static constexpr int renumberingMinimumSteps = 8;
  /// 32768 ids: 512 KiB of single-precision state, half of a core's L2 cache on this
  /// project's CPUs.
  static constexpr int renumberingWindow = 32768;

  /// The halvings after which the inversion guard zeroes a move (SmoothingOptions).
  static constexpr int inversionGuardHalvings = 8;

  /// Makes the smoother one piece of a distributed smoothing: the inversion guard exchanges its
  /// proposals and decides its rounds with the other processes. Call before smooth().
  void distribute(DeviceRun& run, SmoothingCollectives collectives);

  /// Whether every step's state reaches the observer exchanged already: distributed with the
  /// inversion guard, which exchanges the step's proposals and every round's halvings, after
  /// which each point's guarded move is a function of its own exchanged values. The observer
  /// then need not exchange the state again.
  bool stepsExchanged() const { return Guarded && Collectives.exchange; }

  /// Runs options.iterations from the mesh's points, calling `observer` (when set) after each
  /// step. Returns the displacement of every point (4 REALs per point), valid until the next
  /// call or the smoother's end. The state is kept as displacements, not positions, so a small
  /// move of a point far from the origin is not lost to rounding.
  const RealBuffer& smooth(DeviceRun& run, const SmoothingStepObserver& observer = {});
  /// The same with a callback that sees only the step count.
  const RealBuffer& smooth(DeviceRun& run, const SmoothingProgress& progress);

  /// The moved points (input + displacement) and the displacement as it lands (moved - input),
  /// 3 REALs per point each, relative to the mesh origin: what an adapter downloads.
  struct Result
  {
    RealBuffer points;
    RealBuffer displacement;
  };
  Result movedPoints(DeviceRun& run, const RealBuffer& displacement) const;
  /// movedPoints for the last time: first waits for the device and lets go of every table and
  /// state but `displacement`, so that the result takes memory the smoothing touched already
  /// (on a CPU device fresh memory costs a page fault per page) instead of new memory. The
  /// smoother may not smooth again.
  Result finalMovedPoints(DeviceRun& run, const RealBuffer& displacement);

  /// With preventInversion: the moves the guard shortened (or zeroed) in the last smooth(), one per
  /// point and step, of the points counted (SmoothingCollectives::owned); the rounds it took
  /// beyond the first check of each step.
  std::uint64_t shortenedMoves() const { return ShortenedMoves; }
  std::uint64_t guardRounds() const { return GuardRounds; }

  /// Whether the iterations run in a locality order (SmoothingVertexOrder).
  bool renumbered() const { return Renumbered != nullptr; }
  /// The points' renumbering when renumbered(), else null. roles(), links() and
  /// boundaryLinks() are in the numbering the smoother runs in: the mesh's, or this one's
  /// (cells: VertexOrder::cells' numbering).
  const VertexOrder* order() const;

  const DeviceBuffer<cl_int>& roles() const { return Roles; }
  /// Neighbours (Laplacian, Taubin) or cells (Barycentric) of each vertex.
  const VertexTable& links() const { return *Links; }
  /// Boundary neighbours; only with SmoothingBoundary::Smooth.
  const VertexTable* boundaryLinks() const { return BoundaryLinks ? &*BoundaryLinks : nullptr; }
  /// Constraint neighbours (feature, non-manifold and followed boundary edges); only with
  /// featureEdgeSmoothing.
  const VertexTable* featureLinks() const { return FeatureLinks ? &*FeatureLinks : nullptr; }
  /// Neighbours of the OnNonManifold vertices, and each entry's weight; only with
  /// nonManifoldSmoothing on a surface.
  const VertexTable* nonManifoldLinks() const { return NonManifoldLinks ? &*NonManifoldLinks : nullptr; }

private:
  struct Launches;
  struct Renumbering;
  bool renumberingPays(DeviceRun& run, const DeviceMesh& mesh) const;
  void renumberForLocality(DeviceRun& run, const DeviceMesh& inputMesh);
  void assignRoles(DeviceRun& run, const DeviceMesh& mesh, const std::vector<std::uint8_t>& pinned,
    std::optional<CellEntities>& sides);
  void markFeatures(DeviceRun& run, const DeviceMesh& mesh, const CellEntities* meshSides);
  /// surfaceSides: the sides of a mesh of 2D cells (its edges), when already matched; their
  /// slots are let go of (CellEntities::releaseSlots).
  void bindSteps(DeviceRun& run, const DeviceMesh& mesh, CellEntities* surfaceSides);
  void bindNonManifold(DeviceRun& run, const CellEntities& edges);
  const DeviceCellGroup* bindBarycentres(DeviceRun& run, const DeviceMesh& mesh);
  void bindGuard(DeviceRun& run, const DeviceMesh& mesh);
  void step(DeviceRun& run, const RealBuffer& in, RealBuffer& out, double factor);
  void guardStep(DeviceRun& run, const RealBuffer& in, RealBuffer& out);
  void exchange(DeviceRun& run, RealBuffer& state);
  const RealBuffer& iterate(DeviceRun& run, const SmoothingStepObserver* observer, const SmoothingProgress* progress);
  RealBuffer& windowedSincResult(DeviceRun& run);

  const DeviceMesh& Mesh;
  SmoothingOptions Options;
  DeviceBuffer<cl_int> Roles;
  std::optional<VertexTable> Links;
  std::optional<VertexTable> BoundaryLinks;
  std::optional<VertexTable> FeatureLinks;
  std::optional<VertexTable> NonManifoldLinks;
  DeviceBuffer<cl_int> NonManifoldWeights;
  RealBuffer Barycentres;
  /// Per vertex, the part of every step fixed by the input positions (kernels/algorithms/smoothing.cl).
  RealBuffer SourceOffsets;
  RealBuffer Ping;
  RealBuffer Pong;
  /// WindowedSinc: the recursion's third state and the weighted sum of the states.
  RealBuffer Older;
  RealBuffer Sum;
  /// The state in the mesh's numbering, when the iterations run in another.
  RealBuffer MeshOrderState;
  std::unique_ptr<Launches> Kernels;
  std::unique_ptr<Renumbering> Renumbered;
  struct Guard;
  std::unique_ptr<Guard> Guarded;
  SmoothingCollectives Collectives;
  std::uint64_t ShortenedMoves = 0;
  std::uint64_t GuardRounds = 0;
};

/// Uploads the points and the 2D/3D cells of `mesh` once, smooths on the device, downloads the
/// displacements once and returns input + displacement (added in double): x, y, z per point.
/// Points that do not move, among them those of no 2D or 3D cell (isolated, or only in
/// vertices and lines), come back bit for bit.
std::vector<double> smoothVertices(DeviceRun& run, const MeshView& mesh, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned = {}, const SmoothingStepObserver& observer = {});

} // namespace gpumesh
