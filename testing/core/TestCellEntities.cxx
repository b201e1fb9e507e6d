// Sides and edges matched on the device against a CPU map of sorted vertex keys.
#include "TestMesh.h"

#include "gpumesh/algorithms/NeighborDistance.h"
#include "gpumesh/topology/CellEntities.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>
#include <set>

using namespace gpumesh;

namespace
{
using TestCell = testmesh::Cell;
using TestMesh = testmesh::Mesh;

// The test's own statement of VTK's local faces (sides of 3D cells) and edges.
std::vector<std::vector<int>> localEntities(CellKind kind, EntityType type)
{
  if (type == EntityType::Sides)
  {
    switch (kind)
    {
      case CellKind::Triangle:
        return { { 0, 1 }, { 1, 2 }, { 2, 0 } };
      case CellKind::Quad:
        return { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 } };
      case CellKind::Tetra:
        return { { 0, 1, 3 }, { 1, 2, 3 }, { 2, 0, 3 }, { 0, 2, 1 } };
      case CellKind::Hexahedron:
        return { { 0, 4, 7, 3 }, { 1, 2, 6, 5 }, { 0, 1, 5, 4 }, { 3, 7, 6, 2 }, { 0, 3, 2, 1 }, { 4, 5, 6, 7 } };
      case CellKind::Wedge:
        return { { 0, 1, 2 }, { 3, 5, 4 }, { 0, 3, 4, 1 }, { 1, 4, 5, 2 }, { 2, 5, 3, 0 } };
      default:
        return {};
    }
  }
  switch (kind)
  {
    case CellKind::Line:
      return { { 0, 1 } };
    case CellKind::Triangle:
      return { { 0, 1 }, { 1, 2 }, { 2, 0 } };
    case CellKind::Quad:
      return { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 } };
    case CellKind::Tetra:
      return { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 0, 3 }, { 1, 3 }, { 2, 3 } };
    case CellKind::Wedge:
      return { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 3, 4 }, { 4, 5 }, { 5, 3 }, { 0, 3 }, { 1, 4 }, { 2, 5 } };
    default:
      return {};
  }
}

// The same for one cell: polygons have the edges (k, k + 1) around them (their sides and
// edges alike), polylines the edges (k, k + 1) along them (and no sides).
std::vector<std::vector<int>> localEntities(const testmesh::Cell& cell, EntityType type)
{
  const int n = static_cast<int>(cell.ids.size());
  std::vector<std::vector<int>> entities;
  if (cell.kind == CellKind::Polygon)
    for (int k = 0; k < n; ++k)
      entities.push_back({ k, (k + 1) % n });
  else if (cell.kind == CellKind::PolyLine && type == EntityType::Edges)
    for (int k = 0; k + 1 < n; ++k)
      entities.push_back({ k, k + 1 });
  else if (cell.kind != CellKind::PolyLine && (cell.kind != CellKind::Line || type == EntityType::Edges))
    entities = localEntities(cell.kind, type);
  return entities;
}

// Sorted vertex ids padded with `none`, which (like the device's padding) sorts after every
// id, so an edge (a, b) follows the faces (a, b, c).
using Key = std::array<std::int64_t, 4>;
constexpr std::int64_t none = std::numeric_limits<std::int64_t>::max();
Key keyOf(const TestCell& cell, const std::vector<int>& local)
{
  Key key = { none, none, none, none };
  for (std::size_t k = 0; k < local.size(); ++k)
    key[k] = cell.ids[local[k]];
  std::sort(key.begin(), key.begin() + static_cast<long>(local.size()));
  return key;
}

// Jittered nx x ny grid of triangles (or tetrahedra of an nx x ny x nz box split in 6), with
// points and cells renumbered at random.
TestMesh shuffled(TestMesh mesh, unsigned seed)
{
  std::mt19937 generator(seed);
  const std::size_t points = mesh.xyz.size() / 3;
  std::vector<std::int64_t> newId(points);
  std::iota(newId.begin(), newId.end(), 0);
  std::shuffle(newId.begin(), newId.end(), generator);
  std::vector<double> xyz(mesh.xyz.size());
  for (std::size_t p = 0; p < points; ++p)
    for (int c = 0; c < 3; ++c)
      xyz[3 * newId[p] + c] = mesh.xyz[3 * p + c];
  mesh.xyz = xyz;
  for (auto& cell : mesh.cells)
    for (auto& id : cell.ids)
      id = newId[id];
  std::shuffle(mesh.cells.begin(), mesh.cells.end(), generator);
  return mesh;
}

