// Vertex smoothing on the device: Laplacian (umbrella), Taubin (lambda|mu) and barycentric
// (scatter/gather), Jacobi-style with ping-pong buffers.
#pragma once
#include "gpumesh/VertexTable.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

namespace gpumesh
{

class DeviceMesh;
struct MeshView;

enum class SmoothingMethod
{
  /// x += lambda * (mean of the vertices joined to x by a cell edge - x).
  Laplacian,
  /// One iteration is a Laplacian step with lambda then one with
  /// mu = 1 / (passBand - 1 / lambda) < -lambda: smoothing without shrinking (Taubin 1995).
  Taubin,
  /// x += lambda * (mean of the barycentres of the cells around x - x); a barycentre is the
  /// mean of the cell's vertices. Per-cell scatter then per-vertex gather, no atomics.
  Barycentric
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

struct SmoothingOptions
{
  SmoothingMethod method = SmoothingMethod::Laplacian;
  SmoothingBoundary boundary = SmoothingBoundary::Fixed;
  int iterations = 10;
  double relaxationFactor = 0.5;
  double passBand = 0.1;
  VertexTableLayout layout;

  /// Throws gpumesh::Error naming the offending value: negative iterations, a relaxation
  /// factor outside (0, 1] (above 1 the steps overshoot and diverge), and for Taubin
  /// anything but 0 < passBand < 1/lambda.
  void validate() const;
  /// Taubin's mu = 1 / (passBand - 1 / relaxationFactor).
  double mu() const;
};

/// Called after every Jacobi step (one per iteration, two per Taubin iteration) with the step's
/// result, the displacement of every point from its input position (4 REALs per point: x, y,
/// z, 0), `step` counted from 1 up to `steps`. It may change `result` in place (a halo
/// exchange of the points other processes own); returning false stops the smoothing there
/// (an abort), leaving `result` as the last iterate.
using SmoothingStepObserver =
  std::function<bool(DeviceRun& run, RealBuffer& result, int step, int steps)>;

/// Vertex roles on the device (one int per vertex).
enum VertexRole : cl_int
{
  Pinned = 0,
  OnBoundary = 1,
  Interior = 2
};

/// The links a method needs, built once on the device, and the ping-pong buffers. `mesh`
/// should hold only 2D and 3D cells (DeviceMesh with minimumDimension 2): their edges, sides
/// and balls define the smoothing; vertices of no cell do not move.
class VertexSmoother
{
public:
  /// `pinned`: empty, or one flag per point (nonzero: the vertex does not move).
  VertexSmoother(DeviceRun& run, const DeviceMesh& mesh, const SmoothingOptions& options,
    const std::vector<std::uint8_t>& pinned = {});
  ~VertexSmoother();

  /// Runs options.iterations from the mesh's points, calling `observer` (when set) after each
  /// step. Returns the displacement of every point (4 REALs per point), valid until the next
  /// call or the smoother's end. The state is kept as displacements, not positions, so a small
  /// move of a point far from the origin is not lost to rounding.
  const RealBuffer& smooth(DeviceRun& run, const SmoothingStepObserver& observer = {});

  /// The moved points (input + displacement) and the displacement as it lands (moved - input),
  /// 3 REALs per point each, relative to the mesh origin: what an adapter downloads.
  struct Result
  {
    RealBuffer points;
    RealBuffer displacement;
  };
  Result movedPoints(DeviceRun& run, const RealBuffer& displacement) const;

  const DeviceBuffer<cl_int>& roles() const { return Roles; }
  /// Neighbours (Laplacian, Taubin) or cells (Barycentric) of each vertex.
  const VertexTable& links() const { return *Links; }
  /// Boundary neighbours; only with SmoothingBoundary::Smooth.
  const VertexTable* boundaryLinks() const { return BoundaryLinks ? &*BoundaryLinks : nullptr; }

private:
  struct Launches;
  void step(DeviceRun& run, const RealBuffer& in, RealBuffer& out, double factor);

  const DeviceMesh& Mesh;
  SmoothingOptions Options;
  DeviceBuffer<cl_int> Roles;
  std::optional<VertexTable> Links;
  std::optional<VertexTable> BoundaryLinks;
  RealBuffer Barycentres;
  /// Per vertex, the part of every step fixed by the input positions (kernels/smoothing.cl).
  RealBuffer SourceOffsets;
  RealBuffer Ping;
  RealBuffer Pong;
  std::unique_ptr<Launches> Kernels;
};

/// Uploads the points and the 2D/3D cells of `mesh` once, smooths on the device, downloads the
/// displacements once and returns input + displacement (added in double): x, y, z per point.
/// Points that do not move, among them those of no 2D or 3D cell (isolated, or only in
/// vertices and lines), come back bit for bit.
std::vector<double> smoothVertices(DeviceRun& run, const MeshView& mesh, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned = {}, const SmoothingStepObserver& observer = {});

} // namespace gpumesh
