#include "gpumesh/algorithms/Decimation.h"

#include "gpumesh/primitives/Scan.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/VertexLinks.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>

namespace gpumesh
{

namespace
{
const char* program = "decimation";

// Per-vertex and per-edge values of the quadric precision (double where the device has fp64).
struct QuadricType
{
  bool isDouble;
  std::size_t size() const { return isDouble ? sizeof(double) : sizeof(float); }
  std::string options() const { return isDouble ? "-DQUADRIC_DOUBLE=1" : "-DQUADRIC_DOUBLE=0"; }
};

// The topology of one round's triangles: unique edges with their runs of triangles, and vertex
// balls (neighbours are read from the balls). Only the connectivity is read, so the mesh carries no points.
struct RoundTopology
{
  RoundTopology(DeviceRun& run, const DeviceMesh& mesh)
    : edges(run, mesh, EntityType::Edges, AccessPattern::Auto, SlotNeighbors::LeftOut)
    , ball(vertexCells(run, mesh))
  {
  }
  CellEntities edges;
  VertexTable ball;
};

constexpr double degrees = 3.14159265358979323846 / 180.0;

// The kernel calls a round shares with firstRoundEdges (the same arguments in both).
void callVertexClasses(DeviceRun& run, const std::string& qoptions, const DeviceBuffer<cl_int>& tri,
  const RealBuffer& points, const RoundTopology& topology, const DeviceBuffer<cl_uchar>& frozen, cl_int hasFrozen,
  const DecimationOptions& options, std::size_t vertices, DeviceBuffer<cl_uchar>& vertexClass,
  DeviceBuffer<cl_uchar>& onBoundary, DeviceBuffer<cl_int>& neighbourCount)
{
  const auto cosFeature = run.real(std::cos(options.featureAngle * degrees));
  run.call({ program, "vertex_classes", qoptions }, vertices, "vertex classes", tri, points, topology.ball.entries(),
    topology.ball.rowStart(), topology.ball.degree(), topology.edges.slotRun(), topology.edges.sortedSlots(), frozen,
    hasFrozen, cl_int(options.preserveBoundary), cl_int(options.preserveFeatures), cosFeature,
    static_cast<cl_int>(vertices), vertexClass, onBoundary, neighbourCount);
}

void callEdgeCosts(DeviceRun& run, const QuadricType& qtype, const DeviceBuffer<cl_int>& tri, const RealBuffer& points,
  const RoundTopology& topology, const DeviceBuffer<cl_int2>& edgeRun, const DeviceBuffer<cl_uchar>& vertexClass,
  const DeviceBuffer<cl_uchar>& quadrics, const DecimationOptions& options, DeviceBuffer<cl_uchar>& cost,
  RealBuffer& targets, DeviceBuffer<cl_int>& survivor)
{
  const CellEntities& edges = topology.edges;
  const auto edgeCount = static_cast<cl_int>(edges.entityCount());
  const auto cosFeature = run.real(std::cos(options.featureAngle * degrees));
  const cl_int preserveBoundary = options.preserveBoundary, preserveFeatures = options.preserveFeatures;
  const double maxError = options.maximumError;
  if (qtype.isDouble)
  {
    run.call({ program, "edge_costs", qtype.options() }, edges.entityCount(), "edge costs", tri, points,
      edges.entityVertices(), edgeRun, edges.sortedSlots(), vertexClass, quadrics, preserveBoundary, preserveFeatures,
      cosFeature, cl_double(maxError), edgeCount, cost, targets, survivor);
  }
  else
  {
    const float maxFloat = maxError > std::numeric_limits<float>::max() ? std::numeric_limits<float>::max()
                                                                        : static_cast<float>(maxError);
    run.call({ program, "edge_costs", qtype.options() }, edges.entityCount(), "edge costs", tri, points,
      edges.entityVertices(), edgeRun, edges.sortedSlots(), vertexClass, quadrics, preserveBoundary, preserveFeatures,
      cosFeature, cl_float(maxFloat), edgeCount, cost, targets, survivor);
  }
}

void callEdgeChecks(DeviceRun& run, const std::string& qoptions, const DeviceBuffer<cl_int>& tri,
  const RealBuffer& points, const RoundTopology& topology, const DeviceBuffer<cl_int2>& edgeRun,
  const DeviceBuffer<cl_uchar>& onBoundary, const DeviceBuffer<cl_int>& neighbourCount, const RealBuffer& targets,
  const DecimationOptions& options, DeviceBuffer<cl_int>& survivor)
{
  const CellEntities& edges = topology.edges;
  const VertexTable& ball = topology.ball;
  const auto cosNormal = run.real(std::cos(options.maximumNormalChange * degrees));
  run.call({ program, "edge_checks", qoptions }, edges.entityCount(), "edge checks", tri, points,
    edges.entityVertices(), edgeRun, ball.entries(), ball.rowStart(), ball.degree(), edges.slotRun(), onBoundary,
    neighbourCount, targets, cl_int(options.preserveTopology), cosNormal, static_cast<cl_int>(edges.entityCount()),
    survivor);
}

// Widens a buffer of QREAL values to double on the host.
std::vector<double> downloadQuadricReals(
  DeviceRun& run, const QuadricType& qtype, const DeviceBuffer<cl_uchar>& buffer, std::size_t count)
{
  std::vector<unsigned char> bytes(count * qtype.size());
  if (count > 0)
    run.download(buffer, bytes.data(), bytes.size(), "quadric values");
  std::vector<double> result(count);
  for (std::size_t i = 0; i < count; ++i)
  {
    if (qtype.isDouble)
      std::memcpy(&result[i], bytes.data() + i * sizeof(double), sizeof(double));
    else
    {
      float f;
      std::memcpy(&f, bytes.data() + i * sizeof(float), sizeof f);
      result[i] = f;
    }
  }
  return result;
}

// tie_order of kernels/algorithms/decimation.cl: the order of edges of equal cost.
cl_uint tieOrder(std::size_t e)
{
  auto x = static_cast<cl_uint>(e);
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}

} // namespace

DecimatedSurface decimateTriangles(DeviceRun& run, const DeviceMesh& mesh, const DecimationOptions& options)
{
  DecimatedSurface result;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (group.kind != CellKind::Triangle)
    {
      throw Error(std::string("decimation takes triangles only, not ") + cellKindName(group.kind) + "s");
    }
  }
  if (mesh.groups().size() > 1)
  {
    throw Error("decimation takes one group of triangles, not " + std::to_string(mesh.groups().size()));
  }
  auto vertices = static_cast<std::size_t>(mesh.pointCount());
  if (!options.frozen.empty() && options.frozen.size() != vertices)
  {
    throw Error("the frozen point mask has " + std::to_string(options.frozen.size()) + " values for " +
      std::to_string(vertices) + " points");
  }
  const QuadricType qtype{ run.info().hasDoublePrecision };
  const std::string qoptions = qtype.options();
  const DeviceCellGroup* group = mesh.groups().empty() ? nullptr : &mesh.groups().front();
  std::size_t triangles = group ? group->count : 0;
  result.trianglesIn = triangles;
  const auto cint = [](std::size_t n) { return static_cast<cl_int>(n); };
  if (triangles == 0 || vertices == 0)
  {
    result.reachedTarget = true;
    return result;
  }

