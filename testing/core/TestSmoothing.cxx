// Vertex links and smoothing on the device against the CPU statements of SmoothingReference.h.
#include "MeshGenerators.h"
#include "TestMesh.h"
#include "SmoothingReference.h"

#include "gpumesh/algorithms/Smoothing.h"
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/VertexLinks.h"

#include <gtest/gtest.h>

#include <algorithm>

#include <cmath>
#include <numeric>
#include <random>

using namespace gpumesh;
using reference::Cell;
using reference::Mesh;

namespace
{

Mesh triangles() { return testmesh::fromGenerated<Mesh>(benchmark::triangleGrid(2000, 3)); }
Mesh tetrahedra() { return testmesh::fromGenerated<Mesh>(benchmark::tetrahedronBox(3000, 5)); }

// A disc of `rim` triangles around one off-centre hub: the hub has `rim` neighbours and cells.
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

// Every kind at once, jittered: a row of five cubes as a hexahedron, two wedges, six pyramids
// around a centre, six tetrahedra, and a hexahedron again; a quad, two triangles and a
// pentagon on the x = 0 face and beside it, a triangle making an edge non-manifold; a line
// (ignored); an isolated point.
Mesh mixed()
{
  Mesh mesh;
  std::mt19937 generator(11);
  std::map<std::array<int, 3>, std::int64_t> index;
  auto point = [&](int x, int y, int z) {
    auto [it, added] = index.emplace(std::array<int, 3>{ x, y, z }, std::int64_t(mesh.points()));
    if (added)
      mesh.xyz.insert(mesh.xyz.end(), { x + benchmark::jitter(generator, 0.1), y + benchmark::jitter(generator, 0.1),
        z + benchmark::jitter(generator, 0.1) });
    return it->second;
  };
  auto cube = [&](int x) {
    return std::vector<std::int64_t>{ point(x, 0, 0), point(x + 1, 0, 0), point(x + 1, 1, 0), point(x, 1, 0),
      point(x, 0, 1), point(x + 1, 0, 1), point(x + 1, 1, 1), point(x, 1, 1) };
  };
  auto pick = [](const std::vector<std::int64_t>& v, std::initializer_list<int> local) {
    std::vector<std::int64_t> ids;
    for (int k : local)
      ids.push_back(v[k]);
    return ids;
  };
  mesh.cells.push_back({ CellKind::Hexahedron, cube(0) });
  const auto w = cube(1);
  mesh.cells.push_back({ CellKind::Wedge, pick(w, { 0, 1, 2, 4, 5, 6 }) });
  mesh.cells.push_back({ CellKind::Wedge, pick(w, { 0, 2, 3, 4, 6, 7 }) });
  const auto p = cube(2);
  const std::int64_t centre = std::int64_t(mesh.points());
  mesh.xyz.insert(mesh.xyz.end(), { 2.55, 0.45, 0.5 });
  for (const auto& face : { std::vector<int>{ 0, 4, 7, 3 }, { 1, 2, 6, 5 }, { 0, 1, 5, 4 }, { 3, 7, 6, 2 },
         { 0, 3, 2, 1 }, { 4, 5, 6, 7 } })
  {
    auto base = pick(p, { face[3], face[2], face[1], face[0] });
    base.push_back(centre);
    mesh.cells.push_back({ CellKind::Pyramid, base });
  }
  const auto t = cube(3);
  for (const auto& path : { std::array<int, 2>{ 1, 2 }, { 2, 3 }, { 3, 7 }, { 7, 4 }, { 4, 5 }, { 5, 1 } })
    mesh.cells.push_back({ CellKind::Tetra, { t[0], t[path[0]], t[path[1]], t[6] } });
  mesh.cells.push_back({ CellKind::Hexahedron, cube(4) });
  mesh.cells.push_back({ CellKind::Quad, { point(0, 0, 0), point(0, 1, 0), point(0, 1, 1), point(0, 0, 1) } });
  mesh.cells.push_back({ CellKind::Triangle, { point(0, 0, 0), point(0, 0, 1), point(-1, 0, 0) } });
  mesh.cells.push_back({ CellKind::Triangle, { point(0, 0, 1), point(-1, 0, 1), point(-1, 0, 0) } });
  // A third surface cell on the quad's edge (0,0,0)-(0,0,1): a non-manifold edge.
  mesh.cells.push_back({ CellKind::Triangle, { point(0, 0, 0), point(0, 0, 1), point(0, -1, 1) } });
  mesh.cells.push_back({ CellKind::Polygon,
    { point(0, 1, 0), point(-1, 1, 0), point(-2, 1, 1), point(-1, 1, 2), point(0, 1, 1) } });
  mesh.cells.push_back({ CellKind::Line, { point(6, 0, 0), point(5, 0, 0) } });
  point(9, 9, 9);
  return mesh;
}

double size(const Mesh& mesh)
{
  double lower[3], upper[3];
  for (int k = 0; k < 3; ++k)
  {
    lower[k] = upper[k] = mesh.xyz[k];
    for (std::size_t p = 0; p < mesh.points(); ++p)
    {
      lower[k] = std::min(lower[k], mesh.xyz[3 * p + k]);
      upper[k] = std::max(upper[k], mesh.xyz[3 * p + k]);
    }
  }
  return std::sqrt((upper[0] - lower[0]) * (upper[0] - lower[0]) + (upper[1] - lower[1]) * (upper[1] - lower[1]) +
    (upper[2] - lower[2]) * (upper[2] - lower[2]));
}

std::vector<std::vector<int>> asVectors(const reference::Rows& rows)
{
  std::vector<std::vector<int>> result;
  for (const auto& row : rows)
    result.emplace_back(row.begin(), row.end());
  return result;
}

void expectLinksMatch(const Mesh& mesh, const VertexTableLayout& layout = {})
{
  const HostMesh host = reference::toHost(mesh);
  for (SmoothingBoundary boundary : { SmoothingBoundary::Fixed, SmoothingBoundary::Free, SmoothingBoundary::Smooth })
  {
    const reference::Links expected = reference::links(mesh, boundary);
    DeviceRun run(DeviceContext::acquire("auto"));
    const DeviceMesh deviceMesh(run, host, 2);
    SmoothingOptions options;
    options.boundary = boundary;
    options.layout = layout;
    const VertexSmoother smoother(run, deviceMesh, options);
    std::vector<cl_int> roles(mesh.points());
    run.download(smoother.roles(), roles.data(), roles.size(), "roles");
    EXPECT_EQ(roles, expected.roles);
    EXPECT_EQ(smoother.links().rows(run), asVectors(expected.neighbors));
    if (boundary == SmoothingBoundary::Smooth)
    {
      ASSERT_NE(smoother.boundaryLinks(), nullptr);
      EXPECT_EQ(smoother.boundaryLinks()->rows(run), asVectors(expected.boundaryNeighbors));
    }
    else
    {
      EXPECT_EQ(smoother.boundaryLinks(), nullptr);
    }
  }
  DeviceRun run(DeviceContext::acquire("auto"));
  const DeviceMesh deviceMesh(run, host, 2);
  const reference::Links expected = reference::links(mesh, SmoothingBoundary::Free);
  EXPECT_EQ(vertexCells(run, deviceMesh, layout).rows(run), asVectors(expected.cells));
  const CellEntities sides(run, deviceMesh, EntityType::Sides);
  EXPECT_EQ(boundaryNeighbors(run, deviceMesh, sides, layout).rows(run), asVectors(expected.boundaryNeighbors));
}

std::vector<double> smoothOnDevice(const Mesh& mesh, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned = {}, Precision precision = Precision::Single)
{
  const HostMesh host = reference::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), precision);
  return smoothVertices(run, host, options, pinned);
}

