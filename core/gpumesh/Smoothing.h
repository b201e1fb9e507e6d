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
class HostMesh;

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
/// result, `step` counted from 1 up to `steps`. It may change `result` in place (a halo
/// exchange of the points other processes own); returning false stops the smoothing there
/// (an abort), leaving `result` as the last iterate.
using SmoothingStepObserver =
  std::function<bool(DeviceRun& run, DeviceBuffer<cl_float4>& result, int step, int steps)>;

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
  /// step. Returns the buffer holding the result (relative to the mesh origin), valid until the
  /// next call or the smoother's end.
  const DeviceBuffer<cl_float4>& smooth(DeviceRun& run, const SmoothingStepObserver& observer = {});

  const DeviceBuffer<cl_int>& roles() const { return Roles; }
  /// Neighbours (Laplacian, Taubin) or cells (Barycentric) of each vertex.
  const VertexTable& links() const { return *Links; }
  /// Boundary neighbours; only with SmoothingBoundary::Smooth.
  const VertexTable* boundaryLinks() const { return BoundaryLinks ? &*BoundaryLinks : nullptr; }

private:
  struct Launches;
  void step(DeviceRun& run, const DeviceBuffer<cl_float4>& in, DeviceBuffer<cl_float4>& out, float factor);

  const DeviceMesh& Mesh;
  SmoothingOptions Options;
  DeviceBuffer<cl_int> Roles;
  std::optional<VertexTable> Links;
  std::optional<VertexTable> BoundaryLinks;
  DeviceBuffer<cl_float4> Barycentres;
  DeviceBuffer<cl_float4> Ping;
  DeviceBuffer<cl_float4> Pong;
  std::unique_ptr<Launches> Kernels;
};

/// Uploads the points and the 2D/3D cells of `mesh` once, smooths on the device, downloads the
/// points once: x, y, z, 0 per point, relative to mesh.origin(). Points used by no 2D or 3D
/// cell (isolated, or only in vertices and lines) come back unchanged.
std::vector<float> smoothVertices(DeviceRun& run, const HostMesh& mesh, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned = {}, const SmoothingStepObserver& observer = {});

} // namespace gpumesh