  // Working copies: the points move, the connectivity shrinks; parent = the mesh's cell ids.
  RealBuffer points = run.allocateReal(std::max<std::size_t>(3 * vertices, 1), "decimation points");
  if (vertices > 0)
    run.copyReal(mesh.points(), points, 3 * vertices, "decimation points");
  DeviceBuffer<cl_int> connectivity = run.allocate<cl_int>(std::max<std::size_t>(3 * triangles, 1), "decimation triangles");
  DeviceBuffer<cl_int> parent = run.allocate<cl_int>(std::max<std::size_t>(triangles, 1), "decimation parents");
  if (triangles > 0)
  {
    run.copy(group->connectivity, connectivity, 3 * triangles, "decimation triangles");
    run.copy(group->cellIds, parent, triangles, "decimation parents");
  }

  // Bad input: repeated points and zero areas, the first of each named.
  {
    DeviceRun::ScopedLabel label(run, "decimation input checks");
    if (triangles > 0)
    {
      const cl_int none = std::numeric_limits<cl_int>::max();
      const cl_int initial[2] = { none, none };
      DeviceBuffer<cl_int> firstBad = run.upload(initial, 2, "first bad triangle");
      run.call({ program, "check_triangles", qoptions }, triangles, "check triangles", connectivity, cint(triangles),
        points, firstBad);
      cl_int bad[2];
      run.download(firstBad, bad, 2, "first bad triangle");
      std::vector<cl_int> cellIds(triangles);
      const auto cellOf = [&](cl_int t) {
        cl_int id = 0;
        run.download(parent, cellIds.data(), triangles, "cell ids");
        id = cellIds[static_cast<std::size_t>(t)];
        return std::to_string(id);
      };
      if (bad[0] != none)
        throw Error("Triangle " + cellOf(bad[0]) + " repeats a point: decimation needs three distinct points per triangle");
      if (bad[1] != none)
        throw Error("Triangle " + cellOf(bad[1]) + " has zero area: decimation needs non-degenerate triangles");
    }
  }

