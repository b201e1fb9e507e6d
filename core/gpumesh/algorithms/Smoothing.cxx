#include "gpumesh/algorithms/Smoothing.h"

#include "gpumesh/mesh/Centroids.h"
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/mesh/MeshView.h"
#include "gpumesh/mesh/VertexOrder.h"
#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/VertexLinks.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

namespace gpumesh
{

namespace
{
struct Launch
{
  BoundKernel kernel;
  LaunchRange range;
  std::string label;
};

// Where a relax kernel finds the state of cell sources (barycentric smoothing).
struct CellSources
{
  const Centroids* inputBarycentres = nullptr; ///< place the sources in the input
  /// The barycentres the per-cell scatter writes at every step, or
  const RealBuffer* barycentres = nullptr;
  /// the one fixed-size group that fills the mesh, whose cells' states the gather computes.
  const DeviceCellGroup* cells = nullptr;
};

// The vertices of `role` get their fixed part of a step in `offsets` (source_offsets in
// kernels/algorithms/smoothing.cl, run now), and relax kernels over the table are bound, their step
// arguments (in, out, factor) left free. With cell sources, the cells' input barycentres place
// the sources. One work-item per vertex, reading its row where the table keeps it: 1.7x faster
// per step than one launch per row width (H100, 30M triangles). The table's long rows, if any,
// take one work-group each in a second launch: one work-item walking a row of 16384 took 3.1 ms
// per step on an H200, where a whole step over 30M triangles takes 0.42 ms.
void addRelaxLaunch(DeviceRun& run, const DeviceMesh& mesh, const VertexTable& table,
  const DeviceBuffer<cl_int>& roles, VertexRole role, const CellSources* cellSources, RealBuffer& offsets,
  std::vector<Launch>& out, const DeviceBuffer<cl_int>* weights = nullptr)
{
  const auto vertices = static_cast<std::size_t>(mesh.pointCount());
  const auto count = static_cast<cl_int>(vertices);
  const auto longRow = static_cast<cl_int>(
    std::min<unsigned>(table.longRowThreshold(), static_cast<unsigned>(std::numeric_limits<cl_int>::max())));
  const std::size_t group = run.device().workGroupSize(256);
  const LaunchRange longRows{ table.longRowCount() * group, group };
  const LocalMemory partial{ group * 4 * realSize(run.precision()) };
  // anchors: the source_offsets arguments that place cell sources; state: the relax arguments
  // that give their state at each step.
  const auto bindRows = [&](const std::string& options, const auto& anchors, const auto& state) {
    std::apply(
      [&](const auto&... a) {
        run.call({ "smoothing", "source_offsets", options }, vertices, "source offsets", mesh.points(),
          table.entries(), table.rowStart(), table.degree(), count, longRow, roles, cl_int(role), offsets, a...);
        if (longRows.global)
        {
          run.call({ "smoothing", "source_offsets_long", options }, longRows, "source offsets", mesh.points(),
            table.entries(), table.rowStart(), table.degree(), table.longRows(), roles, cl_int(role), offsets,
            partial, a...);
        }
      },
      anchors);
    std::apply(
      [&](const auto&... s) {
        out.push_back({ run.bind({ "smoothing", "relax", options }, 3, table.entries(), table.rowStart(),
                          table.degree(), count, longRow, roles, cl_int(role), offsets, s...),
          vertices, "relax" });
        if (longRows.global)
        {
          out.push_back({ run.bind({ "smoothing", "relax_long", options }, 3, table.entries(), table.rowStart(),
                            table.degree(), table.longRows(), roles, cl_int(role), offsets, partial, s...),
            longRows, "relax long rows" });
        }
      },
      state);
  };
  if (weights)
  {
    bindRows("-DWEIGHTED=1", std::tie(*weights), std::tie(*weights));
    return;
  }
  if (!cellSources)
  {
    bindRows("", std::tuple<>(), std::tuple<>());
    return;
  }
  const std::string options = cellSources->cells
    ? "-DCELL_SOURCES=2 " + cellKindOptions(*cellSources->cells)
    : std::string("-DCELL_SOURCES=1");
  const auto anchors = std::tie(cellSources->inputBarycentres->anchors, cellSources->inputBarycentres->offsets);
  if (cellSources->cells)
  {
    bindRows(options, anchors, std::tie(cellSources->cells->connectivity));
  }
  else
  {
    bindRows(options, anchors, std::tie(*cellSources->barycentres));
  }
}

// The pinned flags fit the mesh, and its cells are all of kinds smoothing handles.
void requireSmoothable(const DeviceMesh& mesh, const std::vector<std::uint8_t>& pinned)
{
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  if (!pinned.empty() && pinned.size() != points)
  {
    throw Error("the pinned-vertex flags have " + std::to_string(pinned.size()) + " entries for " +
      std::to_string(points) + " points");
  }
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (group.kind == CellKind::TriangleStrip)
    {
      throw Error("The mesh has triangle strips, which smoothing does not handle: triangulate them "
                  "first (e.g. the Triangulate filter)");
    }
    if (cellDimension(group.kind) < 2)
    {
      throw Error("VertexSmoother needs a mesh of 2D and 3D cells only (DeviceMesh with minimum "
                  "dimension 2), but it has " + std::string(cellKindName(group.kind)) + " cells");
    }
  }
}
bool hasVolumeCells(const DeviceMesh& mesh)
{
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (cellDimension(group.kind) == 3)
    {
      return true;
    }
  }
  return false;
}

