// Longest-edge bisection of tetrahedra: worked examples by hand, conformity and volumes on a
// jittered Kuhn mesh, and the bad inputs that must be named.
#include "gpumesh/algorithms/refinement/TetraRefinement.h"

#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>

using namespace gpumesh;

namespace
{
using Point = std::array<double, 3>;
using Tet = std::array<cl_int, 4>;

struct Refined
{
  std::vector<Point> points;
  std::vector<Tet> tetrahedra;
  std::vector<cl_int> parent;
  std::vector<cl_int2> pointParents;
};

testmesh::Mesh tetMesh(const std::vector<Point>& points, const std::vector<Tet>& tets)
{
  testmesh::Mesh mesh;
  for (const Point& p : points)
    mesh.xyz.insert(mesh.xyz.end(), p.begin(), p.end());
  for (const Tet& t : tets)
    mesh.cells.push_back({ CellKind::Tetra, { t[0], t[1], t[2], t[3] } });
  return mesh;
}

Refined refine(const std::vector<Point>& points, const std::vector<Tet>& tets, const std::vector<cl_int>& marked,
  int passes = 1, Precision precision = Precision::Double)
{
  DeviceRun run(DeviceContext::acquire("auto"), precision);
  RefinedSimplices result = refineTetrahedra(run, DeviceMesh(run, testmesh::toHost(tetMesh(points, tets))), marked, passes);
  Refined refined;
  std::vector<cl_int> connectivity;
  result.download(run, connectivity, refined.parent);
  refined.pointParents.resize(result.newPointCount);
  run.download(result.pointParents, refined.pointParents.data(), refined.pointParents.size(), "point parents");
  refined.points = points;
  for (const cl_int2& pair : refined.pointParents)
  {
    const Point a = refined.points[static_cast<std::size_t>(pair.s[0])];
    const Point b = refined.points[static_cast<std::size_t>(pair.s[1])];
    refined.points.push_back({ 0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]), 0.5 * (a[2] + b[2]) });
  }
  for (std::size_t t = 0; t < result.cellCount; ++t)
    refined.tetrahedra.push_back({ connectivity[4 * t], connectivity[4 * t + 1], connectivity[4 * t + 2], connectivity[4 * t + 3] });
  return refined;
}

double volume(const std::vector<Point>& p, const Tet& t)
{
  const Point& a = p[t[0]];
  double u[3], v[3], w[3];
  for (int k = 0; k < 3; ++k)
  {
    u[k] = p[t[1]][k] - a[k];
    v[k] = p[t[2]][k] - a[k];
    w[k] = p[t[3]][k] - a[k];
  }
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0])) / 6.0;
}

using Face = std::array<cl_int, 3>;
std::map<Face, int> faceUses(const std::vector<Tet>& tets)
{
  static const int faces[4][3] = { { 0, 1, 3 }, { 1, 2, 3 }, { 2, 0, 3 }, { 0, 2, 1 } };
  std::map<Face, int> uses;
  for (const Tet& t : tets)
    for (const auto& f : faces)
    {
      Face key = { t[f[0]], t[f[1]], t[f[2]] };
      std::sort(key.begin(), key.end());
      ++uses[key];
    }
  return uses;
}