double maxDifference(const std::vector<double>& a, const std::vector<double>& b)
{
  double worst = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

// Device against the double reference, within 1e-5 of the mesh size; and the reference must
// have moved the mesh, or the comparison would prove nothing.
void expectSmoothingMatches(const Mesh& mesh, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned = {})
{
  const std::vector<double> expected = reference::smooth(mesh, options, pinned);
  const double scale = size(mesh);
  EXPECT_GT(maxDifference(expected, mesh.xyz), 1e-3 * scale) << "the reference did not move";
  EXPECT_LE(maxDifference(smoothOnDevice(mesh, options, pinned), expected), 1e-5 * scale);
  // Double kernels agree with the double reference to its own rounding.
  EXPECT_LE(maxDifference(smoothOnDevice(mesh, options, pinned, Precision::Double), expected), 1e-12 * scale);
}

SmoothingOptions with(SmoothingMethod method, SmoothingBoundary boundary, int iterations = 10)
{
  SmoothingOptions options;
  options.method = method;
  options.boundary = boundary;
  options.iterations = iterations;
  return options;
}
} // namespace

TEST(VertexLinks, TrianglesMatchCpu)
{
  expectLinksMatch(triangles());
}

TEST(VertexLinks, TetrahedraMatchCpu)
{
  expectLinksMatch(tetrahedra());
}