// The boundary faces of the 3D cells of `mesh` (sides used by one cell; `sides` built on it) as a
// mesh of triangles and quads on the same points, each face in its cell's local order
// (kernels/algorithms/smoothing_features.cl). Null when there are none.
std::unique_ptr<DeviceMesh> boundaryFaces(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& sides)
{
  const std::size_t slots = sides.slotCount();
  DeviceBuffer<cl_uint> triangleFlags = run.allocate<cl_uint>(slots, "boundary faces");
  DeviceBuffer<cl_uint> quadFlags = run.allocate<cl_uint>(slots, "boundary faces");
  run.fill(triangleFlags, cl_uint(0), "boundary faces");
  run.fill(quadFlags, cl_uint(0), "boundary faces");
  std::vector<std::pair<const DeviceCellGroup*, DeviceBuffer<cl_int>>> volumes;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    const std::vector<cl_int>* table = localEntityTable(group.kind, EntityType::Sides);
    if (cellDimension(group.kind) != 3 || !table)
    {
      continue;
    }
    volumes.emplace_back(&group, run.upload(table->data(), table->size(), "side table"));
    run.call({ "smoothing_features", "boundary_face_counts" }, group.count, "boundary faces", CellArgs{ group },
      volumes.back().second, static_cast<cl_int>(table->size() / 4), sides.slotOffsets(), sides.slotRun(),
      triangleFlags, quadFlags);
  }
  DeviceBuffer<cl_uint> triangleAt = run.allocate<cl_uint>(slots + 1, "boundary faces");
  DeviceBuffer<cl_uint> quadAt = run.allocate<cl_uint>(slots + 1, "boundary faces");
  const auto triangles = static_cast<std::size_t>(exclusiveScan(run, triangleFlags, slots, triangleAt, "boundary triangles"));
  const auto quads = static_cast<std::size_t>(exclusiveScan(run, quadFlags, slots, quadAt, "boundary quads"));
  if (triangles + quads == 0)
  {
    return nullptr;
  }
  DeviceCellGroup triangleGroup{ CellKind::Triangle, triangles, run.allocate<cl_int>(std::max<std::size_t>(3 * triangles, 1), "boundary triangles"),
    {}, run.allocate<cl_int>(std::max<std::size_t>(triangles, 1), "boundary triangles") };
  DeviceCellGroup quadGroup{ CellKind::Quad, quads, run.allocate<cl_int>(std::max<std::size_t>(4 * quads, 1), "boundary quads"),
    {}, run.allocate<cl_int>(std::max<std::size_t>(quads, 1), "boundary quads") };
  for (auto& [group, table] : volumes)
  {
    run.call({ "smoothing_features", "boundary_faces" }, group->count, "boundary faces", CellArgs{ *group }, table,
      static_cast<cl_int>(table.size() / 4), sides.slotOffsets(), sides.slotRun(), triangleAt, quadAt,
      static_cast<cl_int>(triangles), triangleGroup.connectivity, triangleGroup.cellIds, quadGroup.connectivity,
      quadGroup.cellIds);
  }
  std::vector<DeviceCellGroup> groups;
  if (triangles)
  {
    groups.push_back(std::move(triangleGroup));
  }
  if (quads)
  {
    groups.push_back(std::move(quadGroup));
  }
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  RealBuffer copy = run.allocateReal(3 * points, "boundary face points");
  run.copyReal(mesh.points(), copy, 3 * points, "boundary face points");
  return std::make_unique<DeviceMesh>(std::move(copy), points, std::move(groups), triangles + quads, mesh.origin());
}
} // namespace

void SmoothingOptions::validate() const
{
  if (iterations < 0)
  {
    throw Error("Iterations must be 0 or more, not " + std::to_string(iterations));
  }
  // A step moves x to x + lambda (mean - x). The umbrella operator's eigenvalues lie in [0, 2]
  // (2 for the odd-even mode of a quad grid), which a step scales by 1 - lambda k: above 1 that
  // mode grows by |1 - 2 lambda| > 1 per step; at 0 or below nothing moves or points move away.
  if (!(relaxationFactor > 0.0 && relaxationFactor <= 1.0))
  {
    throw Error("RelaxationFactor must be in (0, 1], not " + formatNumber(relaxationFactor) +
      ": above 1 a step overshoots the mean of the neighbours and the smoothing can diverge; at 0 "
      "or below points do not move or move away from it");
  }
  if (method == SmoothingMethod::WindowedSinc && !(passBand > 0.0 && passBand <= 2.0))
  {
    throw Error("WindowedSinc smoothing needs 0 < PassBand <= 2, not " + formatNumber(passBand));
  }
  if (method == SmoothingMethod::WindowedSinc && preventInversion)
  {
    throw Error("PreventInversion is not available with the WindowedSinc method: its steps are terms of a "
                "polynomial filter, not positions the mesh takes; turn it off or choose another method");
  }
  if (method == SmoothingMethod::Taubin && !(passBand > 0.0 && passBand < 1.0 / relaxationFactor))
  {
    throw Error("Taubin smoothing needs 0 < PassBand < 1/RelaxationFactor "
                "(so that mu = 1/(PassBand - 1/RelaxationFactor) is below -RelaxationFactor); got "
                "RelaxationFactor " +
      formatNumber(relaxationFactor) + ", PassBand " + formatNumber(passBand));
  }
  if (featureEdgeSmoothing && !(featureAngle >= 0.0 && featureAngle <= 180.0))
  {
    throw Error("FeatureAngle must be in [0, 180] degrees, not " + formatNumber(featureAngle));
  }
  if (featureEdgeSmoothing && !(edgeAngle >= 0.0 && edgeAngle <= 180.0))
  {
    throw Error("EdgeAngle must be in [0, 180] degrees, not " + formatNumber(edgeAngle));
  }
  if (preventInversion && !(minimumVolumeFraction >= 0.0 && minimumVolumeFraction <= 1.0))
  {
    throw Error("MinimumVolumeFraction must be in [0, 1], not " + formatNumber(minimumVolumeFraction) +
      ": it is the share of its volume before a step that a cell must keep after it");
  }
}

