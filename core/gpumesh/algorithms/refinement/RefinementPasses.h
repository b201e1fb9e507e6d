// The passes of a longest-edge refinement, whatever the simplex (triangles, tetrahedra): each
// pass refines the marked cells of the mesh the previous pass left; the last pass's cells and
// every pass's new points make the result.
#pragma once
#include "gpumesh/algorithms/refinement/CellMarks.h"
#include "gpumesh/mesh/CellKind.h"
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/runtime/HostMemory.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace gpumesh
{

/// What a distributed mesh adds to the refinement: the closure crosses the cuts between
/// processes, and ties between edges of equal length go by global point ids.
struct DistributedRefinement
{
  /// Per point: what breaks ties in place of its point id, its global point id (the same on
  /// every process holding the point). refineInPasses gives each later pass's new points theirs,
  /// ordered as a serial run numbers them (RefinementPasses.cxx). Empty: the point ids break
  /// ties (right when the global ids increase with them: nothing as large as the mesh to upload).
  HostVector<cl_long> tieIds;
  /// Called after each propagation round with the slots (3 * triangle + local edge, or
  /// 6 * tetrahedron + local edge) divided in that round; fills `forced` with slots of the edges that other processes divided on the cut
  /// and this mesh must divide too, and returns whether another round is needed anywhere (every
  /// process gets the same answer; false ends the closure). `failed`: this process could not
  /// refine, and only answers until the others stop (then the error is thrown).
  std::function<bool(const std::vector<cl_int>& divided, std::vector<cl_int>& forced, bool failed)> exchange;
  /// The slots of the current pass's cut edges (every slot of each edge the piece shares with a
  /// neighbour), the only divisions `exchange` acts on: the closure reports those alone,
  /// filtered on the device (CutDivisions).
  std::function<std::vector<cl_int>()> cutSlots;
  /// Collective, between two passes (Passes > 1): `next` is the mesh the next pass refines, its
  /// points those of the mesh before followed by the midpoints of the `parents` pairs (points of
  /// the mesh before). Makes `exchange` work on the cut of `next` (its slots, its new points).
  /// Throws when any process failed. `failed`: this process could not refine (`next` is null);
  /// it only tells the others, and returns.
  std::function<void(const DeviceMesh* next, const std::vector<cl_int2>& parents, bool failed)> nextPass;
};

/// The cut's share of a distributed closure's divisions: the pass's cut slots
/// (DistributedRefinement::cutSlots) flagged on the device once, so that each exchange round
/// reads back the divided slots among them alone, instead of every slot the round divided
/// (RefineAll divides a slot of most edges: tens of megabytes a round, each looked up on the
/// host).
class CutDivisions
{
public:
  /// `program`: the refinement program (it includes cut_divisions.cl); `slotCount`: the slots of
  /// the pass's cells.
  CutDivisions(DeviceRun& run, const std::string& program, std::size_t slotCount, const std::vector<cl_int>& cutSlots);
  /// The cut slots among divided[first, last), ascending.
  std::vector<cl_int> among(const DeviceBuffer<cl_int>& divided, cl_int first, cl_int last);

private:
  DeviceRun& Run;
  std::string Program;
  std::size_t CutCount;
  DeviceBuffer<cl_uchar> OnCut;
  DeviceBuffer<cl_int> Kept;
  DeviceBuffer<cl_int> KeptCount;
};

/// What one pass leaves: the input cells (each refined one replaced by its first child), the
/// appended children, the new points and their parents, the children of the marked cells.
struct RefinementPass
{
  std::size_t pointCount = 0; ///< old + new
  std::size_t keptCount = 0;
  DeviceBuffer<cl_int> kept;
  std::size_t appendedCount = 0;
  DeviceBuffer<cl_int> appended;
  DeviceBuffer<cl_int> appendedParent;
  std::size_t newPointCount = 0;
  RealBuffer newPoints;
  DeviceBuffer<cl_int2> pointParents;
  DeviceBuffer<cl_int> marked; ///< the children of this pass's marked cells
  std::size_t markedCount = 0;
};

/// The refined mesh on the device, for triangles and tetrahedra alike. Cells [0, keptCount)
/// are the input's, each refined one replaced by its first child; the other children, cells
/// [keptCount, cellCount), are in `appended`, grouped by parent in parent order. Points are the
/// input's followed by one midpoint per bisected edge (in edge order, pass after pass):
/// newPoints holds them (the correctly rounded midpoints, in the run's precision, relative to
/// `origin`) and pointParents gives, for each, the two points whose midpoint it is (lower
/// indices), so an adapter can interpolate point data, or compute the midpoints itself in
/// another precision.
struct RefinedSimplices
{
  CellKind kind = CellKind::Triangle; ///< Triangle or Tetra
  std::size_t pointCount = 0;         ///< old + new
  std::size_t cellCount = 0;
  std::size_t keptCount = 0;
  DeviceBuffer<cl_int> kept;           ///< keptCount x verticesPerCell() point ids
  DeviceBuffer<cl_int> appended;       ///< (cellCount - keptCount) x verticesPerCell() point ids
  DeviceBuffer<cl_int> keptParent;     ///< input cell of each kept one; empty: the identity
  DeviceBuffer<cl_int> appendedParent; ///< input cell of each appended one
  std::size_t newPointCount = 0;
  DeviceBuffer<cl_int2> pointParents; ///< newPointCount pairs
  RealBuffer newPoints;               ///< 3 x newPointCount coordinates
  std::array<double, 3> origin{ 0.0, 0.0, 0.0 }; ///< subtracted from every point (DeviceMesh::origin)
  std::uint64_t markedCount = 0; ///< distinct cells marked in the first pass

  /// 3 for triangles, 4 for tetrahedra.
  std::size_t verticesPerCell() const { return static_cast<std::size_t>(fixedVertexCount(kind)); }

  /// All cells (verticesPerCell() ids each) and their input cells, in output order.
  void download(DeviceRun& run, std::vector<cl_int>& cells, std::vector<cl_int>& parents) const;
};

/// One pass over `mesh`: the marked cells, each cell's input cell (empty: the identity),
/// whether it is the first pass, and the distributed mesh's exchange and tie ids for this pass
/// (null in a serial run). It sets `closureOver` once the distributed closure has ended on
/// every process (from then on no process waits for this one in this pass).
using RefinePass = std::function<RefinementPass(DeviceMesh& mesh, const DeviceBuffer<cl_int>& marked,
  std::size_t markedCount, const DeviceBuffer<cl_int>& parent, bool firstPass,
  const DistributedRefinement* distributed, bool& closureOver)>;

/// Checks `passes` (>= 1) and that `mesh` holds cells of `kind` only (else
/// an error naming `what`, e.g. "Tetrahedron refinement"), rejects cells that list a point twice,
/// then runs `refinePass` `passes` times, each on the mesh the one before left (distributed:
/// with distributed->nextPass between them). An empty mesh still answers the other processes'
/// exchange rounds and passes until they end. When this process fails, it answers what the
/// others wait for (the closure's rounds, or the next pass), reporting the failure, then throws.
RefinedSimplices refineInPasses(DeviceRun& run, DeviceMesh mesh, MarkedCells marked, int passes, CellKind kind,
  const std::string& what, const DistributedRefinement* distributed, const RefinePass& refinePass);

/// The distinct ids of `marked` (order and repeats do not matter) on the device. An id outside
/// the `cells` cells is an error naming it and the cells (`cell`, `cells` name them: "triangle",
/// "triangles"), after the other processes were told that this one failed.
MarkedCells distinctMarks(DeviceRun& run, const std::vector<cl_int>& marked, std::size_t count,
  const std::string& cell, const std::string& cells, const DistributedRefinement* distributed);

} // namespace gpumesh