  DeviceBuffer<cl_uchar> frozen;
  if (!options.frozen.empty())
    frozen = run.upload(options.frozen.data(), options.frozen.size(), "frozen points");
  else
    frozen = run.allocate<cl_uchar>(1, "no frozen points");
  const cl_int hasFrozen = !options.frozen.empty();
  const std::size_t vcount = std::max<std::size_t>(vertices, 1);
  DeviceBuffer<cl_uchar> quadrics = run.allocate<cl_uchar>(10 * vcount * qtype.size(), "quadrics");
  DeviceBuffer<cl_int> remap = run.allocate<cl_int>(vcount, "collapse map");
  DeviceBuffer<cl_int> partner = run.allocate<cl_int>(vcount, "collapse partners");
  run.fill(partner, cl_int(-1), "collapse partners");
  DeviceBuffer<cl_int> inputId = run.allocate<cl_int>(vcount, "input point ids");
  run.call({ "sequence", "iota" }, vertices, "input point ids", cl_int(0), cint(vertices), inputId);

  // The vertices still used, compacted with what they carry, and the triangles renumbered: every
  // per-vertex step of the next round (and the topology) spans the live vertices only.
  const auto compactVertices = [&]() {
    DeviceRun::ScopedLabel label(run, "decimation compaction");
    DeviceBuffer<cl_uint> used = run.allocate<cl_uint>(vertices, "used points");
    run.fill(used, cl_uint(0), "used points");
    if (triangles > 0)
      run.call({ program, "mark_used", qoptions }, triangles, "mark used points", connectivity, cint(triangles), used);
    DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(vertices + 1, "point places");
    const auto kept = static_cast<std::size_t>(exclusiveScan(run, used, vertices, places, "used points"));
    const std::size_t room = std::max<std::size_t>(kept, 1);
    RealBuffer keptPoints = run.allocateReal(3 * room, "decimation points");
    DeviceBuffer<cl_uchar> keptQuadrics = run.allocate<cl_uchar>(10 * room * qtype.size(), "quadrics");
    DeviceBuffer<cl_int> keptInputId = run.allocate<cl_int>(room, "input point ids");
    DeviceBuffer<cl_int> keptPartner = run.allocate<cl_int>(room, "collapse partners");
    DeviceBuffer<cl_uchar> keptFrozen = run.allocate<cl_uchar>(hasFrozen ? room : 1, "frozen points");
    run.call({ program, "compact_vertices", qoptions }, vertices, "compact vertices", points, quadrics, inputId, partner,
      frozen, hasFrozen, used, places, cint(vertices), keptPoints, keptQuadrics, keptInputId, keptPartner, keptFrozen);
    if (triangles > 0)
      run.call({ program, "renumber_triangles", qoptions }, 3 * triangles, "renumber triangles", connectivity,
        cint(3 * triangles), places);
    points = std::move(keptPoints);
    quadrics = std::move(keptQuadrics);
    inputId = std::move(keptInputId);
    partner = std::move(keptPartner);
    frozen = std::move(keptFrozen);
    vertices = kept;
  };
  DeviceBuffer<cl_uchar> vertexClass = run.allocate<cl_uchar>(vcount, "vertex classes");
  DeviceBuffer<cl_uchar> onBoundary = run.allocate<cl_uchar>(vcount, "boundary vertices");
  DeviceBuffer<cl_int> neighbourCount = run.allocate<cl_int>(vcount, "neighbour counts");
  DeviceBuffer<cl_int> cheapest = run.allocate<cl_int>(vcount, "cheapest edges");
  DeviceBuffer<cl_int> ringCheapest = run.allocate<cl_int>(vcount, "cheapest edges around");
  DeviceBuffer<cl_uchar> taken = run.allocate<cl_uchar>(vcount, "taken vertices");
  // Passes of selection per round: the second about doubles a round's collapses, the third adds
  // a little (47, 24, 21 rounds for 100k triangles to 10k).
  constexpr int selectionPasses = 3;
  // Candidates per bucket of cost (the top 16 bits of the cost as a float).
  DeviceBuffer<cl_uint> histogram = run.allocate<cl_uint>(1u << 16, "cost histogram");
  std::vector<cl_uint> hostHistogram(1u << 16);