double SmoothingOptions::mu() const
{
  return 1.0 / (passBand - 1.0 / relaxationFactor);
}

std::vector<double> windowedSincCoefficients(int iterations, double passBand)
{
  const int n = iterations;
  const double pi = 3.14159265358979323846;
  std::vector<double> window(static_cast<std::size_t>(n) + 1);
  for (int i = 0; i <= n; ++i)
  {
    window[i] = 0.54 + 0.46 * std::cos(i * pi / (n + 1)); // Hamming
  }
  // The filter f(k) = sum c_i T_i(1 - k/2); its cut-off theta + sigma, sigma found by Newton's
  // method on f(passBand) = 1, with the coefficients of f' by the Chebyshev derivative recurrence.
  const double theta = std::acos(1.0 - 0.5 * passBand);
  std::vector<double> c(window.size()), derivative(window.size());
  double sigma = 0.0;
  for (int round = 0; round < 500; ++round)
  {
    c[0] = window[0] * (theta + sigma) / pi;
    for (int i = 1; i <= n; ++i)
    {
      c[i] = 2.0 * window[i] * std::sin(i * (theta + sigma)) / (i * pi);
    }
    if (n < 2)
    {
      break; // degree 1: no room to adjust
    }
    derivative[n] = 0.0;
    derivative[n - 1] = 0.0;
    derivative[n - 2] = 2.0 * (n - 1) * c[n - 1];
    for (int i = n - 3; i >= 0; --i)
    {
      derivative[i] = derivative[i + 2] + 2.0 * (i + 1) * c[i + 1];
    }
    double f = c[0], slope = derivative[0];
    for (int i = 1; i <= n; ++i)
    {
      const double t = i == 1 ? 1.0 - 0.5 * passBand : std::cos(i * theta);
      f += c[i] * t;
      slope += derivative[i] * t;
    }
    if (std::fabs(f - 1.0) < 1e-3)
    {
      break;
    }
    sigma -= (f - 1.0) / slope;
  }
  return c;
}

// Kernel objects made once per smoother: a step only resets the buffers and the factor.
struct VertexSmoother::Launches
{
  std::vector<Launch> scatter; // points -> barycentres, one per cell group
  std::vector<Launch> relax;   // one per link (interior, boundary)
};

// The inversion guard's kernels and buffers (kernels/algorithms/smoothing_guard.cl).
struct VertexSmoother::Guard
{
  std::vector<Launch> checks; // one per cell group; step arguments: in, out
  DeviceBuffer<cl_int> flags;
  DeviceBuffer<cl_int> offending;
  DeviceBuffer<cl_uint> shortened;
  DeviceBuffer<cl_uchar> counted;
  std::string options;
};

// The mesh in a locality order (VertexOrder.h), on which the smoother then builds everything.
struct VertexSmoother::Renumbering
{
  VertexOrder order;
  std::optional<DeviceMesh> mesh;
  /// New cell id -> old: the rows of cells keep the order of the input's numbering.
  DeviceBuffer<cl_uint> oldCellIds;
};

bool VertexSmoother::renumberingPays(DeviceRun& run, const DeviceMesh& mesh) const
{
  switch (Options.vertexOrder)
  {
    case SmoothingVertexOrder::Mesh:
      return false;
    case SmoothingVertexOrder::Locality:
      return true;
    case SmoothingVertexOrder::Automatic:
      break;
  }
  const int steps = Options.iterations * (Options.method == SmoothingMethod::Taubin ? 2 : 1);
  if (static_cast<std::size_t>(mesh.pointCount()) < renumberingMinimumPoints || steps < renumberingMinimumSteps)
  {
    return false;
  }
  return farCellShare(run, mesh, renumberingWindow) > 0.25;
}

VertexSmoother::VertexSmoother(DeviceRun& run, const DeviceMesh& inputMesh, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned)
  : Mesh(inputMesh)
  , Options(options)
  , Kernels(std::make_unique<Launches>())
{
  Options.validate();
  requireSmoothable(inputMesh, pinned);
  // Where the numbering scatters neighbours, everything below (topology, tables, iterations)
  // runs on the mesh renumbered for locality; the result goes back to the input's numbering.
  // Each row of the tables keeps the order of the input's numbering (sortRowsBy), so every
  // vertex sums the same values in the same order and results are bit-identical.
  if (renumberingPays(run, inputMesh))
  {
    renumberForLocality(run, inputMesh);
  }
  const DeviceMesh& mesh = Renumbered ? *Renumbered->mesh : inputMesh;
  // A surface's sides are its edges: matched once here, they serve the roles, the features
  // and the neighbour links (before, the edges were matched a second time for the links).
  std::optional<CellEntities> sides;
  assignRoles(run, mesh, pinned, sides);
  // Past the roles and features, only a surface's umbrella links read its sides (its edges).
  if (sides && (hasVolumeCells(mesh) || Options.method == SmoothingMethod::Barycentric))
  {
    sides.reset();
  }
  bindSteps(run, mesh, sides ? &*sides : nullptr);
  sides.reset();
  if (Options.preventInversion)
  {
    bindGuard(run, mesh);
  }
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  Ping = run.allocateReal(4 * points, "displacements (ping)");
  Pong = run.allocateReal(4 * points, "displacements (pong)");
  if (Options.method == SmoothingMethod::WindowedSinc)
  {
    Older = run.allocateReal(4 * points, "windowed sinc states");
    Sum = run.allocateReal(4 * points, "windowed sinc sum");
  }
}