TEST(VertexLinks, TetrahedraThroughOverflowMatchCpu)
{
  expectLinksMatch(tetrahedra(), VertexTableLayout{ { 4 } });
}

TEST(VertexLinks, MixedKindsMatchCpu)
{
  expectLinksMatch(mixed());
}

TEST(VertexLinks, FanHubOfDegree1500IsComplete)
{
  const Mesh mesh = fan(1500);
  expectLinksMatch(mesh);
  // The hub's 1500 neighbours live in the overflow table, whole.
  DeviceRun run(DeviceContext::acquire("auto"));
  const HostMesh host = reference::toHost(mesh);
  const DeviceMesh deviceMesh(run, host, 2);
  const CellEntities edges(run, deviceMesh, EntityType::Edges);
  const VertexTable neighbors = vertexNeighbors(run, deviceMesh, edges);
  ASSERT_EQ(neighbors.classes().back().width, 0u);
  ASSERT_EQ(neighbors.classes().back().rows, 1u);
  EXPECT_EQ(neighbors.rows(run)[0].size(), 1500u);
}

TEST(Smoothing, EveryMethodAndBoundaryMatchesDoubleReference)
{
  const Mesh meshes[] = { triangles(), tetrahedra(), mixed() };
  for (const Mesh& mesh : meshes)
    for (SmoothingMethod method : { SmoothingMethod::Laplacian, SmoothingMethod::Taubin, SmoothingMethod::Barycentric })
      for (SmoothingBoundary boundary : { SmoothingBoundary::Fixed, SmoothingBoundary::Free, SmoothingBoundary::Smooth })
      {
        SCOPED_TRACE(testing::Message() << "method " << int(method) << ", boundary " << int(boundary) << ", "
                                        << mesh.points() << " points");
        expectSmoothingMatches(mesh, with(method, boundary));
      }
}

TEST(Smoothing, OverflowRowsGiveTheSameResult)
{
  SmoothingOptions options = with(SmoothingMethod::Barycentric, SmoothingBoundary::Smooth);
  options.layout.widths = { 4 };
  expectSmoothingMatches(tetrahedra(), options);
  options.method = SmoothingMethod::Laplacian;
  options.layout.widths = {};
  expectSmoothingMatches(triangles(), options);
}

TEST(Smoothing, HubOfDegree1500IsSmoothedExactly)
{
  for (SmoothingMethod method : { SmoothingMethod::Laplacian, SmoothingMethod::Barycentric })
  {
    expectSmoothingMatches(fan(1500), with(method, SmoothingBoundary::Free, 3));
    expectSmoothingMatches(fan(1500), with(method, SmoothingBoundary::Fixed, 3));
  }
}