double area(const std::vector<Point>& p, const Face& f)
{
  double u[3], v[3];
  for (int k = 0; k < 3; ++k)
  {
    u[k] = p[f[1]][k] - p[f[0]][k];
    v[k] = p[f[2]][k] - p[f[0]][k];
  }
  const double c[3] = { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
  return 0.5 * std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
}

double boundaryArea(const std::vector<Point>& p, const std::vector<Tet>& tets)
{
  double sum = 0.0;
  for (const auto& [face, uses] : faceUses(tets))
  {
    EXPECT_LE(uses, 2) << "a face shared by more than two tetrahedra";
    if (uses == 1)
      sum += area(p, face);
  }
  return sum;
}

// A jittered n x n x n grid of cubes, each cut into the 6 Kuhn tetrahedra (conforming).
std::pair<std::vector<Point>, std::vector<Tet>> kuhnMesh(int n, unsigned seed)
{
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> jitter(-0.2, 0.2);
  std::vector<Point> points;
  const auto id = [n](int i, int j, int k) { return static_cast<cl_int>((k * (n + 1) + j) * (n + 1) + i); };
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i)
      {
        const bool inside = i > 0 && i < n && j > 0 && j < n && k > 0 && k < n;
        points.push_back({ i + (inside ? jitter(random) : 0.0), j + (inside ? jitter(random) : 0.0),
          k + (inside ? jitter(random) : 0.0) });
      }
  std::vector<Tet> tets;
  const int paths[6][3] = { { 0, 1, 2 }, { 0, 2, 1 }, { 1, 0, 2 }, { 1, 2, 0 }, { 2, 0, 1 }, { 2, 1, 0 } };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& path : paths)
        {
          int c[3] = { i, j, k };
          Tet t{};
          t[0] = id(c[0], c[1], c[2]);
          for (int s = 0; s < 3; ++s)
          {
            ++c[path[s]];
            t[s + 1] = id(c[0], c[1], c[2]);
          }
          if (volume(points, t) < 0)
            std::swap(t[2], t[3]);
          tets.push_back(t);
        }
  return { points, tets };
}

// Every child inside its parent's orientation, parents' volumes split exactly, boundary only
// split, every face shared by at most two tetrahedra.
void expectValidRefinement(const std::vector<Point>& points, const std::vector<Tet>& tets, const Refined& refined)
{
  std::vector<double> sum(tets.size(), 0.0);
  for (std::size_t t = 0; t < refined.tetrahedra.size(); ++t)
  {
    const double v = volume(refined.points, refined.tetrahedra[t]);
    const double parent = volume(points, tets[static_cast<std::size_t>(refined.parent[t])]);
    EXPECT_GT(v * parent, 0.0) << "child " << t << " flipped or flat";
    sum[static_cast<std::size_t>(refined.parent[t])] += v;
  }
  for (std::size_t p = 0; p < tets.size(); ++p)
    EXPECT_NEAR(sum[p], volume(points, tets[p]), 1e-12 * std::abs(volume(points, tets[p]))) << "parent " << p;
  EXPECT_NEAR(boundaryArea(refined.points, refined.tetrahedra), boundaryArea(points, tets), 1e-9);
}

const std::vector<Point> corner = { { 0, 0, 0 }, { 3, 0, 0 }, { 0, 2, 0 }, { 0, 0, 1 }, { 0, 0, -1 } };
} // namespace

// Edge lengths 3, sqrt(13), 2, 1, sqrt(10), sqrt(5): the longest is (1 2), local edge 1 (positions
// 1 and 2), whose two faces have it as their longest too, so the closure is that edge alone.
TEST(TetraRefinement, SingleTetrahedronIsBisectedByItsLongestEdge)
{
  const Refined refined = refine(corner, { { 0, 1, 2, 3 } }, { 0 });
  ASSERT_EQ(refined.pointParents.size(), 1u);
  EXPECT_EQ(refined.pointParents[0].s[0], 1);
  EXPECT_EQ(refined.pointParents[0].s[1], 2);
  EXPECT_EQ(refined.points[5], (Point{ 1.5, 1, 0 }));
  // The child keeping the edge's smaller id (position 2 replaced by the midpoint) first, then
  // the one keeping the larger (position 1 replaced): both keep the orientation.
  EXPECT_EQ(refined.tetrahedra, (std::vector<Tet>{ { 0, 1, 5, 3 }, { 0, 5, 2, 3 } }));
  EXPECT_EQ(refined.parent, (std::vector<cl_int>{ 0, 0 }));
  expectValidRefinement(corner, { { 0, 1, 2, 3 } }, refined);
}