void VertexSmoother::renumberForLocality(DeviceRun& run, const DeviceMesh& inputMesh)
{
  const auto points = static_cast<std::size_t>(inputMesh.pointCount());
  Renumbered = std::make_unique<Renumbering>();
  Renumbering& r = *Renumbered;
  r.order = VertexOrder::spaceFilling(run, inputMesh.points(), points);
  CellOrder cells = r.order.cells(run, inputMesh);
  r.oldCellIds = std::move(cells.oldIds);
  r.mesh.emplace(r.order.gatherPoints(run, inputMesh.points(), "points"), points, std::move(cells.groups),
    cells.count, inputMesh.origin());
  MeshOrderState = run.allocateReal(4 * points, "displacements (input numbering)");
}

// Roles: interior unless a boundary or non-manifold side, or the caller, says otherwise.
void VertexSmoother::assignRoles(
  DeviceRun& run, const DeviceMesh& mesh, const std::vector<std::uint8_t>& pinned, std::optional<CellEntities>& sides)
{
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  Roles = run.allocate<cl_int>(points, "vertex roles");
  // Whether every side is shared by exactly two cells (no boundary or non-manifold side).
  bool closedManifold = false;
  if (Options.boundary == SmoothingBoundary::Free)
  {
    run.fill(Roles, cl_int(Interior), "vertex roles");
  }
  else
  {
    // On a surface whose boundary edges are constraint edges (markFeatures below), every
    // boundary vertex moves along them or not at all: no table of boundary neighbours.
    const bool volume = hasVolumeCells(mesh);
    const bool constrainedOutline = !volume && (Options.featureEdgeSmoothing || Options.method == SmoothingMethod::WindowedSinc);
    const bool boundaryTable = Options.boundary == SmoothingBoundary::Smooth && !constrainedOutline;
    // No slot's cell nor neighbour is read but by the dihedral test of feature edges: without
    // it they are not made (less fresh memory, whose first touch costs on CPU devices). A
    // surface read by nothing per slot (no dihedral test, boundary table or non-manifold
    // weights) keeps only its edges and their counts of faces.
    const bool perEntity = !volume && !Options.featureEdgeSmoothing && !Options.nonManifoldSmoothing && !boundaryTable;
    sides.emplace(run, mesh, EntityType::Sides, AccessPattern::Auto,
      Options.featureEdgeSmoothing ? SlotNeighbors::Kept
        : perEntity                ? SlotNeighbors::EntityCounts
                                   : SlotNeighbors::LeftOut);
    const cl_int boundaryRole = Options.boundary == SmoothingBoundary::Fixed ? Pinned : OnBoundary;
    // Non-manifold vertices: fixed; with nonManifoldSmoothing, weighted umbrellas on surfaces
    // (bindNonManifold), interior vertices otherwise.
    const bool weighted = !hasVolumeCells(mesh) && Options.method != SmoothingMethod::Barycentric;
    const cl_int nonManifoldRole = !Options.nonManifoldSmoothing ? Pinned : weighted ? OnNonManifold : Interior;
    // The sides' flags are written into Roles, then turned into roles in place.
    run.fill(Roles, cl_int(0), "vertex roles");
    DeviceBuffer<cl_int> unshared = run.allocate<cl_int>(1, "vertex roles");
    run.fill(unshared, cl_int(0), "vertex roles");
    if (perEntity)
    {
      run.call({ "smoothing", "mark_entity_sides" }, sides->entityCount(), "vertex roles", sides->entityCells(),
        sides->entityVertices(), static_cast<cl_int>(sides->entityCount()), Roles, unshared);
    }
    else
    {
      run.call({ "smoothing", "mark_sides" }, sides->slotCount(), "vertex roles", sides->slotRun(),
        sides->slotEntity(), sides->entityVertices(), static_cast<cl_int>(sides->slotCount()), Roles, unshared);
    }
    cl_int unsharedSlots = 0;
    run.download(unshared, &unsharedSlots, 1, "vertex roles");
    closedManifold = unsharedSlots == 0;
    run.call({ "smoothing", "roles_from_sides" }, points, "vertex roles", static_cast<cl_int>(points), boundaryRole,
      nonManifoldRole, Roles);
    if (boundaryTable)
    {
      BoundaryLinks.emplace(boundaryNeighbors(run, mesh, *sides, Options.layout));
      if (Renumbered)
      {
        BoundaryLinks->sortRowsBy(run, Renumbered->order.order());
      }
    }
  }
  if (!pinned.empty())
  {
    DeviceBuffer<cl_uchar> flags = run.upload(pinned.data(), pinned.size(), "pinned vertices");
    if (Renumbered)
    {
      flags = Renumbered->order.gather(run, flags, "pinned vertices");
    }
    run.call({ "smoothing", "pin_vertices" }, points, "vertex roles", flags, static_cast<cl_int>(points), Roles);
  }
  // WindowedSinc follows vtkWindowedSincPolyDataFilter's boundary rule (points of boundary edges
  // move along them where the outline turns by at most edgeAngle) whether or not features are on;
  // without features, a closed manifold surface has no constraint edge to look for.
  const bool sinc = Options.method == SmoothingMethod::WindowedSinc;
  if (Options.featureEdgeSmoothing || (sinc && Options.boundary == SmoothingBoundary::Smooth && !closedManifold))
  {
    markFeatures(run, mesh, sides ? &*sides : nullptr);
  }
}

