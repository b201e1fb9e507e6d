// The edges selected on the device against host references: every edge once with its lowest
// cell, boundary edges (one 2D cell), feature edges (two 2D cells whose normals part by more than
// the angle), and edges split between owners.
#include "gpumesh/algorithms/EdgeExtraction.h"

#include "MeshGenerators.h"
#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

using namespace gpumesh;
using namespace gpumesh::benchmark;

namespace
{
using Edge = std::pair<std::int64_t, std::int64_t>;
// edge -> its lowest cell
using Edges = std::map<Edge, std::int64_t>;

Edge edgeOf(std::int64_t a, std::int64_t b)
{
  return { std::min(a, b), std::max(a, b) };
}

// VTK's edges of each kind of 2 or 3 dimensions (polygons: around the cell).
std::vector<std::pair<int, int>> edgesOf(CellKind kind, int n)
{
  switch (kind)
  {
    case CellKind::Tetra:
      return { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 0, 3 }, { 1, 3 }, { 2, 3 } };
    case CellKind::Hexahedron:
      return { { 0, 1 }, { 1, 2 }, { 3, 2 }, { 0, 3 }, { 4, 5 }, { 5, 6 }, { 7, 6 }, { 4, 7 }, { 0, 4 }, { 1, 5 },
        { 3, 7 }, { 2, 6 } };
    case CellKind::Triangle:
    case CellKind::Quad:
    case CellKind::Polygon:
    {
      std::vector<std::pair<int, int>> around;
      for (int k = 0; k < n; ++k)
        around.emplace_back(k, (k + 1) % n);
      return around;
    }
    default:
      return {};
  }
}

// Per edge of the 2D and 3D cells: its cells, in cell order.
std::map<Edge, std::vector<std::int64_t>> edgeCells(const testmesh::Mesh& mesh)
{
  std::map<Edge, std::vector<std::int64_t>> cells;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const auto& cell = mesh.cells[c];
    for (const auto& [a, b] : edgesOf(cell.kind, static_cast<int>(cell.ids.size())))
      cells[edgeOf(cell.ids[a], cell.ids[b])].push_back(static_cast<std::int64_t>(c));
  }
  return cells;
}

std::array<double, 3> point(const testmesh::Mesh& mesh, std::int64_t p)
{
  return { mesh.xyz[3 * p], mesh.xyz[3 * p + 1], mesh.xyz[3 * p + 2] };
}

// Newell's normal of a 2D cell, normalised.
std::array<double, 3> normalOf(const testmesh::Mesh& mesh, const testmesh::Cell& cell)
{
  std::array<double, 3> n{ 0, 0, 0 };
  for (std::size_t k = 0; k < cell.ids.size(); ++k)
  {
    const auto p = point(mesh, cell.ids[k]);
    const auto q = point(mesh, cell.ids[(k + 1) % cell.ids.size()]);
    n[0] += (p[1] - q[1]) * (p[2] + q[2]);
    n[1] += (p[2] - q[2]) * (p[0] + q[0]);
    n[2] += (p[0] - q[0]) * (p[1] + q[1]);
  }
  const double length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
  for (double& x : n)
    x = length > 0 ? x / length : 0.0;
  return n;
}

Edges reference(const testmesh::Mesh& mesh, EdgeSelection selection, double angle = 30.0)
{
  Edges edges;
  const double cosAngle = std::cos(angle * M_PI / 180.0);
  for (const auto& [edge, cells] : edgeCells(mesh))
  {
    bool keep = selection == EdgeSelection::All;
    if (cells.size() == 1 && (selection == EdgeSelection::Boundary || selection == EdgeSelection::BoundaryAndFeature))
      keep = true;
    if (cells.size() == 2 && (selection == EdgeSelection::Feature || selection == EdgeSelection::BoundaryAndFeature))
    {
      const auto a = normalOf(mesh, mesh.cells[cells[0]]);
      const auto b = normalOf(mesh, mesh.cells[cells[1]]);
      keep = keep || a[0] * b[0] + a[1] * b[1] + a[2] * b[2] <= cosAngle;
    }
    if (keep)
      edges[edge] = cells.front();
  }
  return edges;
}

Edges device(const testmesh::Mesh& mesh, EdgeSelection selection, double angle = 30.0, const EdgeOwners* owners = nullptr)
{
  DeviceRun run(DeviceContext::acquire("0"));
  const ExtractedEdges found = extractEdges(run, DeviceMesh(run, testmesh::toHost(mesh), 2), selection, angle, owners);
  EXPECT_EQ(found.cells.size(), found.ends.size());
  Edges edges;
  for (std::size_t e = 0; e < found.cells.size(); ++e)
  {
    EXPECT_LT(found.ends[e].s[0], found.ends[e].s[1]);
    EXPECT_TRUE(edges.emplace(Edge{ found.ends[e].s[0], found.ends[e].s[1] }, found.cells[e]).second) << "twice";
  }
  return edges;
}

// An n x n grid of unit squares in z = 0, each split in two triangles, folded up along x = fold
// by `degrees` (the cells beyond the fold rise).
testmesh::Mesh foldedGrid(int n, int fold, double degrees)
{
  testmesh::Mesh mesh;
  const double t = degrees * M_PI / 180.0;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
    {
      const double beyond = std::max(0, i - fold);
      mesh.xyz.insert(mesh.xyz.end(), { std::min(i, fold) + beyond * std::cos(t), double(j), beyond * std::sin(t) });
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      const std::int64_t a = j * (n + 1) + i, b = a + 1, c = a + n + 2, d = a + n + 1;
      mesh.cells.push_back({ CellKind::Triangle, { a, b, c } });
      mesh.cells.push_back({ CellKind::Triangle, { a, c, d } });
    }
  return mesh;
}
} // namespace