TestMesh triangleGrid(int nx, int ny)
{
  TestMesh mesh;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i)
      mesh.xyz.insert(mesh.xyz.end(), { i + 0.2 * std::sin(7.0 * i + j), j + 0.2 * std::cos(3.0 * i * j), 0.0 });
  auto id = [&](int i, int j) { return std::int64_t(j * (nx + 1) + i); };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i)
    {
      mesh.cells.push_back({ CellKind::Triangle, { id(i, j), id(i + 1, j), id(i + 1, j + 1) } });
      mesh.cells.push_back({ CellKind::Triangle, { id(i, j), id(i + 1, j + 1), id(i, j + 1) } });
    }
  return mesh;
}

TestMesh tetraBox(int n)
{
  TestMesh mesh;
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i)
        mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j) + 0.1 * i, double(k) });
  auto id = [&](int i, int j, int k) { return std::int64_t((k * (n + 1) + j) * (n + 1) + i); };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
      {
        // Six tetrahedra around the diagonal v0-v6 (a conforming Kuhn split).
        const std::int64_t v[8] = { id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
          id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1) };
        const int paths[6][2] = { { 1, 2 }, { 2, 3 }, { 3, 7 }, { 7, 4 }, { 4, 5 }, { 5, 1 } };
        for (const auto& p : paths)
          mesh.cells.push_back({ CellKind::Tetra, { v[0], v[p[0]], v[p[1]], v[6] } });
      }
  return mesh;
}

// A triangulated n-gon: n triangles around vertex 0, which has degree n.
TestMesh fan(int n)
{
  TestMesh mesh;
  mesh.xyz = { 0, 0, 0 };
  for (int k = 0; k < n; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { std::cos(2 * M_PI * k / n), std::sin(2 * M_PI * k / n), 0.0 });
  for (int k = 0; k < n; ++k)
    mesh.cells.push_back({ CellKind::Triangle, { 0, 1 + k, 1 + (k + 1) % n } });
  return mesh;
}

// A book: `pages` triangles on one edge (0, 1), each with a point of its own, so the edge is
// shared by every page (a run of `pages` slots) and every other edge by one.
TestMesh book(int pages)
{
  TestMesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0 };
  for (int k = 0; k < pages; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { 0.5, std::cos(2 * M_PI * k / pages), std::sin(2 * M_PI * k / pages) });
  for (int k = 0; k < pages; ++k)
    mesh.cells.push_back({ CellKind::Triangle, { k % 2 ? 1 : 0, k % 2 ? 0 : 1, 2 + k } });
  return mesh;
}

// A UV sphere: `rings` rings of `perRing` points between two poles, quads between the rings
// and triangle fans around the poles (degree perRing), as sphere sources make them.
TestMesh uvSphere(int perRing, int rings)
{
  TestMesh mesh;
  mesh.xyz = { 0, 0, 1 };
  for (int r = 1; r <= rings; ++r)
    for (int k = 0; k < perRing; ++k)
    {
      const double theta = M_PI * r / (rings + 1), phi = 2 * M_PI * k / perRing;
      mesh.xyz.insert(mesh.xyz.end(), { std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta) });
    }
  mesh.xyz.insert(mesh.xyz.end(), { 0, 0, -1 });
  const std::int64_t south = rings * perRing + 1;
  auto id = [&](int r, int k) { return std::int64_t(1 + (r - 1) * perRing + (k % perRing)); };
  for (int k = 0; k < perRing; ++k)
  {
    mesh.cells.push_back({ CellKind::Triangle, { 0, id(1, k), id(1, k + 1) } });
    for (int r = 1; r < rings; ++r)
      mesh.cells.push_back({ CellKind::Quad, { id(r, k), id(r + 1, k), id(r + 1, k + 1), id(r, k + 1) } });
    mesh.cells.push_back({ CellKind::Triangle, { south, id(rings, k + 1), id(rings, k) } });
  }
  return mesh;
}