// The constraint edges of the surface and the roles they give (SmoothingOptions, and
// kernels/algorithms/smoothing_features.cl). `meshSides`: the mesh's sides, if already matched.
void VertexSmoother::markFeatures(DeviceRun& run, const DeviceMesh& mesh, const CellEntities* meshSides)
{
  const bool volume = hasVolumeCells(mesh);
  if (volume && (Options.boundary == SmoothingBoundary::Fixed || !Options.featureEdgeSmoothing))
  {
    return; // the boundary surface does not move, or (WindowedSinc's rule) has no boundary edges
  }
  std::optional<CellEntities> ownSides;
  if (!meshSides)
  {
    meshSides = &ownSides.emplace(run, mesh, EntityType::Sides);
  }
  std::unique_ptr<DeviceMesh> faces;
  if (volume)
  {
    faces = boundaryFaces(run, mesh, *meshSides);
    if (!faces)
    {
      return;
    }
  }
  const DeviceMesh& surface = volume ? *faces : mesh;
  std::optional<CellEntities> faceSides;
  const CellEntities& edges = volume ? faceSides.emplace(run, surface, EntityType::Sides) : *meshSides;
  if (edges.entityCount() == 0)
  {
    return;
  }
  // The faces' centroids serve the dihedral test only; without it, one placeholder.
  const Centroids centroids = Options.featureEdgeSmoothing
    ? computeCentroids(run, surface)
    : Centroids{ run.allocate<cl_int>(1, "no centroids"), run.allocateReal(4, "no centroids") };
  const std::size_t slots = edges.slotCount();
  constexpr double degrees = 3.14159265358979323846 / 180.0;
  const bool boundaryEdges = !volume && Options.boundary == SmoothingBoundary::Smooth;
  // Without the dihedral test no slot's cell is read (and the sides may have none).
  std::optional<DeviceBuffer<cl_int>> noSlotCells;
  const DeviceBuffer<cl_int>& slotCells =
    edges.slotCell().size() ? edges.slotCell() : noSlotCells.emplace(run.allocate<cl_int>(1, "no slot cells"));
  DeviceBuffer<cl_int> found = run.allocate<cl_int>(1, "feature edges");
  // Counted, then written: the pairs take the constraint edges' memory alone.
  const auto findPairs = [&](bool write, DeviceBuffer<cl_int2>& pairs) {
    run.fill(found, cl_int(0), "feature edges");
    if (edges.entityCells().size()) // each edge once, with its count of faces (no dihedral test)
    {
      run.call({ "smoothing_features", "outline_pairs" }, edges.entityCount(), "feature edges", edges.entityCells(),
        edges.entityVertices(), static_cast<cl_int>(edges.entityCount()), cl_int(boundaryEdges ? 1 : 0),
        cl_int(Options.nonManifoldSmoothing ? 0 : 1), cl_int(write ? 1 : 0), found, pairs);
    }
    else
    {
      run.call({ "smoothing_features", "feature_pairs" }, slots, "feature edges", edges.slotRun(),
        edges.sortedSlots(), slotCells, edges.slotEntity(), edges.entityVertices(), static_cast<cl_int>(slots),
        surface.points(), centroids.anchors, centroids.offsets, run.real(std::cos(Options.featureAngle * degrees)),
        cl_int(Options.featureEdgeSmoothing ? 1 : 0), cl_int(boundaryEdges ? 1 : 0),
        cl_int(Options.nonManifoldSmoothing ? 0 : 1), cl_int(write ? 1 : 0), found, pairs);
    }
    cl_int count = 0;
    run.download(found, &count, 1, "feature edges");
    return static_cast<std::size_t>(count);
  };
  DeviceBuffer<cl_int2> pairs = run.allocate<cl_int2>(1, "feature edges");
  const std::size_t constraintEdges = findPairs(false, pairs);
  if (constraintEdges == 0)
  {
    return; // no constraint edge: every role stays
  }
  pairs = run.allocate<cl_int2>(2 * constraintEdges, "feature edges");
  findPairs(true, pairs);
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  FeatureLinks.emplace(run, points, pairs, 2 * constraintEdges, Options.layout);
  if (Renumbered)
  {
    FeatureLinks->sortRowsBy(run, Renumbered->order.order());
  }
  run.call({ "smoothing_features", "classify_features" }, points, "feature edges", mesh.points(),
    FeatureLinks->entries(), FeatureLinks->rowStart(), FeatureLinks->degree(), static_cast<cl_int>(points),
    run.real(std::cos(Options.edgeAngle * degrees)), Roles);
}

