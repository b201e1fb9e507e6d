// The boundary edges where the cuts of a distributed mesh can run, against a host reference
// that counts each edge's triangles, or each face's tetrahedra; and those among a piece's shared
// points (boundaryEdgeSlotsAmong) against the full matching's, on pieces of several partitions.
#include "gpumesh/topology/BoundaryEdges.h"

#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace gpumesh;

namespace
{
using Edge = std::pair<std::int64_t, std::int64_t>;

Edge edgeOf(std::int64_t a, std::int64_t b)
{
  return { std::min(a, b), std::max(a, b) };
}

// slot -> its edge, for every slot of a boundary edge (the reference).
std::map<cl_int, Edge> referenceSlots(const testmesh::Mesh& mesh, bool tetrahedra)
{
  static const int triangleEdges[3][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 } };
  static const int tetraEdges[6][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 0, 3 }, { 1, 3 }, { 2, 3 } };
  static const int tetraFaces[4][3] = { { 0, 1, 3 }, { 1, 2, 3 }, { 2, 0, 3 }, { 0, 2, 1 } };
  std::set<Edge> boundary;
  if (tetrahedra)
  {
    std::map<std::array<std::int64_t, 3>, int> faceUses;
    for (const auto& cell : mesh.cells)
      for (const auto& f : tetraFaces)
      {
        std::array<std::int64_t, 3> face = { cell.ids[f[0]], cell.ids[f[1]], cell.ids[f[2]] };
        std::sort(face.begin(), face.end());
        ++faceUses[face];
      }
    for (const auto& [face, uses] : faceUses)
      if (uses == 1)
        boundary.insert({ edgeOf(face[0], face[1]), edgeOf(face[1], face[2]), edgeOf(face[0], face[2]) });
  }
  else
  {
    std::map<Edge, int> edgeUses;
    for (const auto& cell : mesh.cells)
      for (const auto& e : triangleEdges)
        ++edgeUses[edgeOf(cell.ids[e[0]], cell.ids[e[1]])];
    for (const auto& [edge, uses] : edgeUses)
      if (uses == 1)
        boundary.insert(edge);
  }
  std::map<cl_int, Edge> slots;
  const int perCell = tetrahedra ? 6 : 3;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
    for (int e = 0; e < perCell; ++e)
    {
      const auto& local = tetrahedra ? tetraEdges[e] : triangleEdges[e];
      const Edge edge = edgeOf(mesh.cells[c].ids[local[0]], mesh.cells[c].ids[local[1]]);
      if (boundary.count(edge))
        slots[static_cast<cl_int>(perCell * c + e)] = edge;
    }
  return slots;
}

void expectMatchesReference(const testmesh::Mesh& mesh, bool tetrahedra)
{
  DeviceRun run(DeviceContext::acquire("0"));
  const BoundaryEdgeSlots found = boundaryEdgeSlots(run, DeviceMesh(run, testmesh::toHost(mesh)));
  ASSERT_EQ(found.slots.size(), found.ends.size());
  std::map<cl_int, Edge> slots;
  for (std::size_t i = 0; i < found.slots.size(); ++i)
  {
    EXPECT_LT(found.ends[i].s[0], found.ends[i].s[1]) << "slot " << found.slots[i];
    slots[found.slots[i]] = { found.ends[i].s[0], found.ends[i].s[1] };
  }
  EXPECT_TRUE(std::is_sorted(found.slots.begin(), found.slots.end()));
  EXPECT_EQ(slots, referenceSlots(mesh, tetrahedra));
}
} // namespace

// A 3 x 3 grid of squares, each split into 2 triangles: the 12 perimeter edges, one slot each.
TEST(BoundaryEdges, TrianglesUsedOnce)
{
  testmesh::Mesh mesh;
  const int n = 3;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j), 0.0 });
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      const std::int64_t a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      mesh.cells.push_back({ CellKind::Triangle, { a, b, c } });
      mesh.cells.push_back({ CellKind::Triangle, { a, c, d } });
    }
  expectMatchesReference(mesh, false);
  DeviceRun run(DeviceContext::acquire("0"));
  EXPECT_EQ(boundaryEdgeSlots(run, DeviceMesh(run, testmesh::toHost(mesh))).slots.size(), 12u);
}