TEST(Smoothing, PinnedVerticesStayAndOthersFollowReference)
{
  const Mesh mesh = triangles();
  std::vector<std::uint8_t> pinned(mesh.points(), 0);
  for (std::size_t p = 0; p < pinned.size(); p += 3)
    pinned[p] = 1;
  const SmoothingOptions options = with(SmoothingMethod::Laplacian, SmoothingBoundary::Free);
  expectSmoothingMatches(mesh, options, pinned);
  const std::vector<double> actual = smoothOnDevice(mesh, options, pinned);
  for (std::size_t p = 0; p < pinned.size(); p += 3)
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(actual[3 * p + k], mesh.xyz[3 * p + k], 1e-6 * size(mesh));
}

TEST(Smoothing, ZeroIterationsReturnsTheUploadedPointsBitwise)
{
  const Mesh mesh = mixed();
  const HostMesh host = reference::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"));
  SmoothingOptions options = with(SmoothingMethod::Taubin, SmoothingBoundary::Free, 0);
  EXPECT_EQ(smoothVertices(run, host, options), mesh.xyz);
}

TEST(Smoothing, TwoRunsAreBitwiseEqual)
{
  const Mesh mesh = tetrahedra();
  const HostMesh host = reference::toHost(mesh);
  for (SmoothingMethod method : { SmoothingMethod::Laplacian, SmoothingMethod::Taubin, SmoothingMethod::Barycentric })
  {
    const SmoothingOptions options = with(method, SmoothingBoundary::Smooth, 20);
    DeviceRun first(DeviceContext::acquire("auto"));
    const std::vector<double> a = smoothVertices(first, host, options);
    DeviceRun second(DeviceContext::acquire("auto"));
    const std::vector<double> b = smoothVertices(second, host, options);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, mesh.xyz);
  }
}

TEST(Smoothing, ShuffledPointsAndCellsGiveTheSameGeometry)
{
  const Mesh mesh = tetrahedra();
  std::mt19937 generator(3);
  std::vector<std::int64_t> newId(mesh.points());
  std::iota(newId.begin(), newId.end(), 0);
  std::shuffle(newId.begin(), newId.end(), generator);
  Mesh shuffled{ std::vector<double>(mesh.xyz.size()), mesh.cells };
  for (std::size_t p = 0; p < mesh.points(); ++p)
    for (int k = 0; k < 3; ++k)
      shuffled.xyz[3 * newId[p] + k] = mesh.xyz[3 * p + k];
  for (auto& cell : shuffled.cells)
    for (auto& id : cell.ids)
      id = newId[id];
  std::shuffle(shuffled.cells.begin(), shuffled.cells.end(), generator);
  for (SmoothingMethod method : { SmoothingMethod::Laplacian, SmoothingMethod::Barycentric })
  {
    const SmoothingOptions options = with(method, SmoothingBoundary::Smooth);
    const std::vector<double> a = smoothOnDevice(mesh, options);
    const std::vector<double> b = smoothOnDevice(shuffled, options);
    double worst = 0.0;
    for (std::size_t p = 0; p < mesh.points(); ++p)
      for (int k = 0; k < 3; ++k)
        worst = std::max(worst, std::abs(a[3 * p + k] - b[3 * newId[p] + k]));
    // Only the order of float sums differs.
    EXPECT_LE(worst, 1e-6 * size(mesh));
    EXPECT_GT(maxDifference(a, mesh.xyz), 1e-3 * size(mesh));
  }
}

TEST(Smoothing, PointsOfLinesAndIsolatedPointsDoNotMove)
{
  Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0.5, 0, 2, 0, 0, 3, 1, 0, 7, 7, 7 };
  mesh.cells = { { CellKind::Line, { 0, 1 } }, { CellKind::PolyLine, { 1, 2, 3 } } };
  const HostMesh host = reference::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"));
  EXPECT_EQ(smoothVertices(run, host, with(SmoothingMethod::Laplacian, SmoothingBoundary::Free)), mesh.xyz);
  EXPECT_EQ(smoothVertices(run, host, with(SmoothingMethod::Barycentric, SmoothingBoundary::Smooth)), mesh.xyz);
}