// The links of the method (cells or neighbours of each vertex), the fixed part of every step,
// and the kernels a step launches.
void VertexSmoother::bindSteps(DeviceRun& run, const DeviceMesh& mesh, CellEntities* surfaceSides)
{
  const bool barycentric = Options.method == SmoothingMethod::Barycentric;
  std::optional<Centroids> inputBarycentres;
  CellSources cellSources;
  if (barycentric)
  {
    Links.emplace(vertexCells(run, mesh, Options.layout));
    if (Renumbered)
    {
      Links->sortRowsBy(run, Renumbered->oldCellIds);
    }
    // The input barycentres are part of the vertices' fixed parts, found once below.
    inputBarycentres.emplace(computeCentroids(run, mesh));
    cellSources.inputBarycentres = &*inputBarycentres;
    cellSources.cells = bindBarycentres(run, mesh);
    if (!cellSources.cells)
    {
      cellSources.barycentres = &Barycentres;
    }
  }
  else
  {
    std::optional<CellEntities> ownEdges;
    CellEntities& edges = surfaceSides ? *surfaceSides
                                       : ownEdges.emplace(run, mesh, EntityType::Edges, AccessPattern::Auto,
                                           SlotNeighbors::LeftOut);
    if (Options.nonManifoldSmoothing && Options.boundary != SmoothingBoundary::Free && !hasVolumeCells(mesh))
    {
      bindNonManifold(run, edges);
    }
    // The neighbour table reads only the edges' vertices, and those only for its pairs: the
    // edges' memory serves the table instead of fresh pages.
    Links.emplace(vertexNeighbors(run, mesh, std::move(edges), Options.layout));
    if (Renumbered)
    {
      Links->sortRowsBy(run, Renumbered->order.order());
    }
  }
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  SourceOffsets = run.allocateReal(4 * points, "source offsets");
  run.fillReal(SourceOffsets, 0.0, "source offsets");
  addRelaxLaunch(run, mesh, *Links, Roles, Interior, barycentric ? &cellSources : nullptr, SourceOffsets,
    Kernels->relax);
  if (BoundaryLinks)
  {
    addRelaxLaunch(run, mesh, *BoundaryLinks, Roles, OnBoundary, nullptr, SourceOffsets, Kernels->relax);
  }
  if (FeatureLinks)
  {
    addRelaxLaunch(run, mesh, *FeatureLinks, Roles, OnFeature, nullptr, SourceOffsets, Kernels->relax);
  }
  if (NonManifoldLinks)
  {
    addRelaxLaunch(
      run, mesh, *NonManifoldLinks, Roles, OnNonManifold, nullptr, SourceOffsets, Kernels->relax, &NonManifoldWeights);
  }
}

// The weighted rows of the non-manifold vertices of a surface (SmoothingOptions::
// nonManifoldSmoothing; kernels/algorithms/smoothing_non_manifold.cl): every neighbour once, with
// the faces of the edge to it as its weight.
void VertexSmoother::bindNonManifold(DeviceRun& run, const CellEntities& edges)
{
  const std::size_t slots = edges.slotCount();
  const auto points = static_cast<std::size_t>(Mesh.pointCount());
  DeviceBuffer<cl_int2> pairs = run.allocate<cl_int2>(std::max<std::size_t>(2 * slots, 1), "non-manifold links");
  run.call({ "smoothing_non_manifold", "non_manifold_pairs" }, slots, "non-manifold links", edges.slotEntity(),
    edges.entityVertices(), static_cast<cl_int>(slots), Roles, pairs);
  NonManifoldLinks.emplace(run, points, pairs, 2 * slots, Options.layout);
  if (Renumbered)
  {
    NonManifoldLinks->sortRowsBy(run, Renumbered->order.order());
  }
  const std::size_t entries = std::max<std::size_t>(NonManifoldLinks->entries().size(), 1);
  NonManifoldWeights = run.allocate<cl_int>(entries, "non-manifold weights");
  run.fill(NonManifoldWeights, cl_int(0), "non-manifold weights");
  run.call({ "smoothing_non_manifold", "non_manifold_weights" }, slots, "non-manifold links", edges.slotRun(),
    edges.sortedSlots(), edges.slotEntity(), edges.entityVertices(), static_cast<cl_int>(slots), Roles,
    NonManifoldLinks->entries(), NonManifoldLinks->rowStart(), NonManifoldLinks->degree(), NonManifoldWeights);
}

// Where barycentric smoothing finds the cells' states at each step: the group, when one
// fixed-size 2D kind fills the mesh and the gather computes each cell's state itself; else null,
// and a scatter kernel per group writes them to Barycentres.
const DeviceCellGroup* VertexSmoother::bindBarycentres(DeviceRun& run, const DeviceMesh& mesh)
{
  const DeviceCellGroup* sole = mesh.soleFixedSizeGroup();
  if (sole && cellDimension(sole->kind) == 2)
  {
    // H200, 10 steps: 30M triangles 0.615 ms per step against 0.872 for scatter + gather; 10M
    // tetrahedra (about 24 cells of 4 points per vertex) 0.518 against 0.364, so 3D cells keep
    // the scatter.
    return sole;
  }
  // The scatter half: one barycentre state per cell, written by its own work-item; the
  // displacements are the step argument.
  Barycentres = run.allocateReal(4 * static_cast<std::size_t>(mesh.cellCount()), "barycentres");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    Kernels->scatter.push_back(
      { run.bind({ "smoothing", "barycentre", cellKindOptions(group) }, 1, CellArgs{ group }, Barycentres),
        group.count, "barycentres" });
  }
  return nullptr;
}

