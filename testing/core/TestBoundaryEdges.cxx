// The boundary edges where the cuts of a distributed mesh can run, against a host reference
// that counts each edge's triangles, or each face's tetrahedra.
#include "gpumesh/topology/BoundaryEdges.h"

#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <set>

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