// n wedges around the axis from point 0 to point 1: every wedge has the axis as an edge, so
// both points have degree n + 2, and the quad faces on the axis match across wedges.
TestMesh wedgeWheel(int n)
{
  TestMesh mesh;
  mesh.xyz = { 0, 0, 0, 0, 0, 1 };
  for (int k = 0; k < n; ++k)
    for (double z : { 0.0, 1.0 })
      mesh.xyz.insert(mesh.xyz.end(), { std::cos(2 * M_PI * k / n), std::sin(2 * M_PI * k / n), z });
  auto id = [&](int k, int top) { return std::int64_t(2 + 2 * (k % n) + top); };
  for (int k = 0; k < n; ++k)
    mesh.cells.push_back({ CellKind::Wedge, { 0, id(k, 0), id(k + 1, 0), 1, id(k, 1), id(k + 1, 1) } });
  return mesh;
}

struct Built
{
  std::vector<cl_uint> slotOffsets;
  std::vector<cl_int> slotCell, sortedSlots, neighbor, slotEntity;
  std::vector<cl_int2> slotRun;
  std::vector<cl_uint4> entityVertices;
  std::vector<cl_uint> entityCells;
  std::vector<float> minimum, mean;
  std::vector<cl_int> count;
};

// The ways of matching, which must give identical results; every test runs each on whatever
// device it has: the CPUs' (AccessPattern::Contiguous) and the GPUs' (Strided), straight to the
// buckets and through windows of vertices and slots (SlotGrouping).
struct Way
{
  AccessPattern pattern;
  SlotGrouping grouping;
};
const Way contiguousWay = { AccessPattern::Contiguous, SlotGrouping::Auto };
const Way allWays[] = { contiguousWay, { AccessPattern::Strided, SlotGrouping::Direct },
  { AccessPattern::Strided, SlotGrouping::Windows } };

std::string nameOf(const Way& way)
{
  if (way.pattern == AccessPattern::Contiguous)
    return "contiguous";
  return way.grouping == SlotGrouping::Windows ? "strided through windows" : "strided";
}

Built build(const TestMesh& mesh, EntityType type, const Way& way,
  SlotNeighbors neighbors = SlotNeighbors::Kept)
{
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"));
  DeviceMesh deviceMesh(run, host);
  CellEntities entities(run, deviceMesh, type, way.pattern, neighbors, way.grouping);
  Built b;
  if (neighbors == SlotNeighbors::LeftOut)
  {
    // Only what a caller may read; the left-out buffers stay empty.
    EXPECT_TRUE(entities.slotCell().empty());
    EXPECT_TRUE(entities.neighbor().empty());
  }
  if (neighbors == SlotNeighbors::Only)
  {
    EXPECT_TRUE(entities.slotCell().empty());
    EXPECT_TRUE(entities.sortedSlots().empty());
    EXPECT_TRUE(entities.slotRun().empty());
    EXPECT_TRUE(entities.entityVertices().empty());
    EXPECT_FALSE(entities.neighbor().empty());
  }
  auto get = [&](const auto& buffer, auto& out, std::size_t n) {
    out.resize(n);
    run.download(buffer, out.data(), n, "result");
  };
  if (neighbors == SlotNeighbors::EntityCounts)
  {
    // Each entity with its count of slots; nothing per slot outlives the constructor.
    EXPECT_TRUE(entities.slotOffsets().empty());
    EXPECT_TRUE(entities.slotCell().empty());
    EXPECT_TRUE(entities.sortedSlots().empty());
    EXPECT_TRUE(entities.slotRun().empty());
    EXPECT_TRUE(entities.neighbor().empty());
    EXPECT_TRUE(entities.slotEntity().empty());
    get(entities.entityVertices(), b.entityVertices, entities.entityCount());
    get(entities.entityCells(), b.entityCells, entities.entityCount());
    return b;
  }
  get(entities.slotOffsets(), b.slotOffsets, mesh.cells.size() + 1);
  get(entities.slotCell(), b.slotCell, entities.slotCell().size());
  get(entities.sortedSlots(), b.sortedSlots, entities.sortedSlots().size());
  get(entities.neighbor(), b.neighbor, entities.neighbor().size());
  get(entities.slotEntity(), b.slotEntity, entities.slotCount());
  get(entities.slotRun(), b.slotRun, entities.slotRun().size());
  get(entities.entityVertices(), b.entityVertices, entities.entityVertices().size());
  if (type == EntityType::Sides && neighbors == SlotNeighbors::Kept)
  {
    auto centroids = computeCentroids(run, deviceMesh);
    auto distances = computeNeighborDistances(run, deviceMesh, entities, centroids);
    get(distances.minimum, b.minimum, mesh.cells.size());
    get(distances.mean, b.mean, mesh.cells.size());
    get(distances.count, b.count, mesh.cells.size());
  }
  return b;
}