// The neighbour across face (0 1 2) has the same longest edge: it is bisected too, at the same
// midpoint, and its children follow the marked cell's.
TEST(TetraRefinement, TwoTetrahedraSharingAFaceCutItTheSameWay)
{
  const std::vector<Tet> tets = { { 0, 1, 2, 3 }, { 0, 2, 1, 4 } };
  const Refined refined = refine(corner, tets, { 0 });
  // In the second, point 1 (the edge's smaller id) is at position 2: the child keeping it
  // (position 1 replaced) comes first.
  EXPECT_EQ(refined.tetrahedra, (std::vector<Tet>{ { 0, 1, 5, 3 }, { 0, 5, 1, 4 }, { 0, 5, 2, 3 }, { 0, 2, 5, 4 } }));
  EXPECT_EQ(refined.parent, (std::vector<cl_int>{ 0, 1, 0, 1 }));
  expectValidRefinement(corner, tets, refined);
}

// Each pass bisects every child of the previous pass's marked cells at least once.
TEST(TetraRefinement, PassesRefineTheChildrenAgain)
{
  const std::vector<Tet> tets = { { 0, 1, 2, 3 } };
  for (int passes = 1; passes <= 4; ++passes)
  {
    const Refined refined = refine(corner, tets, { 0 }, passes);
    EXPECT_GE(refined.tetrahedra.size(), std::size_t(1) << passes) << passes << " passes";
    expectValidRefinement(corner, tets, refined);
  }
}

TEST(TetraRefinement, KuhnMeshWithRandomMarksConforms)
{
  const auto [points, tets] = kuhnMesh(4, 7);
  std::mt19937 random(3);
  for (int trial = 0; trial < 4; ++trial)
  {
    std::vector<cl_int> marked;
    for (std::size_t t = 0; t < tets.size(); ++t)
      if (random() % 5 == 0)
        marked.push_back(static_cast<cl_int>(t));
    for (Precision precision : { Precision::Double, Precision::Single })
    {
      const Refined refined = refine(points, tets, marked, 1 + trial % 2, precision);
      expectValidRefinement(points, tets, refined);
      std::vector<int> children(tets.size(), 0);
      for (cl_int p : refined.parent)
        ++children[static_cast<std::size_t>(p)];
      for (cl_int m : marked)
        EXPECT_GE(children[static_cast<std::size_t>(m)], 2) << "marked cell " << m << " not split";
    }
  }
}

// Every cell marked: each gets between 2 and 8 children (8 when all six edges are divided).
TEST(TetraRefinement, EveryCellMarkedGivesTwoToEightChildrenEach)
{
  const auto [points, tets] = kuhnMesh(3, 11);
  std::vector<cl_int> all(tets.size());
  for (std::size_t t = 0; t < tets.size(); ++t)
    all[t] = static_cast<cl_int>(t);
  const Refined refined = refine(points, tets, all);
  std::vector<int> children(tets.size(), 0);
  for (cl_int p : refined.parent)
    ++children[static_cast<std::size_t>(p)];
  for (int c : children)
  {
    EXPECT_GE(c, 2);
    EXPECT_LE(c, 8);
  }
  expectValidRefinement(points, tets, refined);
}

TEST(TetraRefinement, BadInputIsNamed)
{
  const auto message = [](const std::vector<Point>& points, const std::vector<Tet>& tets) {
    try
    {
      refine(points, tets, { 0 });
    }
    catch (const Error& error)
    {
      return std::string(error.what());
    }
    return std::string("no error");
  };
  std::vector<Point> flat = corner;
  flat[3] = { 1, 0.5, 0 }; // in the plane of (0 1 2)
  EXPECT_NE(message(flat, { { 0, 1, 2, 4 }, { 0, 1, 2, 3 } }).find("Cell 1 is a degenerate tetrahedron"), std::string::npos);
  std::vector<Point> fan = corner;
  fan.push_back({ 1, 1, 1 });
  EXPECT_NE(message(fan, { { 0, 1, 2, 3 }, { 0, 2, 1, 4 }, { 0, 2, 1, 5 } }).find("shared by more than two"),
    std::string::npos);
  // Two tetrahedra on either side of face (0 1 2), the second with its own copy of point 2.
  std::vector<Point> seam = corner;
  seam.push_back(corner[2]);
  EXPECT_NE(message(seam, { { 0, 1, 2, 3 }, { 0, 5, 1, 4 } }).find("Points 2 and 5"), std::string::npos);
}