  const std::size_t target = static_cast<std::size_t>(std::max<std::int64_t>(options.targetTriangles, 0));
  double largest = 0.0;

  while (triangles > target)
  {
    // 1. Topology of the current triangles.
    DeviceMesh current(run, RealBuffer(), vertices, CellKind::Triangle, std::move(connectivity), triangles,
      mesh.origin());
    const DeviceBuffer<cl_int>& tri = current.groups().front().connectivity;
    std::size_t edgeCount = 0;
    std::size_t removedTotal = 0;
    DeviceBuffer<cl_uint> removed;
    DeviceBuffer<cl_uchar> cost;
    DeviceBuffer<cl_int> survivor;
    RealBuffer targets;
    DeviceBuffer<cl_uint4> edgeVertices;
    {
      std::unique_ptr<RoundTopology> topology;
      {
        DeviceRun::ScopedLabel label(run, "decimation topology");
        topology = std::make_unique<RoundTopology>(run, current);
      }
      const CellEntities& edges = topology->edges;
      const VertexTable& ball = topology->ball;
      edgeCount = edges.entityCount();
      DeviceBuffer<cl_int2> edgeRun = run.allocate<cl_int2>(edgeCount, "edge runs");
      run.call({ program, "edge_runs", qoptions }, edges.slotCount(), "decimation topology", edges.slotRun(),
        edges.sortedSlots(), edges.slotEntity(), cint(edges.slotCount()), edgeRun);

      // 2. Quadrics (once: carried over the rounds) and vertex classes.
      if (result.rounds == 0)
      {
        DeviceRun::ScopedLabel label(run, "decimation quadrics");
        run.call({ program, "vertex_quadrics", qoptions }, vertices, "vertex quadrics", tri, points, ball.entries(),
          ball.rowStart(), ball.degree(), edges.slotRun(), cint(vertices), quadrics);
      }
      DeviceRun::ScopedLabel costLabel(run, "decimation costs");
      callVertexClasses(run, qoptions, tri, points, *topology, frozen, hasFrozen, options, vertices, vertexClass,
        onBoundary, neighbourCount);

      // Steps 3-5 again with 8 times the candidates when none of the cheapest passed its checks.
      std::size_t cheapestCount = std::max<std::size_t>(1, (triangles - target) / 2);
      for (;;)
      {
        // 3. Per edge: target and cost.
        DeviceRun::ScopedLabel stepLabel(run, "decimation costs");
        cost = run.allocate<cl_uchar>(edgeCount * qtype.size(), "edge costs");
        targets = run.allocateReal(3 * edgeCount, "edge targets");
        survivor = run.allocate<cl_int>(edgeCount, "edge survivors");
        callEdgeCosts(run, qtype, tri, points, *topology, edgeRun, vertexClass, quadrics, options, cost, targets, survivor);

        // 4. Only the candidates no dearer than the cheapest (still to remove) / 2 (2 triangles per
        // collapse away from a boundary) take part: the rounds follow the order of costs a
        // sequential decimation takes, which keeps collapses that cost much from racing ahead of
        // cheap ones elsewhere. Then their checks.
        DeviceRun::ScopedLabel selectLabel(run, "decimation selection");
        if (cheapestCount < edgeCount)
        {
          // The threshold: the first bucket of costs at which the candidates counted so far
          // reach cheapestCount.
          run.fill(histogram, cl_uint(0), "cost histogram");
          run.call({ program, "cost_histogram", qoptions }, edgeCount, "cost histogram", cost, survivor,
            cint(edgeCount), histogram);
          run.download(histogram, hostHistogram.data(), hostHistogram.size(), "cost histogram");
          cl_ulong threshold = hostHistogram.size() - 1;
          std::size_t counted = 0;
          for (std::size_t k = 0; k < hostHistogram.size(); ++k)
          {
            counted += hostHistogram[k];
            if (counted >= cheapestCount)
            {
              threshold = k;
              break;
            }
          }
          run.call({ program, "limit_candidates", qoptions }, edgeCount, "limit candidates", cost, threshold,
            cint(edgeCount), survivor);
        }
        {
          DeviceRun::ScopedLabel checkLabel(run, "decimation checks");
          callEdgeChecks(
            run, qoptions, tri, points, *topology, edgeRun, onBoundary, neighbourCount, targets, options, survivor);
        }

        // 5. The independent set: edges cheapest around both their ends; then, in further passes,
        // among the candidates away from the neighbourhoods already taken.
        DeviceBuffer<cl_uchar> candidate = run.allocate<cl_uchar>(edgeCount, "candidates");
        removed = run.allocate<cl_uint>(edgeCount, "removed triangles");
        run.call({ program, "start_candidates", qoptions }, edgeCount, "start candidates", survivor, cint(edgeCount),
          candidate, removed);
        for (int pass = 0; pass < selectionPasses; ++pass)
        {
          if (pass > 0)
          {
            run.fill(taken, cl_uchar(0), "taken vertices");
            run.call({ program, "take_neighbourhoods", qoptions }, edgeCount, "take neighbourhoods", tri,
              edges.entityVertices(), ball.entries(), ball.rowStart(), ball.degree(), removed, cint(edgeCount), taken);
            run.call({ program, "drop_taken", qoptions }, edgeCount, "drop taken", edges.entityVertices(), taken,
              cint(edgeCount), candidate);
          }
          run.call({ program, "vertex_minimum", qoptions }, vertices, "vertex minimum", tri, ball.entries(),
            ball.rowStart(), ball.degree(), edges.slotEntity(), cost, candidate, cint(vertices), cheapest);
          run.call({ program, "ring_minimum", qoptions }, vertices, "ring minimum", tri, ball.entries(), ball.rowStart(),
            ball.degree(), cost, cheapest, cint(vertices), ringCheapest);
          run.call({ program, "select_collapses", qoptions }, edgeCount, "select collapses", edges.entityVertices(),
            edgeRun, ringCheapest, cint(edgeCount), candidate, removed);
        }
        DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(edgeCount + 1, "removed places");
        removedTotal = static_cast<std::size_t>(exclusiveScan(run, removed, edgeCount, places, "selection"));
        if (removedTotal > 0 || cheapestCount >= edgeCount)
          break;
        cheapestCount *= 8;
      }
      edgeVertices = run.allocate<cl_uint4>(edgeCount, "edge vertices");
      run.copy(edges.entityVertices(), edgeVertices, edgeCount, "edge vertices");
    }
    connectivity = current.takeConnectivity();
    if (removedTotal == 0)
    {
      break; // no edge may collapse any more
    }
    // The last round: only the cheapest selected collapses, as many as the target needs.
    if (triangles - removedTotal < target)
    {
      std::vector<cl_uint> hostRemoved(edgeCount);
      run.download(removed, hostRemoved.data(), edgeCount, "removed triangles");
      std::vector<unsigned char> costBytes(edgeCount * qtype.size());
      run.download(cost, costBytes.data(), costBytes.size(), "edge costs");
      const auto costOf = [&](std::size_t e) {
        if (qtype.isDouble)
        {
          double c;
          std::memcpy(&c, costBytes.data() + e * sizeof(double), sizeof c);
          return c;
        }
        float c;
        std::memcpy(&c, costBytes.data() + e * sizeof(float), sizeof c);
        return static_cast<double>(c);
      };
      std::vector<std::size_t> selected;
      for (std::size_t e = 0; e < edgeCount; ++e)
        if (hostRemoved[e])
          selected.push_back(e);
      std::sort(selected.begin(), selected.end(), [&](std::size_t x, std::size_t y) {
        const double cx = costOf(x), cy = costOf(y);
        return cx < cy || (cx == cy && tieOrder(x) < tieOrder(y));
      });
      std::size_t left = triangles;
      removedTotal = 0;
      for (std::size_t e : selected)
      {
        if (left > target)
        {
          left -= hostRemoved[e];
          removedTotal += hostRemoved[e];
        }
        else
          hostRemoved[e] = 0;
      }
      removed = run.upload(hostRemoved.data(), edgeCount, "removed triangles");
    }

    // 5. Collapses applied, triangles remapped and compacted.
    {
      DeviceRun::ScopedLabel label(run, "decimation collapses");
      RealBuffer appliedCost = run.allocateReal(edgeCount, "applied costs");
      run.call({ "sequence", "iota" }, vertices, "collapse map", cl_int(0), cint(vertices), remap);
      run.call({ program, "apply_collapses", qoptions }, edgeCount, "apply collapses", edgeVertices, removed, survivor,
        targets, cost, cint(edgeCount), inputId, points, quadrics, remap, partner, appliedCost);
      // Enough work-items to stream the costs, few enough that their maxima download in microseconds.
      const std::size_t strides = std::min<std::size_t>(edgeCount, 65536);
      RealBuffer stridesLargest = run.allocateReal(strides, "largest applied costs");
      run.call({ program, "largest_applied", qoptions }, strides, "largest applied cost", appliedCost,
        cint(edgeCount), cint(strides), stridesLargest);
      std::vector<double> hostLargest(strides);
      run.download(stridesLargest, hostLargest.data(), strides, "largest applied costs");
      for (double value : hostLargest)
        largest = std::max(largest, value);
    }
    {
      DeviceRun::ScopedLabel label(run, "decimation compaction");
      DeviceBuffer<cl_uint> keep = run.allocate<cl_uint>(triangles, "kept triangles");
      run.call({ program, "remap_triangles", qoptions }, triangles, "remap triangles", connectivity, cint(triangles),
        remap, keep);
      DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(triangles + 1, "kept places");
      const auto kept = static_cast<std::size_t>(exclusiveScan(run, keep, triangles, places, "kept triangles"));
      if (kept != triangles - removedTotal)
      {
        throw Error("decimation removed " + std::to_string(triangles - kept) + " triangles where its collapses remove " +
          std::to_string(removedTotal));
      }
      DeviceBuffer<cl_int> outTriangles = run.allocate<cl_int>(std::max<std::size_t>(3 * kept, 1), "decimation triangles");
      DeviceBuffer<cl_int> outParent = run.allocate<cl_int>(std::max<std::size_t>(kept, 1), "decimation parents");
      run.call({ program, "compact_triangles", qoptions }, triangles, "compact triangles", connectivity, parent, keep,
        places, cint(triangles), outTriangles, outParent);
      connectivity = std::move(outTriangles);
      parent = std::move(outParent);
      triangles = kept;
    }
    compactVertices();
    ++result.rounds;
    if (options.afterRound && !options.afterRound(triangles))
    {
      throw Error("Decimation was stopped after " + std::to_string(result.rounds) + " rounds, at " +
        std::to_string(triangles) + " triangles");
    }
  }
  result.reachedTarget = triangles <= target;
  result.largestError = largest;

