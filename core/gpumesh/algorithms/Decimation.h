// Quadric edge collapse of triangle surfaces on the device (Garland-Heckbert), in rounds of
// independent collapses.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace gpumesh
{

struct DecimationOptions
{
  /// Stop once the mesh has at most this many triangles (>= 0).
  std::int64_t targetTriangles = 0;
  /// Boundary edges collapse only along the boundary; vertices where boundary chains end or
  /// meet (and those of several boundary fans) stay.
  bool preserveBoundary = false;
  /// The link condition: no collapse that changes the genus or makes an edge or a vertex
  /// non-manifold.
  bool preserveTopology = true;
  /// Edges whose triangles' normals differ by more than featureAngle (degrees) are lines:
  /// their vertices move only along them, vertices where they end or meet stay.
  bool preserveFeatures = false;
  double featureAngle = 30.0;
  /// No collapse whose quadric error (the sum of weighted squared distances to the planes of
  /// the merged vertices) exceeds this.
  double maximumError = std::numeric_limits<double>::max();
  /// No triangle's normal may turn by more than this (degrees) in one collapse.
  double maximumNormalChange = 60.0;
  /// Per input point, 1 if it must neither move nor go (e.g. a piece's interface under MPI);
  /// empty: none.
  std::vector<cl_uchar> frozen;
  /// Called after each round with the triangles left; returning false stops the decimation
  /// (decimateTriangles then throws an Error saying after how many rounds). Empty: none.
  std::function<bool(std::size_t triangles)> afterRound;
};

/// The surface left, on the host.
struct DecimatedSurface
{
  std::vector<cl_int> triangles; ///< 3 per triangle, ids of `points`, each input triangle's orientation
  std::vector<double> points;    ///< 3 per point, absolute (the mesh's origin added back)
  /// Per output point: the input point it is (its id survived every collapse) and the input
  /// point collapsed into it last (-1 if none), for interpolating point data.
  std::vector<cl_int> pointSource;
  std::vector<cl_int> pointPartner;
  /// Per output triangle: the input cell (the mesh's cell id) it was.
  std::vector<cl_int> cellParent;
  std::size_t trianglesIn = 0;
  std::size_t rounds = 0;
  /// The largest cost of an applied collapse (0 when none was applied).
  double largestError = 0.0;
  /// Whether the target was reached; if not, no edge could collapse any more under the
  /// constraints (and maximumError).
  bool reachedTarget = false;
};

/// Decimates `mesh`, which must hold only triangles. Each round: the topology of the current
/// triangles (CellEntities and vertex balls; the used vertices are compacted after each round), per edge its collapse's target point
/// and cost (kernels/algorithms/decimation.cl: edge_costs); the candidates beyond the cost of the
/// cheapest (triangles still to remove) / 2 wait (a histogram of 16-bit cost buckets gives the
/// threshold), the others are checked (edge_checks), then every edge that is the cheapest (by
/// cost, then edge id) around both its ends collapses, and the triangles are compacted; in the
/// last round only the cheapest of those, as many as the target needs. Quadrics are accumulated in
/// double where the device has fp64, else in float, carried over the rounds. Points move in the
/// run's precision. The result depends only on the input and the device's arithmetic, never on
/// the thread schedule.
///
/// Throws gpumesh::Error naming the first triangle with a repeated point or zero area, and when
/// frozen's size is neither 0 nor the point count.
///
/// Device-time labels: "decimation input checks", "decimation topology", "decimation quadrics",
/// "decimation costs", "decimation selection", "decimation checks" (of the candidates),
/// "decimation collapses", "decimation compaction".
DecimatedSurface decimateTriangles(DeviceRun& run, const DeviceMesh& mesh, const DecimationOptions& options);

/// The initial quadric of every point of `mesh` (triangles only), as decimateTriangles starts
/// from: 10 coefficients per point (a2 ab ac ad b2 bc bd c2 cd d2 of the plane sums, relative to
/// the mesh's origin), in double (computed in double where the device has fp64).
std::vector<double> vertexQuadrics(DeviceRun& run, const DeviceMesh& mesh);

/// What the first round of decimateTriangles computes per edge before it selects any (every
/// candidate checked, none left out by the cost threshold), for comparison with a host reference
/// bit for bit (the kernels' decisions do not depend on the device's compiler where it has fp64).
struct DecimationRoundEdges
{
  std::vector<cl_uint> edgeEnds;    ///< 2 per edge: its points
  std::vector<double> quadrics;     ///< 10 per point (as vertexQuadrics)
  std::vector<cl_uchar> vertexClass; ///< per point: 0 fixed, 1 along lines, 2 free
  std::vector<double> cost;         ///< per edge, in the quadric precision widened (its maximum: no collapse)
  std::vector<double> target;       ///< 3 per edge, relative to the mesh's origin (meaningful where survivor >= 0)
  std::vector<cl_int> survivor;     ///< per edge: the end that survives its collapse, -1 if it may not collapse
  std::vector<cl_int> checked;      ///< survivor after the checks (-1 where a check fails)
};
DecimationRoundEdges firstRoundEdges(DeviceRun& run, const DeviceMesh& mesh, const DecimationOptions& options);

} // namespace gpumesh