// The guard's check, one launch per cell group, bound once: a step gives in and out.
void VertexSmoother::bindGuard(DeviceRun& run, const DeviceMesh& mesh)
{
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  Guarded = std::make_unique<Guard>();
  Guard& g = *Guarded;
  g.options = "-DMAX_HALVINGS=" + std::to_string(inversionGuardHalvings);
  g.flags = run.allocate<cl_int>(points, "inversion guard flags");
  run.fill(g.flags, cl_int(0), "inversion guard flags");
  g.offending = run.allocate<cl_int>(1, "inversion guard: offending cells");
  g.shortened = run.allocate<cl_uint>(1, "inversion guard: shortened moves");
  g.counted = run.allocate<cl_uchar>(points, "inversion guard: counted points");
  run.fill(g.counted, cl_uchar(1), "inversion guard: counted points");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    int shape = 0; // GUARD_POLYGON: every 2D kind
    switch (group.kind)
    {
      case CellKind::Tetra:
        shape = 1;
        break;
      case CellKind::Hexahedron:
        shape = 2;
        break;
      case CellKind::Wedge:
        shape = 3;
        break;
      case CellKind::Pyramid:
        shape = 4;
        break;
      default:
        break;
    }
    const std::string options = g.options + " -DGUARD_SHAPE=" + std::to_string(shape) + " " + cellKindOptions(group);
    g.checks.push_back({ run.bind({ "smoothing_guard", "guard_check", options }, 2, CellArgs{ group }, mesh.points(),
                           run.real(Options.minimumVolumeFraction), g.flags, g.offending),
      group.count, "inversion guard" });
  }
}

void VertexSmoother::distribute(DeviceRun& run, SmoothingCollectives collectives)
{
  Collectives = std::move(collectives);
  if (!Guarded || Collectives.owned.empty())
  {
    return;
  }
  const auto points = static_cast<std::size_t>(Mesh.pointCount());
  if (Collectives.owned.size() != points)
  {
    throw Error("the owned-point flags have " + std::to_string(Collectives.owned.size()) + " entries for " +
      std::to_string(points) + " points");
  }
  DeviceBuffer<cl_uchar> owned = run.upload(Collectives.owned.data(), points, "owned points");
  Guarded->counted = Renumbered ? Renumbered->order.gather(run, owned, "owned points") : std::move(owned);
}

// The exchange of the collectives, which sees the state in the mesh's numbering.
void VertexSmoother::exchange(DeviceRun& run, RealBuffer& state)
{
  if (!Collectives.exchange)
  {
    return;
  }
  if (Renumbered)
  {
    Renumbered->order.scatter4(run, state, MeshOrderState);
    Collectives.exchange(run, MeshOrderState);
    Renumbered->order.gather4(run, MeshOrderState, state);
    return;
  }
  Collectives.exchange(run, state);
}

// Rounds of check and shorten until no cell fails (smoothing_guard.cl), then the guarded moves
// become the step's. Distributed, the proposals and each round's halvings are exchanged first,
// so that every cell is checked with its owners' values, and the processes agree on each round.
void VertexSmoother::guardStep(DeviceRun& run, const RealBuffer& in, RealBuffer& out)
{
  Guard& g = *Guarded;
  const auto points = static_cast<std::size_t>((Renumbered ? *Renumbered->mesh : Mesh).pointCount());
  exchange(run, out);
  bool shortened = false;
  for (;;)
  {
    run.fill(g.offending, cl_int(0), "inversion guard");
    for (auto& launch : g.checks)
    {
      run.call(launch.kernel, launch.range, launch.label, in, out);
    }
    cl_int offending = 0;
    run.download(g.offending, &offending, 1, "inversion guard");
    const bool any = Collectives.anyProcess ? Collectives.anyProcess(offending != 0) : offending != 0;
    if (!any)
    {
      break;
    }
    run.call({ "smoothing_guard", "guard_shorten", g.options }, points, "inversion guard", out, g.flags,
      static_cast<cl_int>(points));
    exchange(run, out);
    shortened = true;
    ++GuardRounds;
  }
  if (!shortened)
  {
    return;
  }
  run.fill(g.shortened, cl_uint(0), "inversion guard");
  run.call({ "smoothing_guard", "guard_apply", g.options }, points, "inversion guard", in, out,
    static_cast<cl_int>(points), g.counted, g.shortened);
  cl_uint count = 0;
  run.download(g.shortened, &count, 1, "inversion guard");
  ShortenedMoves += count;
}

VertexSmoother::~VertexSmoother() = default;

const VertexOrder* VertexSmoother::order() const
{
  return Renumbered ? &Renumbered->order : nullptr;
}

void VertexSmoother::step(DeviceRun& run, const RealBuffer& in, RealBuffer& out, double factor)
{
  for (auto& launch : Kernels->scatter)
  {
    run.call(launch.kernel, launch.range, launch.label, in);
  }
  for (auto& launch : Kernels->relax)
  {
    run.call(launch.kernel, launch.range, launch.label, in, out, run.real(factor));
  }
  if (Guarded)
  {
    guardStep(run, in, out);
  }
}

const RealBuffer& VertexSmoother::smooth(DeviceRun& run, const SmoothingStepObserver& observer)
{
  return iterate(run, observer ? &observer : nullptr, nullptr);
}

const RealBuffer& VertexSmoother::smooth(DeviceRun& run, const SmoothingProgress& progress)
{
  return iterate(run, nullptr, progress ? &progress : nullptr);
}

