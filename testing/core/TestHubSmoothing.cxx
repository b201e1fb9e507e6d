// Smoothing around a vertex of high degree: rows above the vertex table's long-row threshold
// are listed once when the table is built and summed by a work-group each (relax_long in
// kernels/algorithms/smoothing.cl), in another order than one work-item's walk, so they are
// checked against the double reference of SmoothingReference.h.
#include "MeshGenerators.h"
#include "SmoothingReference.h"
#include "TestMesh.h"

#include "gpumesh/algorithms/Smoothing.h"
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/VertexLinks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

using namespace gpumesh;
using reference::Mesh;

namespace
{
const unsigned threshold = VertexTableLayout{}.longRow;

// A disc of `rim` triangles around one off-centre hub (point 0): `rim` neighbours and cells.
Mesh fan(int rim)
{
  Mesh mesh;
  mesh.xyz = { 0.3, 0.2, 0.1 };
  const double pi = std::acos(-1.0);
  for (int k = 0; k < rim; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { std::cos(2 * pi * k / rim), std::sin(2 * pi * k / rim), 0.05 * (k % 3) });
  for (int k = 0; k < rim; ++k)
    mesh.cells.push_back({ CellKind::Triangle, { 0, 1 + k, 1 + (k + 1) % rim } });
  return mesh;
}

// A cone of `rim` tetrahedra (hub, rim k, rim k + 1, apex): every point is on the boundary; the
// hub (point 0) and the apex (point 1) have `rim` cells, `rim` + 1 neighbours and `rim`
// boundary neighbours.
Mesh cone(int rim)
{
  Mesh mesh;
  mesh.xyz = { 0.3, 0.2, 0.0, -0.1, 0.1, 1.0 };
  const double pi = std::acos(-1.0);
  for (int k = 0; k < rim; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { std::cos(2 * pi * k / rim), std::sin(2 * pi * k / rim), 0.05 * (k % 3) });
  for (int k = 0; k < rim; ++k)
    mesh.cells.push_back({ CellKind::Tetra, { 0, 2 + k, 2 + (k + 1) % rim, 1 } });
  return mesh;
}

double size(const Mesh& mesh)
{
  double sum = 0.0;
  for (int k = 0; k < 3; ++k)
  {
    double lower = mesh.xyz[k], upper = mesh.xyz[k];
    for (std::size_t p = 0; p < mesh.points(); ++p)
    {
      lower = std::min(lower, mesh.xyz[3 * p + k]);
      upper = std::max(upper, mesh.xyz[3 * p + k]);
    }
    sum += (upper - lower) * (upper - lower);
  }
  return std::sqrt(sum);
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b)
{
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

SmoothingOptions with(SmoothingMethod method, SmoothingBoundary boundary, int iterations = 3)
{
  SmoothingOptions options;
  options.method = method;
  options.boundary = boundary;
  options.iterations = iterations;
  return options;
}

std::vector<double> smoothOnDevice(const Mesh& mesh, const SmoothingOptions& options, Precision precision)
{
  DeviceRun run(DeviceContext::acquire("auto"), precision);
  return smoothVertices(run, reference::toHost(mesh), options);
}

// Within the tolerances of TestSmoothing.cxx: 1e-5 of the mesh size in Single, 1e-12 in
// Double; and the reference must have moved the mesh.
void expectSmoothingMatches(const Mesh& mesh, const SmoothingOptions& options)
{
  const std::vector<double> expected = reference::smooth(mesh, options);
  const double scale = size(mesh);
  EXPECT_GT(maxDifference(expected, mesh.xyz), 1e-3 * scale) << "the reference did not move";
  EXPECT_LE(maxDifference(smoothOnDevice(mesh, options, Precision::Single), expected), 1e-5 * scale);
  EXPECT_LE(maxDifference(smoothOnDevice(mesh, options, Precision::Double), expected), 1e-12 * scale);
}

const SmoothingMethod methods[] = { SmoothingMethod::Laplacian, SmoothingMethod::Taubin, SmoothingMethod::Barycentric };

unsigned relaxLongLaunches(DeviceRun& run)
{
  unsigned launches = 0;
  for (const CommandTiming& timing : run.timings())
    if (timing.label == "relax long rows")
      launches += timing.count;
  return launches;
}
} // namespace

TEST(HubSmoothing, TablesListTheRowsAboveTheThreshold)
{
  ASSERT_EQ(threshold, 256u);
  const struct
  {
    Mesh mesh;
    std::size_t neighborRows, cellRows, boundaryRows;
  } cases[] = { { fan(16384), 1, 1, 0 }, { fan(threshold + 1), 1, 1, 0 }, { fan(threshold), 0, 0, 0 },
    { cone(threshold), 2, 0, 0 }, { cone(threshold + 1), 2, 2, 2 } };
  for (const auto& c : cases)
  {
    SCOPED_TRACE(testing::Message() << c.mesh.points() << " points");
    DeviceRun run(DeviceContext::acquire("auto"));
    const HostMesh host = reference::toHost(c.mesh);
    const DeviceMesh mesh(run, host, 2);
    const CellEntities edges(run, mesh, EntityType::Edges);
    const CellEntities sides(run, mesh, EntityType::Sides);
    const VertexTable neighbors = vertexNeighbors(run, mesh, edges);
    const VertexTable cells = vertexCells(run, mesh);
    const VertexTable boundary = boundaryNeighbors(run, mesh, sides);
    EXPECT_EQ(neighbors.longRowCount(), c.neighborRows);
    EXPECT_EQ(cells.longRowCount(), c.cellRows);
    EXPECT_EQ(boundary.longRowCount(), c.boundaryRows);
    EXPECT_EQ(neighbors.longRowThreshold(), threshold);
    // The hub first, then the apex: ascending vertex ids.
    std::vector<cl_int> listed(neighbors.longRowCount());
    run.download(neighbors.longRows(), listed.data(), listed.size(), "long rows");
    const std::vector<cl_int> hubThenApex = { 0, 1 };
    EXPECT_EQ(listed, std::vector<cl_int>(hubThenApex.begin(), hubThenApex.begin() + static_cast<long>(listed.size())));
  }
  // Threshold 0: every vertex of a cell has a long row.
  DeviceRun run(DeviceContext::acquire("auto"));
  const HostMesh host = reference::toHost(fan(10));
  const DeviceMesh mesh(run, host, 2);
  VertexTableLayout everyRow;
  everyRow.longRow = 0;
  EXPECT_EQ(vertexCells(run, mesh, everyRow).longRowCount(), 11u);
}

// The long-row path is used, once per step, exactly where a row is long: a return to one
// work-item per row shows here.
TEST(HubSmoothing, LongRowsTakeTheirOwnLaunch)
{
  for (int rim : { 16384, int(threshold) + 1, int(threshold) })
    for (SmoothingMethod method : methods)
    {
      SCOPED_TRACE(testing::Message() << "rim " << rim << ", method " << int(method));
      DeviceRun run(DeviceContext::acquire("auto"));
      const SmoothingOptions options = with(method, SmoothingBoundary::Fixed, 4);
      smoothVertices(run, reference::toHost(fan(rim)), options);
      const unsigned steps = method == SmoothingMethod::Taubin ? 8 : 4;
      EXPECT_EQ(relaxLongLaunches(run), rim > int(threshold) ? steps : 0u);
    }
}

TEST(HubSmoothing, FanHubsAroundTheThresholdMatchDoubleReference)
{
  for (int rim : { 16384, int(threshold) + 1, int(threshold) })
    for (SmoothingMethod method : methods)
      for (SmoothingBoundary boundary : { SmoothingBoundary::Fixed, SmoothingBoundary::Free, SmoothingBoundary::Smooth })
      {
        SCOPED_TRACE(testing::Message() << "rim " << rim << ", method " << int(method) << ", boundary "
                                        << int(boundary));
        expectSmoothingMatches(fan(rim), with(method, boundary));
      }
}

// Volumes, and long rows of boundary neighbours (Smooth): a cone's hub and apex.
TEST(HubSmoothing, ConeOfTetrahedraMatchesDoubleReference)
{
  for (int rim : { 4096, int(threshold) + 1 })
    for (SmoothingMethod method : methods)
      for (SmoothingBoundary boundary : { SmoothingBoundary::Free, SmoothingBoundary::Smooth })
      {
        SCOPED_TRACE(testing::Message() << "rim " << rim << ", method " << int(method) << ", boundary "
                                        << int(boundary));
        expectSmoothingMatches(cone(rim), with(method, boundary));
      }
}

// Every row through the long-row kernels (threshold 0): the three ways of reading sources
// (neighbours, scattered barycentres of tetrahedra, barycentres of triangles computed in the
// gather) and the boundary rows.
TEST(HubSmoothing, EveryRowLongMatchesDoubleReference)
{
  const Mesh meshes[] = { testmesh::fromGenerated<Mesh>(benchmark::triangleGrid(2000, 3)),
    testmesh::fromGenerated<Mesh>(benchmark::tetrahedronBox(3000, 5)) };
  for (const Mesh& mesh : meshes)
    for (SmoothingMethod method : methods)
      for (SmoothingBoundary boundary : { SmoothingBoundary::Fixed, SmoothingBoundary::Smooth })
      {
        SCOPED_TRACE(testing::Message() << mesh.points() << " points, method " << int(method) << ", boundary "
                                        << int(boundary));
        SmoothingOptions options = with(method, boundary, 10);
        options.layout.longRow = 0;
        expectSmoothingMatches(mesh, options);
      }
}

// A fixed tree in local memory, no atomics: the same bits at every run, in both precisions.
TEST(HubSmoothing, TwoRunsAreBitwiseEqual)
{
  const Mesh meshes[] = { fan(16384), cone(4096) };
  for (const Mesh& mesh : meshes)
    for (Precision precision : { Precision::Single, Precision::Double })
      for (SmoothingMethod method : methods)
      {
        const SmoothingOptions options = with(method, SmoothingBoundary::Smooth, 5);
        const std::vector<double> a = smoothOnDevice(mesh, options, precision);
        const std::vector<double> b = smoothOnDevice(mesh, options, precision);
        EXPECT_EQ(a, b);
        EXPECT_NE(a, mesh.xyz);
      }
}