// Checks every output of one way against the CPU map from keys to the slots that share them.
void expectMatchesReference(const TestMesh& mesh, EntityType type, const Way& way)
{
  SCOPED_TRACE(nameOf(way));
  const Built b = build(mesh, type, way);
  std::map<Key, std::vector<std::int64_t>> slotsOfKey; // std::map: keys in sorted order
  std::vector<Key> keyOfSlot;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const auto entities = localEntities(mesh.cells[c], type);
    ASSERT_EQ(b.slotOffsets[c + 1] - b.slotOffsets[c], entities.size()) << "cell " << c;
    for (std::size_t e = 0; e < entities.size(); ++e)
    {
      const Key key = keyOf(mesh.cells[c], entities[e]);
      const auto slot = static_cast<std::int64_t>(b.slotOffsets[c] + e);
      slotsOfKey[key].push_back(slot);
      keyOfSlot.push_back(key);
      ASSERT_EQ(b.slotCell[slot], static_cast<cl_int>(c));
    }
  }
  ASSERT_EQ(b.entityVertices.size(), slotsOfKey.size());
  int entity = 0;
  for (const auto& [key, slots] : slotsOfKey) // entity numbering follows the sorted keys
  {
    for (int k = 0; k < 4; ++k)
      ASSERT_EQ(b.entityVertices[entity].s[k], key[k] == none ? 0xffffffffu : cl_uint(key[k]));
    for (std::int64_t slot : slots)
    {
      ASSERT_EQ(b.slotEntity[slot], entity);
      ASSERT_EQ(b.slotRun[slot].s[1], static_cast<cl_int>(slots.size()));
      const cl_int expectedNeighbor = slots.size() < 2 ? -1 : b.slotCell[slots[0] == slot ? slots[1] : slots[0]];
      ASSERT_EQ(b.neighbor[slot], expectedNeighbor) << "slot " << slot;
      // The run lists exactly the slots of this key, in slot order.
      for (std::size_t k = 0; k < slots.size(); ++k)
        ASSERT_EQ(b.sortedSlots[b.slotRun[slot].s[0] + k], slots[k]);
    }
    ++entity;
  }
}

void expectMatchesReference(const TestMesh& mesh, EntityType type)
{
  for (const Way& way : allWays)
    expectMatchesReference(mesh, type, way);
}

void expectAllWaysEqual(const TestMesh& mesh, EntityType type)
{
  const Built contiguous = build(mesh, type, contiguousWay);
  for (const Way& way : allWays)
  {
    SCOPED_TRACE(nameOf(way));
    const Built other = build(mesh, type, way);
    EXPECT_EQ(contiguous.slotCell, other.slotCell);
    EXPECT_EQ(contiguous.sortedSlots, other.sortedSlots);
    EXPECT_EQ(contiguous.slotEntity, other.slotEntity);
    EXPECT_EQ(contiguous.neighbor, other.neighbor);
    ASSERT_EQ(contiguous.slotRun.size(), other.slotRun.size());
    for (std::size_t s = 0; s < contiguous.slotRun.size(); ++s)
      for (int k = 0; k < 2; ++k)
        ASSERT_EQ(contiguous.slotRun[s].s[k], other.slotRun[s].s[k]) << "slot " << s;
    ASSERT_EQ(contiguous.entityVertices.size(), other.entityVertices.size());
    for (std::size_t e = 0; e < contiguous.entityVertices.size(); ++e)
      for (int k = 0; k < 4; ++k)
        ASSERT_EQ(contiguous.entityVertices[e].s[k], other.entityVertices[e].s[k]) << "entity " << e;
  }
}
} // namespace

TEST(CellEntities, TriangleSidesOfAShuffledGrid)
{
  expectMatchesReference(shuffled(triangleGrid(30, 20), 1), EntityType::Sides);
}

TEST(CellEntities, TetrahedronFacesAndEdgesOfAShuffledBox)
{
  const TestMesh mesh = shuffled(tetraBox(6), 2);
  expectMatchesReference(mesh, EntityType::Sides);
  expectMatchesReference(mesh, EntityType::Edges);
}

TEST(CellEntities, NonManifoldFanMakesEveryCellANeighbour)
{
  TestMesh fan;
  fan.xyz = { 0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1 };
  fan.cells = { { CellKind::Triangle, { 0, 1, 2 } }, { CellKind::Triangle, { 1, 0, 3 } }, { CellKind::Triangle, { 0, 1, 4 } } };
  expectMatchesReference(fan, EntityType::Sides);
  for (const Way& way : allWays)
  {
    const Built b = build(fan, EntityType::Sides, way);
    for (int c = 0; c < 3; ++c)
      EXPECT_EQ(b.count[c], 2) << "cell " << c << ", " << nameOf(way);
  }
}