const RealBuffer& VertexSmoother::iterate(
  DeviceRun& run, const SmoothingStepObserver* observer, const SmoothingProgress* progress)
{
  // Both buffers start from zero displacement: a vertex that no step writes (pinned, or in
  // no cell) then keeps its position in whichever buffer ends up with the result.
  run.fillReal(Ping, 0.0, "displacements");
  run.fillReal(Pong, 0.0, "displacements");
  ShortenedMoves = 0;
  GuardRounds = 0;
  const double lambda = Options.relaxationFactor;
  const double mu = Options.mu();
  const bool taubin = Options.method == SmoothingMethod::Taubin;
  const bool sinc = Options.method == SmoothingMethod::WindowedSinc;
  const int steps = Options.iterations * (taubin ? 2 : 1);
  // WindowedSinc: D_k, the states' displacements, D_0 = 0, D_1 = a Laplacian step of 1/2 from
  // it, D_k = relax_1(D_{k-1}) + D_{k-1} - D_{k-2} (the Chebyshev recurrence), and the sum of
  // c_k D_k (windowed_sinc_step, kernels/algorithms/smoothing.cl).
  std::vector<double> coefficients;
  RealBuffer* older = &Older;
  if (sinc)
  {
    coefficients = windowedSincCoefficients(Options.iterations, Options.passBand);
    run.fillReal(Older, 0.0, "windowed sinc states");
    run.fillReal(Sum, 0.0, "windowed sinc sum");
  }
  const auto points = static_cast<std::size_t>((Renumbered ? *Renumbered->mesh : Mesh).pointCount());
  RealBuffer* current = &Ping;
  RealBuffer* next = &Pong;
  for (int s = 1; s <= steps; ++s)
  {
    step(run, *current, *next, sinc ? (s == 1 ? 0.5 : 1.0) : taubin && s % 2 == 0 ? mu : lambda);
    if (sinc)
    {
      run.call({ "smoothing", "windowed_sinc_step" }, points, "windowed sinc", *next, *current, *older,
        cl_int(s > 1), run.real(coefficients[static_cast<std::size_t>(s)]), static_cast<cl_int>(points), Sum);
      std::swap(older, current); // older <- D_{k-1}; current <- D_{k-2}, next's buffer below
    }
    std::swap(current, next);
    bool goOn = true;
    if (observer && Renumbered)
    {
      // The observer sees, and may change, the state in the mesh's numbering.
      Renumbered->order.scatter4(run, *current, MeshOrderState);
      goOn = (*observer)(run, MeshOrderState, s, steps);
      Renumbered->order.gather4(run, MeshOrderState, *current);
    }
    else if (observer)
    {
      goOn = (*observer)(run, *current, s, steps);
    }
    if (progress && !(*progress)(s, steps))
    {
      goOn = false;
    }
    if (!goOn)
    {
      break;
    }
  }
  RealBuffer& result = sinc ? windowedSincResult(run) : *current;
  if (!Renumbered)
  {
    return result;
  }
  Renumbered->order.scatter4(run, result, MeshOrderState);
  return MeshOrderState;
}

// Every point's displacement: the weighted sum of its states' displacements plus (gain - 1)
// times its position about windowedSincCentre, gain the sum of the coefficients. Distributed,
// the sums of the points other processes own are theirs (exchanged). Written over Older.
RealBuffer& VertexSmoother::windowedSincResult(DeviceRun& run)
{
  const DeviceMesh& mesh = Renumbered ? *Renumbered->mesh : Mesh;
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  double gain = 0.0;
  for (double c : windowedSincCoefficients(Options.iterations, Options.passBand))
  {
    gain += c;
  }
  exchange(run, Sum);
  // Device coordinates are relative to the mesh origin: the position about the centre is
  // point + (origin - centre).
  const auto& origin = mesh.origin();
  const auto& centre = Options.windowedSincCentre;
  run.call({ "smoothing", "windowed_sinc_result" }, points, "windowed sinc", mesh.points(), Sum,
    run.real(gain - 1.0), run.real(origin[0] - centre[0]), run.real(origin[1] - centre[1]),
    run.real(origin[2] - centre[2]), static_cast<cl_int>(points), Older);
  return Older;
}

VertexSmoother::Result VertexSmoother::movedPoints(DeviceRun& run, const RealBuffer& displacement) const
{
  const auto points = static_cast<std::size_t>(Mesh.pointCount());
  Result result{ run.allocateReal(3 * points, "smoothed points"), run.allocateReal(3 * points, "displacement") };
  run.call({ "smoothing", "moved_points" }, points, "moved points", Mesh.points(), displacement,
    static_cast<cl_int>(points), result.points, result.displacement);
  return result;
}

VertexSmoother::Result VertexSmoother::finalMovedPoints(DeviceRun& run, const RealBuffer& displacement)
{
  run.finish(); // buffers let go of while kernels still use them would be freed only later
  for (RealBuffer* state : { &Ping, &Pong, &Older, &Sum, &MeshOrderState, &SourceOffsets, &Barycentres })
  {
    if (state != &displacement)
      state->release();
  }
  Links.reset();
  BoundaryLinks.reset();
  FeatureLinks.reset();
  NonManifoldLinks.reset();
  NonManifoldWeights.release();
  Guarded.reset();
  Kernels.reset(); // bound launches hold their buffers
  return movedPoints(run, displacement);
}

std::vector<double> smoothVertices(DeviceRun& run, const MeshView& view, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned, const SmoothingStepObserver& observer)
{
  options.validate();
  const DeviceMesh mesh(run, view, 2);
  VertexSmoother smoother(run, mesh, options, pinned);
  const VertexSmoother::Result moved = smoother.finalMovedPoints(run, smoother.smooth(run, observer));
  // Input + displacement, added in double: points that do not move come back bit for bit.
  std::vector<double> points(3 * static_cast<std::size_t>(mesh.pointCount()));
  run.download(moved.displacement, points.data(), points.size(), "displacement");
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i] += view.points.isDouble ? static_cast<const double*>(view.points.xyz)[i]
                                      : static_cast<const float*>(view.points.xyz)[i];
  return points;
}

} // namespace gpumesh