  // 6. The used points compacted (after no round, points the input does not use go), the
  // triangles renumbered, everything brought back.
  compactVertices();
  const std::size_t kept = vertices;
  result.triangles.resize(3 * triangles);
  result.cellParent.resize(triangles);
  result.points.resize(3 * kept);
  result.pointSource.resize(kept);
  result.pointPartner.resize(kept);
  if (triangles > 0)
  {
    run.download(connectivity, result.triangles.data(), 3 * triangles, "decimated triangles");
    run.download(parent, result.cellParent.data(), triangles, "decimated parents");
  }
  if (kept > 0)
  {
    run.download(points, result.points.data(), 3 * kept, "decimated points");
    run.download(inputId, result.pointSource.data(), kept, "point sources");
    run.download(partner, result.pointPartner.data(), kept, "point partners");
  }
  const auto& origin = mesh.origin();
  for (std::size_t i = 0; i < kept; ++i)
    for (int k = 0; k < 3; ++k)
      result.points[3 * i + k] += origin[k];
  return result;
}

std::vector<double> vertexQuadrics(DeviceRun& run, const DeviceMesh& mesh)
{
  const QuadricType qtype{ run.info().hasDoublePrecision };
  const auto vertices = static_cast<std::size_t>(mesh.pointCount());
  std::vector<double> result(10 * vertices);
  if (mesh.groups().empty() || vertices == 0)
    return result;
  const DeviceCellGroup& group = mesh.groups().front();
  if (mesh.groups().size() != 1 || group.kind != CellKind::Triangle)
    throw Error("vertex quadrics take triangles only");
  DeviceBuffer<cl_int> connectivity = run.allocate<cl_int>(3 * group.count, "decimation triangles");
  run.copy(group.connectivity, connectivity, 3 * group.count, "decimation triangles");
  DeviceMesh current(run, RealBuffer(), vertices, CellKind::Triangle, std::move(connectivity), group.count, mesh.origin());
  const RoundTopology topology(run, current);
  DeviceBuffer<cl_uchar> quadrics = run.allocate<cl_uchar>(10 * vertices * qtype.size(), "quadrics");
  run.call({ program, "vertex_quadrics", qtype.options() }, vertices, "vertex quadrics",
    current.groups().front().connectivity, mesh.points(), topology.ball.entries(), topology.ball.rowStart(),
    topology.ball.degree(), topology.edges.slotRun(), static_cast<cl_int>(vertices), quadrics);
  return downloadQuadricReals(run, qtype, quadrics, 10 * vertices);
}