// A cube cut into its 6 Kuhn tetrahedra around the diagonal 0-7: every edge but that diagonal
// is on a boundary face, with all its slots (36 slots, less the diagonal's 6).
TEST(BoundaryEdges, EdgesOfTetrahedronFacesUsedOnce)
{
  testmesh::Mesh mesh;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j), double(k) });
  for (const auto& t : std::vector<std::array<std::int64_t, 4>>{
         { 0, 1, 3, 7 }, { 0, 1, 5, 7 }, { 0, 2, 3, 7 }, { 0, 2, 6, 7 }, { 0, 4, 5, 7 }, { 0, 4, 6, 7 } })
    mesh.cells.push_back({ CellKind::Tetra, { t[0], t[1], t[2], t[3] } });
  expectMatchesReference(mesh, true);
  DeviceRun run(DeviceContext::acquire("0"));
  const BoundaryEdgeSlots found = boundaryEdgeSlots(run, DeviceMesh(run, testmesh::toHost(mesh)));
  EXPECT_EQ(found.slots.size(), 30u);
  for (const cl_int2& ends : found.ends)
    EXPECT_FALSE(ends.s[0] == 0 && ends.s[1] == 7);
}

TEST(BoundaryEdges, OtherCellsAreAnError)
{
  testmesh::Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
  mesh.cells.push_back({ CellKind::Quad, { 0, 1, 2, 3 } });
  DeviceRun run(DeviceContext::acquire("0"));
  EXPECT_THROW(boundaryEdgeSlots(run, DeviceMesh(run, testmesh::toHost(mesh))), Error);
}

namespace
{
// A grid of n x n squares, two triangles each, less the squares in [3, 5) x [4, 6) (a hole).
testmesh::Mesh triangleGridWithHole(int n)
{
  testmesh::Mesh mesh;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j), 0.0 });
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      if (i >= 3 && i < 5 && j >= 4 && j < 6)
        continue;
      const std::int64_t a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      mesh.cells.push_back({ CellKind::Triangle, { a, b, c } });
      mesh.cells.push_back({ CellKind::Triangle, { a, c, d } });
    }
  return mesh;
}

// A grid of n^3 cubes, 6 Kuhn tetrahedra each, less the cube (1, 1, 1) (a cavity) and the
// cubes (n - 1, 0, k) (a notch in the outer boundary).
testmesh::Mesh tetraGridWithHoles(int n)
{
  testmesh::Mesh mesh;
  const auto id = [n](int i, int j, int k) { return std::int64_t((k * (n + 1) + j) * (n + 1) + i); };
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i)
        mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j), double(k) });
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
      {
        if ((i == 1 && j == 1 && k == 1) || (i == n - 1 && j == 0))
          continue;
        std::int64_t v[8];
        for (int c = 0; c < 8; ++c)
          v[c] = id(i + (c & 1), j + ((c >> 1) & 1), k + ((c >> 2) & 1));
        for (const auto& t : std::vector<std::array<int, 4>>{
               { 0, 1, 3, 7 }, { 0, 1, 5, 7 }, { 0, 2, 3, 7 }, { 0, 2, 6, 7 }, { 0, 4, 5, 7 }, { 0, 4, 6, 7 } })
          mesh.cells.push_back({ CellKind::Tetra, { v[t[0]], v[t[1]], v[t[2]], v[t[3]] } });
      }
  return mesh;
}

