// Conforming longest-edge bisection of tetrahedral meshes on the device (kernels/
// tetra_refinement.cl says how and why it conforms).
#pragma once
#include "gpumesh/algorithms/refinement/CellMarks.h"
#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/mesh/DeviceMesh.h"

#include <vector>

namespace gpumesh
{

/// Refines `mesh`, which must hold only tetrahedra (cell ids 0..n-1), `passes` times (>= 1).
/// The mesh is consumed; the result is a RefinedSimplices of kind Tetra. `marked` lists the
/// distinct ids of the tetrahedra to refine; each further pass marks the children of the
/// tetrahedra marked in the previous pass.
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
/// With `distributed`, each pass's closure crosses processes as for triangles: its slots are
/// edge slots (6 * tetrahedron + local edge of that pass's mesh), each round's newly divided ones are
/// reported to distributed->exchange, the edges it forces are divided here and the closure goes
/// on from them, until no process divides a new cut edge; ties use distributed->tieIds.
RefinedSimplices refineTetrahedra(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed = nullptr);

/// The same with the marks given on the host (order and repeats do not matter; an id outside
/// the mesh is an error).
RefinedSimplices refineTetrahedra(DeviceRun& run, DeviceMesh mesh, const std::vector<cl_int>& marked, int passes,
  const DistributedRefinement* distributed = nullptr);

} // namespace gpumesh