// A mesh of one fixed-size 2D kind has its cells' barycentre states computed in the gather;
// with one more cell of another kind (a line, which smoothing leaves out) they are scattered
// per cell first. Both sum the same values in the same order: the same points but for the
// rounding of the division by the cell's size (bit for bit on PoCL; NVIDIA's compiler may fuse
// it into the sum), and a tetrahedron mesh keeps the scatter.
TEST(Smoothing, BarycentresComputedInTheGatherEqualScatteredOnes)
{
  for (const Mesh& mesh : { triangles(), tetrahedra() })
  {
    Mesh withLine = mesh;
    const auto a = static_cast<std::int64_t>(mesh.points());
    // Copies of the first two points: the bounds, and so the origin of a Single-precision run,
    // stay the same.
    withLine.xyz.insert(withLine.xyz.end(), mesh.xyz.begin(), mesh.xyz.begin() + 6);
    withLine.cells.push_back({ CellKind::Line, { a, a + 1 } });
    const SmoothingOptions options = with(SmoothingMethod::Barycentric, SmoothingBoundary::Smooth, 7);
    const auto scatterLaunched = [](DeviceRun& run) {
      const std::vector<CommandTiming> timings = run.timings();
      return std::any_of(timings.begin(), timings.end(), [](const CommandTiming& t) { return t.label == "barycentres"; });
    };
    const bool planar = mesh.cells.front().kind == CellKind::Triangle;
    DeviceRun first(DeviceContext::acquire("auto"));
    const std::vector<double> expected = smoothVertices(first, reference::toHost(mesh), options);
    EXPECT_EQ(scatterLaunched(first), !planar);
    DeviceRun scattered(DeviceContext::acquire("auto"));
    std::vector<double> actual = smoothVertices(scattered, reference::toHost(withLine), options);
    EXPECT_TRUE(scatterLaunched(scattered));
    actual.resize(expected.size());
    EXPECT_LT(maxDifference(actual, expected), 1e-6 * size(mesh));
    if (!first.info().isGPU)
      EXPECT_EQ(actual, expected);
    EXPECT_GT(maxDifference(expected, mesh.xyz), 1e-3 * size(mesh));
  }
}

TEST(Smoothing, BadOptionsAreErrorsNamingTheValue)
{
  const HostMesh host = reference::toHost(fan(5));
  DeviceRun run(DeviceContext::acquire("auto"));
  auto message = [&](const SmoothingOptions& options, const std::vector<std::uint8_t>& pinned = {}) {
    try
    {
      smoothVertices(run, host, options, pinned);
    }
    catch (const Error& error)
    {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  SmoothingOptions options = with(SmoothingMethod::Laplacian, SmoothingBoundary::Free, -1);
  EXPECT_NE(message(options).find("Iterations must be 0 or more, not -1"), std::string::npos);
  options.iterations = 1;
  // (0, 1] only; numbers are written in their shortest form (1e+300, not 301 digits).
  for (const auto& [factor, text] : std::vector<std::pair<double, std::string>>{ { std::nan(""), "nan" },
         { 0.0, "0" }, { -0.5, "-0.5" }, { 1.5, "1.5" }, { 1e300, "1e+300" }, { HUGE_VAL, "inf" } })
  {
    options.relaxationFactor = factor;
    EXPECT_NE(message(options).find("RelaxationFactor must be in (0, 1], not " + text + ": above 1"),
      std::string::npos) << message(options);
  }
  options.relaxationFactor = 1.0;
  EXPECT_EQ(message(options), "no error");
  options.method = SmoothingMethod::Taubin;
  options.relaxationFactor = 0.5;
  options.passBand = 2.5;
  EXPECT_NE(message(options).find("0 < PassBand < 1/RelaxationFactor"), std::string::npos);
  options.passBand = 0.1;
  EXPECT_NE(message(options, std::vector<std::uint8_t>(3, 0)).find("3 entries for 6 points"), std::string::npos);
}

TEST(Smoothing, TriangleStripsAreAnError)
{
  Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0 };
  mesh.cells = { { CellKind::TriangleStrip, { 0, 1, 2, 3 } } };
  const HostMesh host = reference::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"));
  EXPECT_THROW(smoothVertices(run, host, with(SmoothingMethod::Barycentric, SmoothingBoundary::Free)), Error);
}