// Many unused points among few cells make partitions of many vertices, whose buckets' bounds
// do not fit in private memory.
TEST(CellEntities, SparseCellsAmongManyPointsMatchToo)
{
  TestMesh sparse = triangleGrid(12, 10);
  for (int p = 0; p < 30000; ++p)
    sparse.xyz.insert(sparse.xyz.end(), { 0.001 * p, -1.0, 0.0 });
  sparse = shuffled(sparse, 39);
  expectMatchesReference(sparse, EntityType::Sides);
  expectMatchesReference(sparse, EntityType::Edges);
}

TEST(CellEntities, SingleCellHasNoNeighbour)
{
  TestMesh one;
  one.xyz = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  one.cells = { { CellKind::Tetra, { 0, 1, 2, 3 } } };
  for (const Way& way : allWays)
  {
    const Built b = build(one, EntityType::Sides, way);
    EXPECT_EQ(b.count[0], 0);
    EXPECT_TRUE(std::isnan(b.minimum[0]));
    EXPECT_TRUE(std::isnan(b.mean[0]));
    for (cl_int n : b.neighbor)
      EXPECT_EQ(n, -1);
  }
}

TEST(CellEntities, ResultsDoNotDependOnTheSchedule)
{
  const TestMesh mesh = shuffled(tetraBox(5), 3);
  for (const Way& way : allWays)
  {
    const Built first = build(mesh, EntityType::Sides, way);
    const Built second = build(mesh, EntityType::Sides, way);
    EXPECT_EQ(first.sortedSlots, second.sortedSlots);
    EXPECT_EQ(first.slotEntity, second.slotEntity);
    EXPECT_EQ(first.neighbor, second.neighbor);
  }
}

TEST(CellEntities, LargeBucketsMatchToo)
{
  // A fan of 150 triangles around vertex 0: its bucket holds 300 slots, beyond any private
  // sorting buffer, so the in-place path runs as well.
  TestMesh fan;
  fan.xyz = { 0, 0, 0 };
  const int n = 150;
  for (int k = 0; k < n; ++k)
    fan.xyz.insert(fan.xyz.end(), { std::cos(2 * M_PI * k / n), std::sin(2 * M_PI * k / n), 0.0 });
  for (int k = 0; k < n; ++k)
    fan.cells.push_back({ CellKind::Triangle, { 0, 1 + k, 1 + (k + 1) % n } });
  TestMesh shuffledFan = fan;
  std::mt19937 generator(5);
  std::shuffle(shuffledFan.cells.begin(), shuffledFan.cells.end(), generator);
  expectMatchesReference(shuffledFan, EntityType::Sides);
  expectMatchesReference(shuffledFan, EntityType::Edges);
}

// The degree cliff: one vertex of degree 16384 (its bucket holds 32768 slots), in row order
// and renumbered at random.
TEST(CellEntities, VertexOfDegree16384)
{
  const TestMesh mesh = fan(16384);
  expectMatchesReference(mesh, EntityType::Sides);
  expectMatchesReference(mesh, EntityType::Edges);
  const TestMesh renumbered = shuffled(mesh, 11);
  expectMatchesReference(renumbered, EntityType::Sides);
  expectMatchesReference(renumbered, EntityType::Edges);
}

TEST(CellEntities, UVSphereWith4096PointsPerRing)
{
  const TestMesh mesh = uvSphere(4096, 4);
  expectMatchesReference(mesh, EntityType::Sides);
  expectMatchesReference(mesh, EntityType::Edges);
  const Built b = build(mesh, EntityType::Sides, contiguousWay);
  for (cl_int n : b.neighbor) // closed: every side has a neighbour
    ASSERT_GE(n, 0);
}

// Random numbering spreads large and small buckets over the whole mesh: a smallest id owns
// all its edges, so tetrahedron buckets of every size up to hundreds of slots appear.
TEST(CellEntities, RandomlyRenumberedMeshes)
{
  const TestMesh triangles = shuffled(triangleGrid(120, 90), 12);
  expectMatchesReference(triangles, EntityType::Sides);
  expectMatchesReference(triangles, EntityType::Edges);
  const TestMesh tetrahedra = shuffled(tetraBox(9), 13);
  expectMatchesReference(tetrahedra, EntityType::Sides);
  expectMatchesReference(tetrahedra, EntityType::Edges);
}