TEST(EdgeExtraction, EveryEdgeOnceWithItsLowestCell)
{
  const auto box = testmesh::fromGenerated<testmesh::Mesh>(tetrahedronBox(2000, 3));
  const Edges expected = reference(box, EdgeSelection::All);
  EXPECT_EQ(device(box, EdgeSelection::All), expected);
  GeneratedMesh shuffled = tetrahedronBox(2000, 3);
  shuffle(shuffled);
  const auto other = testmesh::fromGenerated<testmesh::Mesh>(shuffled);
  EXPECT_EQ(device(other, EdgeSelection::All), reference(other, EdgeSelection::All));
}

// Triangles, a quad, a polygon and a hexahedron and tetrahedron together; lines have no edges.
TEST(EdgeExtraction, MixedKindsLinesLeftOut)
{
  testmesh::Mesh mesh;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j), double(k) });
  mesh.xyz.insert(mesh.xyz.end(), { 2, 0, 0, 2, 1, 0, 3, 0.5, 0, 0.5, 0.5, 2 }); // 8..11
  mesh.cells.push_back({ CellKind::Hexahedron, { 0, 1, 3, 2, 4, 5, 7, 6 } });
  mesh.cells.push_back({ CellKind::Tetra, { 4, 5, 7, 11 } });
  mesh.cells.push_back({ CellKind::Quad, { 1, 8, 9, 3 } });
  mesh.cells.push_back({ CellKind::Triangle, { 8, 10, 9 } });
  mesh.cells.push_back({ CellKind::Polygon, { 0, 1, 8, 10 } });
  testmesh::Mesh withLine = mesh;
  withLine.cells.push_back({ CellKind::Line, { 6, 10 } });
  const Edges expected = reference(mesh, EdgeSelection::All);
  EXPECT_EQ(device(withLine, EdgeSelection::All), expected);
  EXPECT_EQ(expected.count(Edge{ 6, 10 }), 0u);
}

TEST(EdgeExtraction, BoundaryEdgesOfTriangles)
{
  const testmesh::Mesh grid = foldedGrid(4, 2, 0.0);
  const Edges boundary = device(grid, EdgeSelection::Boundary);
  EXPECT_EQ(boundary, reference(grid, EdgeSelection::Boundary));
  EXPECT_EQ(boundary.size(), 16u);
}

// Folded by 20 or 40 degrees: the fold's 4 edges are feature edges above 30 degrees only; the
// diagonals and the flat edges never are.
TEST(EdgeExtraction, FeatureEdgesAboveTheAngle)
{
  for (double degrees : { 20.0, 40.0, 89.0 })
  {
    const testmesh::Mesh grid = foldedGrid(4, 2, degrees);
    const Edges features = device(grid, EdgeSelection::Feature, 30.0);
    EXPECT_EQ(features, reference(grid, EdgeSelection::Feature, 30.0)) << degrees;
    EXPECT_EQ(features.size(), degrees > 30.0 ? 4u : 0u) << degrees;
    EXPECT_EQ(device(grid, EdgeSelection::BoundaryAndFeature, 30.0), reference(grid, EdgeSelection::BoundaryAndFeature, 30.0));
    EXPECT_EQ(device(grid, EdgeSelection::Feature, 10.0).size(), 4u) << degrees;
  }
}

// Cells split between owners 0 and 1: each edge goes to the lower owner among its cells, so the
// two selections are disjoint and together every edge.
TEST(EdgeExtraction, OwnersSplitTheEdges)
{
  const auto box = testmesh::fromGenerated<testmesh::Mesh>(tetrahedronBox(1500, 9));
  const auto edgeCellLists = edgeCells(box);
  EdgeOwners owners;
  for (std::size_t c = 0; c < box.cells.size(); ++c)
    owners.owner.push_back(box.xyz[3 * box.cells[c].ids[0]] < 3.0 ? 1 : 0);
  Edges together;
  for (cl_int self : { 0, 1 })
  {
    owners.self = self;
    for (const auto& [edge, cell] : device(box, EdgeSelection::All, 30.0, &owners))
    {
      cl_int lowest = 1;
      for (std::int64_t c : edgeCellLists.at(edge))
        lowest = std::min(lowest, owners.owner[c]);
      EXPECT_EQ(lowest, self);
      EXPECT_TRUE(together.emplace(edge, cell).second);
    }
  }
  EXPECT_EQ(together, reference(box, EdgeSelection::All));
}

TEST(EdgeExtraction, BoundaryOfVolumeCellsIsAnError)
{
  const auto box = testmesh::fromGenerated<testmesh::Mesh>(tetrahedronBox(10, 1));
  EXPECT_THROW(device(box, EdgeSelection::Boundary), Error);
  const testmesh::Mesh grid = foldedGrid(2, 1, 45.0);
  EXPECT_THROW(device(grid, EdgeSelection::Feature, 200.0), Error);
  testmesh::Mesh empty;
  EXPECT_TRUE(device(empty, EdgeSelection::All).empty());
}
