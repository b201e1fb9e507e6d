// Conforming longest-edge bisection of tetrahedral meshes on the device (kernels/
// tetra_refinement.cl says how and why it conforms).
#pragma once
#include "gpumesh/algorithms/refinement/CellMarks.h"
#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/mesh/DeviceMesh.h"

#include <array>
#include <cstdint>
#include <vector>

namespace gpumesh
{

/// The refined mesh on the device, laid out like RefinedTriangles: tetrahedra [0, keptCount)
/// are the input's, each refined one replaced by its first child; the other children,
/// [keptCount, tetrahedronCount), are in `appended`, grouped by parent in parent order. Points
/// are the input's followed by one midpoint per bisected edge (in edge order, pass after
/// pass): newPoints holds them (in the run's precision, relative to `origin`) and pointParents
/// the two points whose midpoint each is.
struct RefinedTetrahedra
{
  std::size_t pointCount = 0;
  std::size_t tetrahedronCount = 0;
  std::size_t keptCount = 0;
  DeviceBuffer<cl_int> tetrahedra;     ///< keptCount x 4 point ids
  DeviceBuffer<cl_int> appended;       ///< (tetrahedronCount - keptCount) x 4 point ids
  DeviceBuffer<cl_int> keptParent;     ///< input tetrahedron of each kept one; empty: the identity
  DeviceBuffer<cl_int> appendedParent; ///< input tetrahedron of each appended one
  std::size_t newPointCount = 0;
  DeviceBuffer<cl_int2> pointParents;  ///< newPointCount pairs
  RealBuffer newPoints;                ///< 3 x newPointCount coordinates
  std::array<double, 3> origin{ 0.0, 0.0, 0.0 }; ///< subtracted from every point (DeviceMesh::origin)
  std::uint64_t markedCount = 0;       ///< distinct tetrahedra marked in the first pass

  /// All tetrahedra (4 ids each) and their input tetrahedra, in output order.
  void download(DeviceRun& run, std::vector<cl_int>& allTetrahedra, std::vector<cl_int>& parents) const;
};

/// Refines `mesh`, which must hold only tetrahedra (cell ids 0..n-1), `passes` times (>= 1).
/// The mesh is consumed. `marked` lists the distinct ids of the tetrahedra to refine; each
/// further pass marks the children of the tetrahedra marked in the previous pass.
///
/// Every marked tetrahedron is bisected at least once (by its longest edge); the closure of
/// the marks (a tetrahedron with a marked edge marks its longest edge, a face with a marked
/// edge marks the face's longest edge) spreads bisections to neighbours so that the output
/// conforms. Edges are ordered by squared length with the triangles' tie rule
/// (kernels/algorithms/refinement/edge_order.cl), so the result depends neither on the cell order nor on the
/// orientation. Children keep their parent's orientation (the sign of its volume).
///
/// Throws gpumesh::Error naming the first cell that is degenerate (a zero-length edge or zero
/// volume), that has a face shared by more than two tetrahedra, or a boundary point coinciding
/// with another (unmerged duplicates along a seam), and when a size exceeds the device's 32-bit
/// indices or memory.
///
/// Device-time labels: "edge extraction", "validation", "step 1 edge lengths", "step 2
/// closure", "step 3 counts", "step 4 prefix sums", "step 5 templates".
///
/// With `distributed` (one pass only), the closure crosses processes as for triangles: its
/// slots are edge slots (6 * tetrahedron + local edge), each round's newly divided ones are
/// reported to distributed->exchange, the edges it forces are divided here and the closure goes
/// on from them, until no process divides a new cut edge; ties use distributed->tieIds.
RefinedTetrahedra refineTetrahedra(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed = nullptr);

/// The same with the marks given on the host (order and repeats do not matter; an id outside
/// the mesh is an error).
RefinedTetrahedra refineTetrahedra(DeviceRun& run, DeviceMesh mesh, const std::vector<cl_int>& marked, int passes,
  const DistributedRefinement* distributed = nullptr);

} // namespace gpumesh