// Quad and triangle faces in one large bucket: the widest keys (4 vertex ids).
TEST(CellEntities, WedgesAroundAnAxisMatchTriangleAndQuadFaces)
{
  TestMesh wheel = wedgeWheel(1500);
  std::mt19937 generator(17);
  std::shuffle(wheel.cells.begin(), wheel.cells.end(), generator);
  expectMatchesReference(wheel, EntityType::Sides);
  expectMatchesReference(wheel, EntityType::Edges);
  expectMatchesReference(shuffled(wheel, 18), EntityType::Sides);
}

// Polygons and polylines turn one table row around the cell; lines have edges but no sides;
// every kind in one mesh, cells and points in random order.
TEST(CellEntities, EveryKindMixedInOneMesh)
{
  TestMesh mesh = shuffled(tetraBox(4), 21);
  const std::int64_t points = static_cast<std::int64_t>(mesh.points());
  std::mt19937 generator(22);
  std::uniform_int_distribution<std::int64_t> point(0, points - 1);
  auto distinct = [&](int n) {
    std::set<std::int64_t> ids;
    while (static_cast<int>(ids.size()) < n)
      ids.insert(point(generator));
    std::vector<std::int64_t> list(ids.begin(), ids.end());
    std::shuffle(list.begin(), list.end(), generator);
    return list;
  };
  for (int k = 0; k < 40; ++k)
  {
    mesh.cells.push_back({ CellKind::Polygon, distinct(5 + k % 4) });
    mesh.cells.push_back({ CellKind::PolyLine, distinct(2 + k % 5) });
    mesh.cells.push_back({ CellKind::Line, distinct(2) });
    mesh.cells.push_back({ CellKind::Triangle, distinct(3) });
    mesh.cells.push_back({ CellKind::Quad, distinct(4) });
    mesh.cells.push_back({ CellKind::Wedge, distinct(6) });
  }
  // A polygon and a polyline that share edges with cells above.
  mesh.cells.push_back({ CellKind::Polygon, mesh.cells[0].ids });
  mesh.cells.push_back({ CellKind::PolyLine, { mesh.cells[0].ids[0], mesh.cells[0].ids[1], mesh.cells[0].ids[2] } });
  std::shuffle(mesh.cells.begin(), mesh.cells.end(), generator);
  expectMatchesReference(mesh, EntityType::Sides);
  expectMatchesReference(mesh, EntityType::Edges);
}

// The two ways agree buffer for buffer, through every sort of the contiguous way: insertion
// (triangles), ranks (tetrahedron edges, 2 ids; faces, 3), swaps and a heap sort (a vertex of
// degree 4000, whose partition exceeds the private staging).
TEST(CellEntities, AllWaysGiveIdenticalBuffers)
{
  expectAllWaysEqual(shuffled(triangleGrid(40, 30), 31), EntityType::Edges);
  const TestMesh tetrahedra = shuffled(tetraBox(7), 32);
  expectAllWaysEqual(tetrahedra, EntityType::Edges);
  expectAllWaysEqual(tetrahedra, EntityType::Sides);
  expectAllWaysEqual(shuffled(fan(4000), 33), EntityType::Edges);
  expectAllWaysEqual(wedgeWheel(300), EntityType::Sides);
  // Runs of every length up to 97 slots: their bounds are searched for through windows.
  for (int pages : { 3, 4, 5, 97 })
  {
    expectMatchesReference(shuffled(book(pages), 40 + pages), EntityType::Sides);
    expectAllWaysEqual(shuffled(book(pages), 40 + pages), EntityType::Sides);
  }
}