// Each piece of `mesh` split by `pieceOf` (cell -> piece) against the full matching: the piece's
// cells (in order, on every point of the mesh) and its points that another piece uses too, as
// a distributed run's interface gives them. Both ways of boundaryEdgeSlotsAmong (host and the
// device's full matching) must give the full matching's slots with both ends shared, and the
// host reference's. Returns how many slots were found over the pieces.
std::size_t expectPiecesMatch(const testmesh::Mesh& mesh, bool tetrahedra, int pieces,
  const std::function<int(std::size_t)>& pieceOf)
{
  DeviceRun run(DeviceContext::acquire("0"));
  std::vector<std::set<int>> users(mesh.points());
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
    for (std::int64_t p : mesh.cells[c].ids)
      users[static_cast<std::size_t>(p)].insert(pieceOf(c));
  std::size_t total = 0;
  for (int piece = 0; piece < pieces; ++piece)
  {
    testmesh::Mesh part;
    part.xyz = mesh.xyz;
    for (std::size_t c = 0; c < mesh.cells.size(); ++c)
      if (pieceOf(c) == piece)
        part.cells.push_back(mesh.cells[c]);
    std::vector<cl_int> shared;
    std::set<cl_int> sharedSet;
    for (std::size_t p = 0; p < users.size(); ++p)
      if (users[p].count(piece) && users[p].size() > 1)
      {
        shared.push_back(static_cast<cl_int>(p));
        sharedSet.insert(static_cast<cl_int>(p));
      }
    std::reverse(shared.begin(), shared.end()); // any order
    const DeviceMesh device(run, testmesh::toHost(part));
    const BoundaryEdgeSlots all = boundaryEdgeSlots(run, device);
    std::vector<cl_int> expectedSlots;
    std::vector<Edge> expectedEnds;
    for (std::size_t i = 0; i < all.slots.size(); ++i)
      if (sharedSet.count(all.ends[i].s[0]) && sharedSet.count(all.ends[i].s[1]))
      {
        expectedSlots.push_back(all.slots[i]);
        expectedEnds.push_back({ all.ends[i].s[0], all.ends[i].s[1] });
      }
    std::map<cl_int, Edge> reference;
    for (const auto& [slot, edge] : referenceSlots(part, tetrahedra))
      if (sharedSet.count(static_cast<cl_int>(edge.first)) && sharedSet.count(static_cast<cl_int>(edge.second)))
        reference[slot] = edge;
    std::map<cl_int, Edge> expected;
    for (std::size_t i = 0; i < expectedSlots.size(); ++i)
      expected[expectedSlots[i]] = expectedEnds[i];
    EXPECT_EQ(expected, reference) << "piece " << piece;
    for (double hostFraction : { 1.0, 0.0, 1.0 / 16 })
    {
      const BoundaryEdgeSlots found = boundaryEdgeSlotsAmong(run, device, shared, hostFraction);
      EXPECT_EQ(found.slots.size(), found.ends.size());
      EXPECT_EQ(found.slots, expectedSlots) << "piece " << piece << ", host fraction " << hostFraction;
      std::vector<Edge> ends;
      for (const cl_int2& e : found.ends)
        ends.push_back({ e.s[0], e.s[1] });
      EXPECT_EQ(ends, expectedEnds) << "piece " << piece << ", host fraction " << hostFraction;
    }
    total += expectedSlots.size();
  }
  return total;
}

// A piece in [0, pieces) per cell, drawn at random (interleaved pieces: nearly every point shared).
std::vector<int> randomPieces(std::size_t cells, int pieces, unsigned seed)
{
  std::mt19937 random(seed);
  std::vector<int> piece(cells);
  for (int& p : piece)
    p = static_cast<int>(random() % static_cast<unsigned>(pieces));
  return piece;
}
} // namespace

// Triangles with a hole, cut into 2 halves, 4 quadrants (cuts meet the hole and the outer
// boundary) and 3 interleaved pieces (random cells: nearly every point shared).
TEST(BoundaryEdges, AmongSharedPointsOfTrianglePieces)
{
  const int n = 10;
  const testmesh::Mesh mesh = triangleGridWithHole(n);
  const auto x = [&](std::size_t c) { return mesh.xyz[3 * mesh.cells[c].ids[0]] + mesh.xyz[3 * mesh.cells[c].ids[2]]; };
  const auto y = [&](std::size_t c) { return mesh.xyz[3 * mesh.cells[c].ids[0] + 1] + mesh.xyz[3 * mesh.cells[c].ids[2] + 1]; };
  EXPECT_GT(expectPiecesMatch(mesh, false, 2, [&](std::size_t c) { return x(c) < 7.0 ? 0 : 1; }), 0u);
  EXPECT_GT(expectPiecesMatch(mesh, false, 4, [&](std::size_t c) { return (x(c) < 8.0 ? 0 : 1) + (y(c) < 10.0 ? 0 : 2); }), 0u);
  const std::vector<int> pieces = randomPieces(mesh.cells.size(), 3, 7);
  EXPECT_GT(expectPiecesMatch(mesh, false, 3, [&](std::size_t c) { return pieces[c]; }), 0u);
}

