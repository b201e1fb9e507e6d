// Renumbering for locality (core/gpumesh/mesh/VertexOrder.h) and smoothing in that order: the
// permutation and the renumbered rows checked on the host, and smoothing results bit for bit
// equal to those in the mesh's own numbering, on randomly renumbered meshes and a gmsh mesh.
#include "MeshGenerators.h"
#include "TestMesh.h"

#include "gpumesh/algorithms/Smoothing.h"
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/mesh/VertexOrder.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/VertexLinks.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>
#include <random>
#include <sstream>

using namespace gpumesh;

namespace
{
// A mesh as the host hands it over, with its cells by kind.
struct TestMesh
{
  std::vector<double> xyz;
  std::vector<std::pair<CellKind, std::vector<std::int64_t>>> cells;

  HostMesh host() const
  {
    HostMesh mesh;
    mesh.setPoints(xyz.data(), static_cast<std::int64_t>(xyz.size() / 3));
    mesh.setCellCount(static_cast<std::int64_t>(cells.size()));
    for (std::size_t c = 0; c < cells.size(); ++c)
      mesh.addCell(static_cast<std::int64_t>(c), cells[c].first, cells[c].second.data(),
        static_cast<std::int64_t>(cells[c].second.size()));
    return mesh;
  }
};


TestMesh shuffledTriangles(std::size_t cells)
{
  benchmark::GeneratedMesh mesh = benchmark::triangleGrid(cells, 3);
  benchmark::shuffle(mesh, 5);
  return testmesh::fromGenerated<TestMesh>(mesh);
}

TestMesh shuffledTetrahedra()
{
  benchmark::GeneratedMesh mesh = benchmark::tetrahedronBox(6000, 4);
  benchmark::shuffle(mesh, 9);
  return testmesh::fromGenerated<TestMesh>(mesh);
}

// A jittered n x n grid of quads, every other one given as a 4-vertex polygon (two groups, one
// of variable size), points numbered at random.
TestMesh shuffledQuadsAndPolygons(int n)
{
  std::mt19937 generator(3);
  std::vector<std::int64_t> newId(static_cast<std::size_t>((n + 1) * (n + 1)));
  std::iota(newId.begin(), newId.end(), 0);
  std::shuffle(newId.begin(), newId.end(), generator);
  TestMesh mesh;
  mesh.xyz.resize(3 * newId.size());
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
    {
      const auto p = static_cast<std::size_t>(newId[static_cast<std::size_t>(j * (n + 1) + i)]);
      mesh.xyz[3 * p] = i + benchmark::jitter(generator, 0.2);
      mesh.xyz[3 * p + 1] = j + benchmark::jitter(generator, 0.2);
      mesh.xyz[3 * p + 2] = 0.1 * benchmark::jitter(generator, 1.0);
    }
  const auto id = [&](int i, int j) { return newId[static_cast<std::size_t>(j * (n + 1) + i)]; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      mesh.cells.push_back({ (i + j) % 2 ? CellKind::Polygon : CellKind::Quad,
        { id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1) } });
  return mesh;
}

// A disc of `rim` triangles around a hub of degree `rim` (rows beyond every fixed width, sorted
// by heapsort), points numbered at random.
TestMesh shuffledFan(int rim)
{
  std::mt19937 generator(8);
  std::vector<std::int64_t> newId(static_cast<std::size_t>(rim + 1));
  std::iota(newId.begin(), newId.end(), 0);
  std::shuffle(newId.begin(), newId.end(), generator);
  TestMesh mesh;
  mesh.xyz.resize(3 * newId.size());
  const double pi = std::acos(-1.0);
  for (int k = 0; k <= rim; ++k)
  {
    const auto p = static_cast<std::size_t>(newId[static_cast<std::size_t>(k)]);
    const double radius = k == 0 ? 0.0 : 1.0 + 0.1 * benchmark::jitter(generator, 1.0);
    mesh.xyz[3 * p] = (k == 0 ? 0.2 : radius * std::cos(2 * pi * k / rim));
    mesh.xyz[3 * p + 1] = (k == 0 ? 0.1 : radius * std::sin(2 * pi * k / rim));
    mesh.xyz[3 * p + 2] = 0.05 * (k % 3);
  }
  for (int k = 1; k <= rim; ++k)
    mesh.cells.push_back({ CellKind::Triangle, { newId[0], newId[static_cast<std::size_t>(k)],
                                                 newId[static_cast<std::size_t>(k % rim + 1)] } });
  return mesh;
}

// data/plate_with_holes_coarse.mesh: gmsh's own numbering (Medit text, 1-based).
TestMesh gmshPlate()
{
  std::ifstream in(std::string(GPUMESH_DATA_DIR) + "/plate_with_holes_coarse.mesh");
  EXPECT_TRUE(in) << "data/plate_with_holes_coarse.mesh not found";
  TestMesh mesh;
  std::string word;
  while (in >> word)
  {
    if (word == "Vertices")
    {
      std::size_t count = 0;
      in >> count;
      mesh.xyz.resize(3 * count);
      for (std::size_t p = 0; p < count; ++p)
      {
        int reference = 0;
        in >> mesh.xyz[3 * p] >> mesh.xyz[3 * p + 1] >> mesh.xyz[3 * p + 2] >> reference;
      }
    }
    else if (word == "Triangles")
    {
      std::size_t count = 0;
      in >> count;
      for (std::size_t c = 0; c < count; ++c)
      {
        std::vector<std::int64_t> v(3);
        int reference = 0;
        in >> v[0] >> v[1] >> v[2] >> reference;
        for (auto& id : v)
          --id;
        mesh.cells.push_back({ CellKind::Triangle, v });
      }
    }
  }
  EXPECT_EQ(mesh.xyz.size(), 3u * 520u);
  EXPECT_EQ(mesh.cells.size(), 908u);
  return mesh;
}

SmoothingOptions with(SmoothingMethod method, SmoothingBoundary boundary, SmoothingVertexOrder order,
  int iterations = 10)
{
  SmoothingOptions options;
  options.method = method;
  options.boundary = boundary;
  options.iterations = iterations;
  options.vertexOrder = order;
  return options;
}

template <typename T>
std::vector<T> download(DeviceRun& run, const DeviceBuffer<T>& buffer, std::size_t count)
{
  std::vector<T> host(count);
  run.download(buffer, host.data(), count, "test");
  return host;
}

std::vector<double> downloadReal(DeviceRun& run, const RealBuffer& buffer)
{
  std::vector<double> host(buffer.size());
  run.download(buffer, host.data(), host.size(), "test");
  return host;
}

} // namespace