// Left out, the slots' cells and neighbours are not made; every other buffer is as with them.
TEST(CellEntities, NeighborsLeftOutChangeNothingElse)
{
  const TestMesh tetrahedra = shuffled(tetraBox(6), 34);
  for (const Way& way : allWays)
  {
    for (EntityType type : { EntityType::Edges, EntityType::Sides })
    {
      const Built all = build(tetrahedra, type, way);
      const Built some = build(tetrahedra, type, way, SlotNeighbors::LeftOut);
      EXPECT_FALSE(all.neighbor.empty());
      EXPECT_EQ(some.slotOffsets, all.slotOffsets);
      EXPECT_EQ(some.sortedSlots, all.sortedSlots);
      EXPECT_EQ(some.slotEntity, all.slotEntity);
      ASSERT_EQ(some.slotRun.size(), all.slotRun.size());
      for (std::size_t i = 0; i < all.slotRun.size(); ++i)
        ASSERT_EQ(std::make_pair(some.slotRun[i].s[0], some.slotRun[i].s[1]),
          std::make_pair(all.slotRun[i].s[0], all.slotRun[i].s[1]));
      ASSERT_EQ(some.entityVertices.size(), all.entityVertices.size());
      for (std::size_t e = 0; e < all.entityVertices.size(); ++e)
        for (int k = 0; k < 4; ++k)
          ASSERT_EQ(some.entityVertices[e].s[k], all.entityVertices[e].s[k]) << "entity " << e;
    }
  }
}

// With neighbours only, the slots' edges and neighbours are those of the full matching, with
// one fixed-size kind (a slot's cell found by division), kinds mixed (through the slots'
// cells) and a non-manifold fan (whose first cell points to its second, the others to the first).
TEST(CellEntities, NeighborsOnlyAreThoseOfTheFullMatching)
{
  TestMesh fan;
  fan.xyz = { 0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1 };
  fan.cells = { { CellKind::Triangle, { 0, 1, 2 } }, { CellKind::Triangle, { 1, 0, 3 } }, { CellKind::Triangle, { 0, 1, 4 } } };
  TestMesh mixed = shuffled(tetraBox(3), 35);
  mixed.cells.push_back({ CellKind::Triangle, { 0, 1, 2 } });
  mixed.cells.push_back({ CellKind::Quad, { 0, 1, 3, 2 } });
  const std::pair<TestMesh, EntityType> cases[] = { { shuffled(triangleGrid(40, 30), 36), EntityType::Sides },
    { shuffled(tetraBox(6), 37), EntityType::Sides }, { shuffled(tetraBox(5), 38), EntityType::Edges },
    { mixed, EntityType::Edges }, { fan, EntityType::Sides } };
  for (const auto& [mesh, type] : cases)
  {
    for (const Way& way : allWays)
    {
      SCOPED_TRACE(nameOf(way) + ", " + std::to_string(mesh.cells.size()) + " cells");
      const Built all = build(mesh, type, way);
      const Built some = build(mesh, type, way, SlotNeighbors::Only);
      EXPECT_EQ(some.slotOffsets, all.slotOffsets);
      EXPECT_EQ(some.slotEntity, all.slotEntity);
      EXPECT_EQ(some.neighbor, all.neighbor);
    }
  }
  // Over 16 MB of (key, slot) pairs: the contiguous way sorts them in batches of partitions.
  const TestMesh large = shuffled(triangleGrid(520, 520), 40);
  const Built all = build(large, EntityType::Sides, contiguousWay);
  const Built some = build(large, EntityType::Sides, contiguousWay, SlotNeighbors::Only);
  EXPECT_EQ(some.slotEntity, all.slotEntity);
  EXPECT_EQ(some.neighbor, all.neighbor);
  const Built fanOnly = build(fan, EntityType::Sides, contiguousWay, SlotNeighbors::Only);
  // Slot 0 of each triangle is its edge 0-1.
  EXPECT_EQ(fanOnly.neighbor[0], 1);
  EXPECT_EQ(fanOnly.neighbor[3], 0);
  EXPECT_EQ(fanOnly.neighbor[6], 0);
}

