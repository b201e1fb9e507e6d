// The cells holding listed points (cellsTouchingPoints) against a host loop over every cell, on
// a mesh of lines, triangles, quads and a polygon (fixed and variable kinds, so the groups'
// lists are merged) and a hub of 3,000 cells; and no answer where the mesh left cells out.
#include "gpumesh/topology/CellsTouching.h"

#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

using namespace gpumesh;

namespace
{
// An n x n grid of unit squares (quads, or two triangles each), lines along its bottom, a
// pentagon beside it, and a fan of `fan` triangles around one hub point above it.
testmesh::Mesh mixedMesh(int n, int fan)
{
  testmesh::Mesh mesh;
  const auto at = [n](int i, int j) { return static_cast<std::int64_t>(j * (n + 1) + i); };
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j), 0.0 });
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      const std::int64_t a = at(i, j), b = at(i + 1, j), c = at(i + 1, j + 1), d = at(i, j + 1);
      if ((i + j) % 3 == 0)
        mesh.cells.push_back({ CellKind::Quad, { a, b, c, d } });
      else
      {
        mesh.cells.push_back({ CellKind::Triangle, { a, b, c } });
        mesh.cells.push_back({ CellKind::Triangle, { a, c, d } });
      }
    }
  for (int i = 0; i < n; ++i)
    mesh.cells.push_back({ CellKind::Line, { at(i, 0), at(i + 1, 0) } });
  const auto first = static_cast<std::int64_t>(mesh.points());
  mesh.xyz.insert(mesh.xyz.end(), { -1.0, 0.0, 0.0, -2.0, 0.5, 0.0, -1.0, 1.0, 0.0 });
  mesh.cells.push_back({ CellKind::Polygon, { at(0, 0), first, first + 1, first + 2, at(0, 1) } });
  const auto hub = static_cast<std::int64_t>(mesh.points());
  mesh.xyz.insert(mesh.xyz.end(), { 0.5 * n, n + 5.0, 0.0 });
  for (int k = 0; k <= fan; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { double(k) * n / fan, n + 1.0, 0.0 });
  for (int k = 0; k < fan; ++k)
    mesh.cells.push_back({ CellKind::Triangle, { hub, hub + 1 + k, hub + 2 + k } });
  return mesh;
}

std::vector<std::int64_t> reference(const testmesh::Mesh& mesh, const std::vector<cl_int>& points)
{
  const std::set<std::int64_t> listed(points.begin(), points.end());
  std::vector<std::int64_t> cells;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const auto& ids = mesh.cells[c].ids;
    if (std::any_of(ids.begin(), ids.end(), [&](std::int64_t p) { return listed.count(p) > 0; }))
      cells.push_back(static_cast<std::int64_t>(c));
  }
  return cells;
}
} // namespace

TEST(CellsTouching, TheCellsOfListedPointsOfEveryKind)
{
  const testmesh::Mesh mesh = mixedMesh(40, 3000);
  DeviceRun run(DeviceContext::acquire("0"));
  const DeviceMesh device(run, testmesh::toHost(mesh));
  ASSERT_EQ(device.groups().size(), 4u); // lines, triangles, quads, the polygon
  std::mt19937 random(7);
  std::uniform_int_distribution<cl_int> anyPoint(0, static_cast<cl_int>(mesh.points()) - 1);
  const auto hub = static_cast<cl_int>(mesh.points()) - 3002;
  std::vector<std::vector<cl_int>> lists = {
    {},                    // nothing listed
    { 0 },                 // a corner: a line, the polygon and a quad
    { hub },               // 3,000 cells
    { hub, hub, 5, 5, 0 }, // repeats
  };
  for (int size : { 1, 10, 300 })
  {
    std::vector<cl_int> list;
    for (int k = 0; k < size; ++k)
      list.push_back(anyPoint(random));
    lists.push_back(list);
  }
  for (const auto& list : lists)
  {
    const auto found = cellsTouchingPoints(run, device, list);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(*found, reference(mesh, list)) << list.size() << " points listed";
  }
  EXPECT_THROW(cellsTouchingPoints(run, device, { static_cast<cl_int>(mesh.points()) }), Error);
  EXPECT_THROW(cellsTouchingPoints(run, device, { -1 }), Error);
}

TEST(CellsTouching, NoAnswerWhereTheMeshLeftCellsOut)
{
  const testmesh::Mesh mesh = mixedMesh(6, 4);
  DeviceRun run(DeviceContext::acquire("0"));
  // Surface cells and up: the lines are left out, and a point of the bottom row touches one.
  const DeviceMesh surfaces(run, testmesh::toHost(mesh), 2);
  EXPECT_FALSE(cellsTouchingPoints(run, surfaces, { 1 }).has_value());
}