TEST(VertexOrder, IsAPermutationThatBringsNeighboursTogether)
{
  const TestMesh mesh = shuffledTriangles(40000);
  const HostMesh host = mesh.host();
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh deviceMesh(run, host, 2);
  const std::size_t n = static_cast<std::size_t>(deviceMesh.pointCount());
  const VertexOrder order = VertexOrder::spaceFilling(run, deviceMesh.points(), n);
  ASSERT_EQ(order.size(), n);

  const std::vector<cl_uint> oldOf = download(run, order.order(), n);
  const std::vector<cl_int> newOf = download(run, order.newIds(), n);
  std::vector<bool> seen(n, false);
  for (std::size_t i = 0; i < n; ++i)
  {
    ASSERT_LT(oldOf[i], n);
    EXPECT_FALSE(seen[oldOf[i]]) << "point " << oldOf[i] << " twice in the order";
    seen[oldOf[i]] = true;
    EXPECT_EQ(newOf[oldOf[i]], static_cast<cl_int>(i));
  }
  const std::vector<double> moved = downloadReal(run, order.gatherPoints(run, deviceMesh.points(), "points"));
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t k = 0; k < 3; ++k)
      ASSERT_EQ(moved[3 * i + k], mesh.xyz[3 * oldOf[i] + k]);

  // Random numbering: nearly every triangle spans more than 1000 ids; in the new order few do.
  CellOrder cells = order.cells(run, deviceMesh);
  const DeviceMesh renumbered(order.gatherPoints(run, deviceMesh.points(), "points"), n, std::move(cells.groups),
    cells.count, deviceMesh.origin());
  EXPECT_GT(farCellShare(run, deviceMesh, 1000), 0.9);
  EXPECT_LT(farCellShare(run, renumbered, 1000), 0.1);

  // Neighbours found on the renumbered mesh, each row put in the order of the old ids: row i is
  // old row order[i], value for value.
  const CellEntities oldEdges(run, deviceMesh, EntityType::Edges);
  const std::vector<std::vector<int>> oldRows = vertexNeighbors(run, deviceMesh, oldEdges).rows(run);
  const CellEntities newEdges(run, renumbered, EntityType::Edges);
  VertexTable newTable = vertexNeighbors(run, renumbered, newEdges);
  newTable.sortRowsBy(run, order.order());
  const std::vector<std::vector<int>> newRows = newTable.rows(run);
  for (std::size_t i = 0; i < n; ++i)
  {
    std::vector<int> asOld;
    for (int u : newRows[i])
      asOld.push_back(static_cast<int>(oldOf[static_cast<std::size_t>(u)]));
    ASSERT_EQ(asOld, oldRows[oldOf[i]]) << "renumbered row " << i;
  }
}