// SlotNeighbors::EntityCounts gives the entities of the full matching, each with the length of
// its run (1 on the boundary, 3 on the fan's non-manifold edge), in every way.
TEST(CellEntities, EntityCountsAreTheRunsOfTheFullMatching)
{
  TestMesh fan;
  fan.xyz = { 0, 0, 0, 1, 0, 0, 0.5, 1, 0, 0.5, -1, 0, 0.5, 0, 1 };
  fan.cells = { { CellKind::Triangle, { 0, 1, 2 } }, { CellKind::Triangle, { 1, 0, 3 } }, { CellKind::Triangle, { 0, 1, 4 } } };
  TestMesh mixed = shuffled(tetraBox(3), 42);
  mixed.cells.push_back({ CellKind::Triangle, { 0, 1, 2 } });
  mixed.cells.push_back({ CellKind::Quad, { 0, 1, 3, 2 } });
  const std::pair<TestMesh, EntityType> cases[] = { { shuffled(triangleGrid(40, 30), 43), EntityType::Sides },
    { shuffled(tetraBox(5), 44), EntityType::Sides }, { mixed, EntityType::Edges }, { fan, EntityType::Sides } };
  for (const auto& [mesh, type] : cases)
  {
    for (const Way& way : allWays)
    {
      SCOPED_TRACE(nameOf(way) + ", " + std::to_string(mesh.cells.size()) + " cells");
      const Built all = build(mesh, type, way);
      const Built counts = build(mesh, type, way, SlotNeighbors::EntityCounts);
      ASSERT_EQ(counts.entityVertices.size(), all.entityVertices.size());
      for (std::size_t e = 0; e < all.entityVertices.size(); ++e)
        for (int k = 0; k < 4; ++k)
          ASSERT_EQ(counts.entityVertices[e].s[k], all.entityVertices[e].s[k]) << "entity " << e;
      std::vector<cl_uint> runs(all.entityVertices.size(), 0);
      for (std::size_t s = 0; s < all.slotEntity.size(); ++s)
        ++runs[all.slotEntity[s]];
      EXPECT_EQ(counts.entityCells, runs);
      std::size_t boundary = 0, nonManifold = 0;
      for (const cl_uint cells : counts.entityCells)
      {
        boundary += cells == 1;
        nonManifold += cells > 2;
      }
      if (type == EntityType::Sides) // the fan's shared edge is its only non-manifold side
      {
        EXPECT_GT(boundary, 0u);
        EXPECT_EQ(nonManifold, &mesh == &cases[3].first ? 1u : 0u);
      }
    }
  }
}

// SlotGrouping::Auto goes through windows for a large mesh numbered at random, straight to the
// buckets for the same mesh in row order, and gives the same neighbours either way.
TEST(CellEntities, WindowsChosenForLargeScatteredNumberings)
{
  const TestMesh rows = triangleGrid(850, 850); // 1.4M triangles, 4.3M edge slots (> 2^22)
  const TestMesh randomOrder = shuffled(rows, 41);
  for (const bool scattered : { false, true })
  {
    const TestMesh& mesh = scattered ? randomOrder : rows;
    SCOPED_TRACE(scattered ? "random order" : "row order");
    const HostMesh host = testmesh::toHost(mesh);
    DeviceRun run(DeviceContext::acquire("auto"));
    const DeviceMesh deviceMesh(run, host);
    const CellEntities chosen(run, deviceMesh, EntityType::Edges, AccessPattern::Strided);
    bool windows = false;
    for (const CommandTiming& timing : run.timings())
      windows = windows || timing.label == "group keys by window";
    EXPECT_EQ(windows, scattered);
    const CellEntities direct(
      run, deviceMesh, EntityType::Edges, AccessPattern::Strided, SlotNeighbors::Kept, SlotGrouping::Direct);
    std::vector<cl_int> chosenNeighbors(chosen.slotCount()), directNeighbors(direct.slotCount());
    run.download(chosen.neighbor(), chosenNeighbors.data(), chosenNeighbors.size(), "neighbours");
    run.download(direct.neighbor(), directNeighbors.data(), directNeighbors.size(), "neighbours");
    EXPECT_EQ(chosenNeighbors, directNeighbors);
  }
}

// Lines have edges but no sides: every way matches nothing and says so with empty buffers.
TEST(CellEntities, LinesHaveNoSidesInEveryWay)
{
  TestMesh lines;
  lines.xyz = { 0, 0, 0, 1, 0, 0, 2, 0, 0 };
  lines.cells = { { CellKind::Line, { 0, 1 } }, { CellKind::PolyLine, { 0, 1, 2 } } };
  for (const Way& way : allWays)
  {
    SCOPED_TRACE(nameOf(way));
    const Built sides = build(lines, EntityType::Sides, way);
    EXPECT_TRUE(sides.slotEntity.empty());
    EXPECT_TRUE(sides.sortedSlots.empty());
    EXPECT_TRUE(sides.entityVertices.empty());
    EXPECT_EQ(sides.slotOffsets, std::vector<cl_uint>({ 0, 0, 0 }));
    const Built edges = build(lines, EntityType::Edges, way);
    EXPECT_EQ(edges.slotOffsets, std::vector<cl_uint>({ 0, 1, 3 }));
    EXPECT_EQ(edges.entityVertices.size(), 2u); // (0, 1) twice and (1, 2)
    EXPECT_EQ(edges.neighbor, std::vector<cl_int>({ 1, 0, -1 }));
  }
}