DecimationRoundEdges firstRoundEdges(DeviceRun& run, const DeviceMesh& mesh, const DecimationOptions& options)
{
  const QuadricType qtype{ run.info().hasDoublePrecision };
  const std::string qoptions = qtype.options();
  const auto vertices = static_cast<std::size_t>(mesh.pointCount());
  DecimationRoundEdges result;
  if (mesh.groups().empty() || vertices == 0)
    return result;
  const DeviceCellGroup& group = mesh.groups().front();
  if (mesh.groups().size() != 1 || group.kind != CellKind::Triangle)
    throw Error("the first round's edges take triangles only");
  if (!options.frozen.empty() && options.frozen.size() != vertices)
    throw Error("the frozen point mask has " + std::to_string(options.frozen.size()) + " values for " +
      std::to_string(vertices) + " points");
  DeviceBuffer<cl_int> connectivity = run.allocate<cl_int>(3 * group.count, "decimation triangles");
  run.copy(group.connectivity, connectivity, 3 * group.count, "decimation triangles");
  DeviceMesh current(run, RealBuffer(), vertices, CellKind::Triangle, std::move(connectivity), group.count, mesh.origin());
  const DeviceBuffer<cl_int>& tri = current.groups().front().connectivity;
  const RoundTopology topology(run, current);
  const CellEntities& edges = topology.edges;
  const std::size_t edgeCount = edges.entityCount();
  DeviceBuffer<cl_int2> edgeRun = run.allocate<cl_int2>(edgeCount, "edge runs");
  run.call({ program, "edge_runs", qoptions }, edges.slotCount(), "decimation topology", edges.slotRun(),
    edges.sortedSlots(), edges.slotEntity(), static_cast<cl_int>(edges.slotCount()), edgeRun);
  DeviceBuffer<cl_uchar> quadrics = run.allocate<cl_uchar>(10 * vertices * qtype.size(), "quadrics");
  run.call({ program, "vertex_quadrics", qoptions }, vertices, "vertex quadrics", tri, mesh.points(),
    topology.ball.entries(), topology.ball.rowStart(), topology.ball.degree(), edges.slotRun(),
    static_cast<cl_int>(vertices), quadrics);
  DeviceBuffer<cl_uchar> frozen = options.frozen.empty()
    ? run.allocate<cl_uchar>(1, "no frozen points")
    : run.upload(options.frozen.data(), options.frozen.size(), "frozen points");
  DeviceBuffer<cl_uchar> vertexClass = run.allocate<cl_uchar>(vertices, "vertex classes");
  DeviceBuffer<cl_uchar> onBoundary = run.allocate<cl_uchar>(vertices, "boundary vertices");
  DeviceBuffer<cl_int> neighbourCount = run.allocate<cl_int>(vertices, "neighbour counts");
  callVertexClasses(run, qoptions, tri, mesh.points(), topology, frozen, cl_int(!options.frozen.empty()), options,
    vertices, vertexClass, onBoundary, neighbourCount);
  DeviceBuffer<cl_uchar> cost = run.allocate<cl_uchar>(edgeCount * qtype.size(), "edge costs");
  RealBuffer targets = run.allocateReal(3 * edgeCount, "edge targets");
  DeviceBuffer<cl_int> survivor = run.allocate<cl_int>(edgeCount, "edge survivors");
  callEdgeCosts(run, qtype, tri, mesh.points(), topology, edgeRun, vertexClass, quadrics, options, cost, targets,
    survivor);
  result.survivor.resize(edgeCount);
  run.download(survivor, result.survivor.data(), edgeCount, "edge survivors");
  callEdgeChecks(run, qoptions, tri, mesh.points(), topology, edgeRun, onBoundary, neighbourCount, targets, options,
    survivor);
  result.checked.resize(edgeCount);
  run.download(survivor, result.checked.data(), edgeCount, "checked edges");

  std::vector<cl_uint4> ends(edgeCount);
  run.download(edges.entityVertices(), ends.data(), edgeCount, "edge vertices");
  for (const cl_uint4& e : ends)
    result.edgeEnds.insert(result.edgeEnds.end(), { e.s[0], e.s[1] });
  result.quadrics = downloadQuadricReals(run, qtype, quadrics, 10 * vertices);
  result.cost = downloadQuadricReals(run, qtype, cost, edgeCount);
  result.target.resize(3 * edgeCount);
  run.download(targets, result.target.data(), 3 * edgeCount, "edge targets");
  result.vertexClass.resize(vertices);
  run.download(vertexClass, result.vertexClass.data(), vertices, "vertex classes");
  return result;
}

} // namespace gpumesh