TEST(VertexOrder, CellsFollowThePointsInEveryGroup)
{
  const TestMesh mesh = shuffledQuadsAndPolygons(30);
  const HostMesh host = mesh.host();
  DeviceRun run(DeviceContext::acquire("auto"));
  const DeviceMesh deviceMesh(run, host, 2);
  ASSERT_EQ(deviceMesh.groups().size(), 2u);
  const auto n = static_cast<std::size_t>(deviceMesh.pointCount());
  const VertexOrder order = VertexOrder::spaceFilling(run, deviceMesh.points(), n);
  const CellOrder cells = order.cells(run, deviceMesh);
  ASSERT_EQ(cells.count, mesh.cells.size());
  const std::vector<cl_int> newPoint = download(run, order.newIds(), n);
  const std::vector<cl_int> newCell = download(run, cells.newIds, mesh.cells.size());
  const std::vector<cl_uint> oldCell = download(run, cells.oldIds, mesh.cells.size());
  std::vector<bool> seen(mesh.cells.size(), false);
  std::size_t groupStart = 0;
  for (const DeviceCellGroup& group : cells.groups)
  {
    const std::vector<cl_int> ids = download(run, group.cellIds, group.count);
    const std::vector<cl_int> connectivity = download(run, group.connectivity, 4 * group.count);
    if (group.kind == CellKind::Polygon)
    {
      const std::vector<cl_int> offsets = download(run, group.offsets, group.count + 1);
      for (std::size_t r = 0; r <= group.count; ++r)
        EXPECT_EQ(offsets[r], static_cast<cl_int>(4 * r));
    }
    int previousFirst = -1;
    for (std::size_t r = 0; r < group.count; ++r)
    {
      EXPECT_EQ(ids[r], static_cast<cl_int>(groupStart + r));
      // The old cell whose new id this is: its points, by their new ids, in their order.
      const auto old = static_cast<std::size_t>(
        std::find(newCell.begin(), newCell.end(), ids[r]) - newCell.begin());
      ASSERT_LT(old, mesh.cells.size());
      EXPECT_EQ(oldCell[static_cast<std::size_t>(ids[r])], old);
      EXPECT_FALSE(seen[old]);
      seen[old] = true;
      EXPECT_EQ(mesh.cells[old].first, group.kind);
      for (std::size_t k = 0; k < 4; ++k)
        EXPECT_EQ(connectivity[4 * r + k], newPoint[static_cast<std::size_t>(mesh.cells[old].second[k])]);
      // Sorted by the new id of the first point.
      EXPECT_GE(connectivity[4 * r], previousFirst);
      previousFirst = connectivity[4 * r];
    }
    groupStart += group.count;
  }
}

// Smoothing in the locality order gives the mesh-order results bit for bit: every method, every
// boundary treatment, pinned points, both precisions, on meshes numbered at random and by gmsh.
TEST(SmoothingInLocalityOrder, IsBitwiseEqualToTheMeshOrder)
{
  const std::vector<std::pair<std::string, TestMesh>> meshes = { { "shuffled triangles", shuffledTriangles(6000) },
    { "shuffled tetrahedra", shuffledTetrahedra() }, { "shuffled quads and polygons", shuffledQuadsAndPolygons(40) },
    { "gmsh plate", gmshPlate() }, { "shuffled fan", shuffledFan(300) } };
  for (const auto& [name, mesh] : meshes)
  {
    const HostMesh host = mesh.host();
    std::vector<std::uint8_t> pinned(mesh.xyz.size() / 3, 0);
    for (std::size_t p = 0; p < pinned.size(); p += 7)
      pinned[p] = 1;
    pinned[static_cast<std::size_t>(mesh.cells[0].second[0])] = 0; // the fan's hub moves
    for (Precision precision : { Precision::Single, Precision::Double })
      for (SmoothingMethod method : { SmoothingMethod::Laplacian, SmoothingMethod::Taubin, SmoothingMethod::Barycentric })
        for (SmoothingBoundary boundary : { SmoothingBoundary::Fixed, SmoothingBoundary::Free, SmoothingBoundary::Smooth })
          for (bool withPins : { false, true })
          {
            const std::vector<std::uint8_t> pins = withPins ? pinned : std::vector<std::uint8_t>{};
            SCOPED_TRACE(name + ", method " + std::to_string(int(method)) + ", boundary " +
              std::to_string(int(boundary)) + (withPins ? ", pinned" : "") +
              (precision == Precision::Double ? ", double" : ", single"));
            DeviceRun run(DeviceContext::acquire("auto"), precision);
            const std::vector<double> inMeshOrder =
              smoothVertices(run, host, with(method, boundary, SmoothingVertexOrder::Mesh), pins);
            const std::vector<double> inLocalityOrder =
              smoothVertices(run, host, with(method, boundary, SmoothingVertexOrder::Locality), pins);
            EXPECT_NE(inMeshOrder, mesh.xyz) << "nothing moved: the comparison would prove nothing";
            EXPECT_EQ(inLocalityOrder, inMeshOrder);
          }
  }
}

