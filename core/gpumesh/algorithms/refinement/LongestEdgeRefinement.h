// Conforming longest-edge bisection (Rivara) of triangle meshes on the device, after
// Hatipoglu's seven-step GPU algorithm (seed 002).
#pragma once
#include "gpumesh/algorithms/refinement/CellMarks.h"
#include "gpumesh/algorithms/refinement/RefinementPasses.h"
#include "gpumesh/mesh/DeviceMesh.h"

#include <vector>

namespace gpumesh
{

/// Refines `mesh`, which must hold only triangles (cell ids 0..n-1), `passes` times (>= 1).
/// The mesh is consumed: its connectivity becomes the kept triangles of the result, a
/// RefinedSimplices of kind Triangle. `marked` lists the distinct ids of the triangles to
/// refine (made on the device by markCells or allCells); each further pass marks the children
/// of the triangles marked in the previous pass. Steps 1, 2 and 6 read every edge or triangle; the others touch only what the marks
/// reach. Every marked triangle is bisected at least once; conformity spreads bisections to
/// neighbours along longest edges. Squared lengths are computed in the run's precision from
/// the difference of each edge's end points; ties between edges of equal squared length go
/// to the edge whose
/// (smaller vertex id, larger vertex id) pair is smallest, so the result depends neither on
/// the cell order nor on the orientation of the cells, and two processes sharing an edge
/// agree on it. Children keep their parent's orientation.
///
/// Throws gpumesh::Error naming the first cell that is degenerate (a zero-length edge or zero
/// area), that has an edge shared by more than two triangles, or that touches a boundary point
/// coinciding with another boundary point (unmerged duplicates cutting the mesh along a seam),
/// and when a size exceeds the device's 32-bit indices or memory.
///
/// Device-time labels: "edge extraction", "validation", "step 1 edge lengths", "step 2 longest
/// edges", "step 3 dependency forest", "step 4 propagation", "step 5 counts", "step 6 prefix
/// sums", "step 7 templates".
///
/// With `distributed`, the closure of each pass goes on round by round until
/// distributed->exchange says no process divided a new cut edge (its slots refer to the
/// triangles of that pass, which distributed->nextPass gets between passes), and ties use
/// distributed->tieIds.
RefinedSimplices refineLongestEdges(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes,
  const DistributedRefinement* distributed = nullptr);

/// The same with the marks given on the host (order and repeats do not matter; an id outside
/// the mesh is an error).
RefinedSimplices refineLongestEdges(DeviceRun& run, DeviceMesh mesh, const std::vector<cl_int>& marked,
  int passes, const DistributedRefinement* distributed = nullptr);

} // namespace gpumesh