// Tetrahedra with a cavity and a notch, cut into 2 slabs, 4 columns and 2 interleaved pieces.
TEST(BoundaryEdges, AmongSharedPointsOfTetrahedronPieces)
{
  const int n = 4;
  const testmesh::Mesh mesh = tetraGridWithHoles(n);
  const auto centre = [&](std::size_t c, int axis) {
    double sum = 0;
    for (std::int64_t p : mesh.cells[c].ids)
      sum += mesh.xyz[3 * p + axis];
    return sum / 4;
  };
  EXPECT_GT(expectPiecesMatch(mesh, true, 2, [&](std::size_t c) { return centre(c, 2) < 2.0 ? 0 : 1; }), 0u);
  EXPECT_GT(expectPiecesMatch(mesh, true, 4,
              [&](std::size_t c) { return (centre(c, 0) < 1.5 ? 0 : 1) + (centre(c, 1) < 2.5 ? 0 : 2); }),
    0u);
  const std::vector<int> pieces = randomPieces(mesh.cells.size(), 2, 11);
  EXPECT_GT(expectPiecesMatch(mesh, true, 2, [&](std::size_t c) { return pieces[c]; }), 0u);
}

// Pieces large enough that the host's matching runs in several blocks on several threads and
// sorts its tables in parallel (more than 4,096 cells with two shared points, more than 32,768
// faces or slots): interleaved pieces, where nearly every cell holds two shared points.
TEST(BoundaryEdges, AmongSharedPointsOfLargePieces)
{
  const testmesh::Mesh tetrahedra = tetraGridWithHoles(18);
  ASSERT_GT(tetrahedra.cells.size(), 30000u);
  const std::vector<int> tetraPieces = randomPieces(tetrahedra.cells.size(), 2, 5);
  EXPECT_GT(expectPiecesMatch(tetrahedra, true, 2, [&](std::size_t c) { return tetraPieces[c]; }), 10000u);
  const testmesh::Mesh triangles = triangleGridWithHole(160);
  ASSERT_GT(triangles.cells.size(), 40000u);
  const std::vector<int> trianglePieces = randomPieces(triangles.cells.size(), 2, 9);
  EXPECT_GT(expectPiecesMatch(triangles, false, 2, [&](std::size_t c) { return trianglePieces[c]; }), 10000u);
}

// No cells, no points listed, a point outside the mesh, cells of another kind.
TEST(BoundaryEdges, AmongEdgeCases)
{
  DeviceRun run(DeviceContext::acquire("0"));
  testmesh::Mesh empty;
  empty.xyz = { 0, 0, 0, 1, 0, 0 };
  EXPECT_TRUE(boundaryEdgeSlotsAmong(run, DeviceMesh(run, testmesh::toHost(empty)), { 0, 1 }).slots.empty());
  const testmesh::Mesh mesh = triangleGridWithHole(6);
  const DeviceMesh device(run, testmesh::toHost(mesh));
  EXPECT_TRUE(boundaryEdgeSlotsAmong(run, device, {}).slots.empty());
  // Two corner points of the grid with no edge between them, and one edge of the perimeter.
  EXPECT_TRUE(boundaryEdgeSlotsAmong(run, device, { 0, 6 }, 1.0).slots.empty());
  const BoundaryEdgeSlots one = boundaryEdgeSlotsAmong(run, device, { 1, 0, 1 }, 1.0);
  ASSERT_EQ(one.slots.size(), 1u);
  EXPECT_EQ(one.slots[0], 0); // triangle 0's edge 0-1
  EXPECT_EQ(one.ends[0].s[0], 0);
  EXPECT_EQ(one.ends[0].s[1], 1);
  EXPECT_THROW(boundaryEdgeSlotsAmong(run, device, { 0, 49 }), Error);
  EXPECT_THROW(boundaryEdgeSlotsAmong(run, device, { -1, 0 }), Error);
  testmesh::Mesh quad;
  quad.xyz = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
  quad.cells.push_back({ CellKind::Quad, { 0, 1, 2, 3 } });
  EXPECT_THROW(boundaryEdgeSlotsAmong(run, DeviceMesh(run, testmesh::toHost(quad)), { 0, 1 }), Error);
}