TEST(SmoothingInLocalityOrder, AutomaticRenumbersScatteredMeshesOnlyWhenItPays)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  const auto renumbered = [&](const TestMesh& mesh, SmoothingVertexOrder order, SmoothingMethod method,
                            int iterations) {
    const HostMesh host = mesh.host();
    const DeviceMesh deviceMesh(run, host, 2);
    return VertexSmoother(run, deviceMesh, with(method, SmoothingBoundary::Fixed, order, iterations)).renumbered();
  };
  // About 70,000 points: random rows span more than renumberingWindow ids (at about 35,000
  // they would not, and the whole state would fit a core's cache anyway).
  const std::size_t cells = 140000;
  const TestMesh scattered = shuffledTriangles(cells);
  ASSERT_GE(scattered.xyz.size() / 3, VertexSmoother::renumberingMinimumPoints);
  const TestMesh rowOrder = testmesh::fromGenerated<TestMesh>(benchmark::triangleGrid(cells, 3));
  for (SmoothingMethod method : { SmoothingMethod::Laplacian, SmoothingMethod::Barycentric })
  {
    EXPECT_TRUE(renumbered(scattered, SmoothingVertexOrder::Automatic, method, 10));
    EXPECT_FALSE(renumbered(scattered, SmoothingVertexOrder::Automatic, method, 2)) << "too few steps to pay";
    EXPECT_FALSE(renumbered(scattered, SmoothingVertexOrder::Mesh, method, 10));
    EXPECT_FALSE(renumbered(rowOrder, SmoothingVertexOrder::Automatic, method, 100)) << "already in good order";
    EXPECT_TRUE(renumbered(rowOrder, SmoothingVertexOrder::Locality, method, 1));
  }
  // Taubin's two steps per iteration count.
  EXPECT_TRUE(renumbered(scattered, SmoothingVertexOrder::Automatic, SmoothingMethod::Taubin, 4));
  EXPECT_FALSE(renumbered(shuffledTriangles(6000), SmoothingVertexOrder::Automatic, SmoothingMethod::Laplacian, 100))
    << "small enough for a core's cache";
}

// A step observer sees, and may change, the state in the mesh's numbering; a progress callback
// stops the smoothing like an observer.
TEST(SmoothingInLocalityOrder, ObserversSeeTheMeshNumbering)
{
  const TestMesh mesh = shuffledTriangles(6000);
  const HostMesh host = mesh.host();
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh deviceMesh(run, host, 2);
  const auto run_ = [&](SmoothingVertexOrder order, std::vector<std::vector<double>>& seen) {
    VertexSmoother smoother(run, deviceMesh, with(SmoothingMethod::Taubin, SmoothingBoundary::Smooth, order, 5));
    EXPECT_EQ(smoother.renumbered(), order == SmoothingVertexOrder::Locality);
    // The observer halves the displacement of every third point, as a halo exchange would
    // overwrite some of them.
    const RealBuffer& result = smoother.smooth(run, [&](DeviceRun& r, RealBuffer& state, int, int) {
      std::vector<double> values = downloadReal(r, state);
      seen.push_back(values);
      for (std::size_t p = 0; p < values.size() / 4; p += 3)
        for (int k = 0; k < 4; ++k)
          values[4 * p + k] *= 0.5;
      RealBuffer changed = r.uploadReal(values.data(), values.size(), "changed state");
      r.copyReal(changed, state, values.size(), "changed state");
      return true;
    });
    return downloadReal(run, result);
  };
  std::vector<std::vector<double>> seenInMeshOrder, seenInLocalityOrder;
  const std::vector<double> inMeshOrder = run_(SmoothingVertexOrder::Mesh, seenInMeshOrder);
  const std::vector<double> inLocalityOrder = run_(SmoothingVertexOrder::Locality, seenInLocalityOrder);
  ASSERT_EQ(seenInMeshOrder.size(), 10u);
  EXPECT_EQ(seenInLocalityOrder, seenInMeshOrder);
  EXPECT_EQ(inLocalityOrder, inMeshOrder);

  VertexSmoother smoother(
    run, deviceMesh, with(SmoothingMethod::Laplacian, SmoothingBoundary::Fixed, SmoothingVertexOrder::Locality, 1000));
  int last = 0;
  const std::vector<double> stopped = downloadReal(run, smoother.smooth(run, SmoothingProgress([&](int step, int steps) {
    EXPECT_EQ(steps, 1000);
    last = step;
    return step < 3;
  })));
  EXPECT_EQ(last, 3);
  VertexSmoother three(
    run, deviceMesh, with(SmoothingMethod::Laplacian, SmoothingBoundary::Fixed, SmoothingVertexOrder::Mesh, 3));
  EXPECT_EQ(stopped, downloadReal(run, three.smooth(run)));
}
