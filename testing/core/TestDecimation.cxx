// Quadric edge collapse: constraints kept (boundary corners, cube features, genus), the result a
// valid surface, the same on every run, and the quadrics against a double host reference.
#include "gpumesh/algorithms/Decimation.h"

#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <set>
#include <vector>

using namespace gpumesh;

namespace
{
using Triangle = std::array<std::int64_t, 3>;

testmesh::Mesh triangles(const std::vector<double>& xyz, const std::vector<Triangle>& tris)
{
  testmesh::Mesh mesh{ xyz, {} };
  for (const Triangle& t : tris)
    mesh.cells.push_back({ CellKind::Triangle, { t[0], t[1], t[2] } });
  return mesh;
}

// The unit square in n x n squares, each cut along a diagonal (alternating), normals +z.
testmesh::Mesh flatGrid(int n)
{
  std::vector<double> xyz;
  std::vector<Triangle> tris;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i)
      xyz.insert(xyz.end(), { double(i) / n, double(j) / n, 0.0 });
  const auto id = [n](int i, int j) { return std::int64_t(j * (n + 1) + i); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
    {
      if ((i + j) % 2 == 0)
      {
        tris.push_back({ id(i, j), id(i + 1, j), id(i + 1, j + 1) });
        tris.push_back({ id(i, j), id(i + 1, j + 1), id(i, j + 1) });
      }
      else
      {
        tris.push_back({ id(i, j), id(i + 1, j), id(i, j + 1) });
        tris.push_back({ id(i + 1, j), id(i + 1, j + 1), id(i, j + 1) });
      }
    }
  return triangles(xyz, tris);
}

// The cube [-1, 1]^3, each face in n x n squares cut in two, outward normals, points shared.
testmesh::Mesh cubeSurface(int n)
{
  std::map<std::array<int, 3>, std::int64_t> ids;
  std::vector<double> xyz;
  const auto point = [&](std::array<int, 3> g) {
    auto found = ids.find(g);
    if (found != ids.end())
      return found->second;
    const auto id = static_cast<std::int64_t>(ids.size());
    ids[g] = id;
    for (int k = 0; k < 3; ++k)
      xyz.push_back(2.0 * g[k] / n - 1.0);
    return id;
  };
  std::vector<Triangle> tris;
  for (int axis = 0; axis < 3; ++axis)
    for (int side = 0; side < 2; ++side)
    {
      const int u = (axis + 1) % 3, v = (axis + 2) % 3;
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < n; ++i)
        {
          std::array<std::int64_t, 4> q;
          const int corners[4][2] = { { i, j }, { i + 1, j }, { i + 1, j + 1 }, { i, j + 1 } };
          for (int c = 0; c < 4; ++c)
          {
            std::array<int, 3> g{};
            g[axis] = side * n;
            g[u] = corners[c][0];
            g[v] = corners[c][1];
            q[c] = point(g);
          }
          // (u, v, axis) is right-handed: counter-clockwise in (u, v) points along +axis.
          if (side == 1)
          {
            tris.push_back({ q[0], q[1], q[2] });
            tris.push_back({ q[0], q[2], q[3] });
          }
          else
          {
            tris.push_back({ q[0], q[2], q[1] });
            tris.push_back({ q[0], q[3], q[2] });
          }
        }
    }
  return triangles(xyz, tris);
}

// An icosahedron subdivided `levels` times, points on the unit sphere, outward normals.
testmesh::Mesh sphere(int levels)
{
  const double t = (1.0 + std::sqrt(5.0)) / 2.0;
  std::vector<std::array<double, 3>> p = { { -1, t, 0 }, { 1, t, 0 }, { -1, -t, 0 }, { 1, -t, 0 }, { 0, -1, t },
    { 0, 1, t }, { 0, -1, -t }, { 0, 1, -t }, { t, 0, -1 }, { t, 0, 1 }, { -t, 0, -1 }, { -t, 0, 1 } };
  std::vector<Triangle> f = { { 0, 11, 5 }, { 0, 5, 1 }, { 0, 1, 7 }, { 0, 7, 10 }, { 0, 10, 11 }, { 1, 5, 9 },
    { 5, 11, 4 }, { 11, 10, 2 }, { 10, 7, 6 }, { 7, 1, 8 }, { 3, 9, 4 }, { 3, 4, 2 }, { 3, 2, 6 }, { 3, 6, 8 },
    { 3, 8, 9 }, { 4, 9, 5 }, { 2, 4, 11 }, { 6, 2, 10 }, { 8, 6, 7 }, { 9, 8, 1 } };
  const auto normalise = [](std::array<double, 3> x) {
    const double l = std::sqrt(x[0] * x[0] + x[1] * x[1] + x[2] * x[2]);
    return std::array<double, 3>{ x[0] / l, x[1] / l, x[2] / l };
  };
  for (auto& x : p)
    x = normalise(x);
  for (int level = 0; level < levels; ++level)
  {
    std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> mids;
    const auto mid = [&](std::int64_t a, std::int64_t b) {
      const auto key = std::minmax(a, b);
      auto found = mids.find(key);
      if (found != mids.end())
        return found->second;
      p.push_back(normalise({ p[a][0] + p[b][0], p[a][1] + p[b][1], p[a][2] + p[b][2] }));
      return mids[key] = static_cast<std::int64_t>(p.size() - 1);
    };
    std::vector<Triangle> next;
    for (const Triangle& tri : f)
    {
      const auto ab = mid(tri[0], tri[1]), bc = mid(tri[1], tri[2]), ca = mid(tri[2], tri[0]);
      next.push_back({ tri[0], ab, ca });
      next.push_back({ tri[1], bc, ab });
      next.push_back({ tri[2], ca, bc });
      next.push_back({ ab, bc, ca });
    }
    f = next;
  }
  std::vector<double> xyz;
  for (const auto& x : p)
    xyz.insert(xyz.end(), x.begin(), x.end());
  return triangles(xyz, f);
}

// A torus (radii 1 and 0.35) of nu x nv squares cut in two.
testmesh::Mesh torus(int nu, int nv)
{
  std::vector<double> xyz;
  std::vector<Triangle> tris;
  const double pi = 3.14159265358979323846;
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i)
    {
      const double u = 2 * pi * i / nu, v = 2 * pi * j / nv;
      xyz.insert(xyz.end(),
        { (1 + 0.35 * std::cos(v)) * std::cos(u), (1 + 0.35 * std::cos(v)) * std::sin(u), 0.35 * std::sin(v) });
    }
  const auto id = [&](int i, int j) { return std::int64_t(((j + nv) % nv) * nu + (i + nu) % nu); };
  for (int j = 0; j < nv; ++j)
    for (int i = 0; i < nu; ++i)
    {
      tris.push_back({ id(i, j), id(i + 1, j), id(i + 1, j + 1) });
      tris.push_back({ id(i, j), id(i + 1, j + 1), id(i, j + 1) });
    }
  return triangles(xyz, tris);
}

DecimatedSurface decimate(const testmesh::Mesh& mesh, DecimationOptions options,
  Precision precision = Precision::Single)
{
  DeviceRun run(DeviceContext::acquire("0"), precision);
  return decimateTriangles(run, DeviceMesh(run, testmesh::toHost(mesh)), options);
}

std::array<double, 3> pointOf(const DecimatedSurface& s, std::int64_t i)
{
  return { s.points[3 * i], s.points[3 * i + 1], s.points[3 * i + 2] };
}

std::array<double, 3> normalOf(const DecimatedSurface& s, std::size_t t)
{
  const auto a = pointOf(s, s.triangles[3 * t]), b = pointOf(s, s.triangles[3 * t + 1]),
             c = pointOf(s, s.triangles[3 * t + 2]);
  const double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, v[3] = { c[0] - a[0], c[1] - a[1], c[2] - a[2] };
  return { u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0] };
}

// Edge -> the directed uses by triangles; checks what every output must satisfy: three distinct
// points, no duplicate triangles, every edge on at most two triangles that use it in opposite
// directions (manifold, consistently oriented), every point used. Returns the edge count and
// the number of boundary edges.
std::pair<std::size_t, std::size_t> checkValid(const DecimatedSurface& s)
{
  const std::size_t n = s.triangles.size() / 3;
  EXPECT_EQ(s.cellParent.size(), n);
  std::set<std::array<std::int64_t, 3>> seen;
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<int>> uses;
  std::vector<int> used(s.points.size() / 3, 0);
  for (std::size_t t = 0; t < n; ++t)
  {
    std::array<std::int64_t, 3> v = { s.triangles[3 * t], s.triangles[3 * t + 1], s.triangles[3 * t + 2] };
    EXPECT_TRUE(v[0] != v[1] && v[1] != v[2] && v[2] != v[0]) << "triangle " << t;
    for (int k = 0; k < 3; ++k)
    {
      used.at(v[k]) = 1;
      const auto a = v[k], b = v[(k + 1) % 3];
      uses[std::minmax(a, b)].push_back(a < b ? 1 : -1);
    }
    auto key = v;
    std::sort(key.begin(), key.end());
    EXPECT_TRUE(seen.insert(key).second) << "duplicate triangle " << t;
  }
  std::size_t boundary = 0;
  for (const auto& [edge, dirs] : uses)
  {
    EXPECT_LE(dirs.size(), 2u) << "edge " << edge.first << "-" << edge.second << " is not manifold";
    if (dirs.size() == 2)
      EXPECT_EQ(dirs[0] + dirs[1], 0) << "edge " << edge.first << "-" << edge.second << " flips orientation";
    boundary += dirs.size() == 1;
  }
  EXPECT_EQ(std::count(used.begin(), used.end(), 0), 0) << "unused points";
  return { uses.size(), boundary };
}

// Whether the output point sits on input point `id` (within float rounding).
bool hasPoint(const DecimatedSurface& s, const testmesh::Mesh& mesh, std::int64_t id)
{
  for (std::size_t i = 0; i < s.pointSource.size(); ++i)
    if (s.pointSource[i] == id)
    {
      const auto p = pointOf(s, static_cast<std::int64_t>(i));
      return std::abs(p[0] - mesh.xyz[3 * id]) < 1e-6 && std::abs(p[1] - mesh.xyz[3 * id + 1]) < 1e-6 &&
        std::abs(p[2] - mesh.xyz[3 * id + 2]) < 1e-6;
    }
  return false;
}
} // namespace

TEST(Decimation, FlatGridWithPreservedBoundaryCollapsesToItsCorners)
{
  const testmesh::Mesh grid = flatGrid(16);
  DecimationOptions options;
  options.preserveBoundary = true;
  const DecimatedSurface s = decimate(grid, options);
  EXPECT_FALSE(s.reachedTarget);
  EXPECT_EQ(s.trianglesIn, 512u);
  const std::size_t n = s.triangles.size() / 3;
  EXPECT_LE(n, 8u);
  EXPECT_GE(n, 2u);
  checkValid(s);
  for (std::int64_t corner : { 0, 16, 16 * 17, 17 * 17 - 1 })
    EXPECT_TRUE(hasPoint(s, grid, corner)) << "corner " << corner;
  // Every point stays on the square's boundary or inside it, in its plane; the triangles, all
  // facing +z, still cover the square exactly.
  double area = 0.0;
  for (std::size_t t = 0; t < n; ++t)
  {
    const auto normal = normalOf(s, t);
    EXPECT_GT(normal[2], 0.0);
    area += normal[2] / 2;
  }
  EXPECT_NEAR(area, 1.0, 1e-6);
  for (std::size_t i = 0; i < s.points.size(); ++i)
    EXPECT_TRUE(s.points[i] >= -1e-7 && s.points[i] <= 1 + 1e-7);
}

TEST(Decimation, CubeKeepsItsCornersAndEdgesWithFeatures)
{
  const testmesh::Mesh cube = cubeSurface(8);
  DecimationOptions options;
  options.preserveFeatures = true;
  options.featureAngle = 30.0;
  const DecimatedSurface s = decimate(cube, options);
  const auto [edges, boundary] = checkValid(s);
  EXPECT_EQ(boundary, 0u);
  const std::size_t n = s.triangles.size() / 3;
  EXPECT_LE(n, 24u);
  // Every point on the surface, the 8 corners among them; the output edges along the cube's
  // edges cover all 12 of them (total length 24).
  int corners = 0;
  for (std::size_t i = 0; i < s.points.size() / 3; ++i)
  {
    const auto p = pointOf(s, static_cast<std::int64_t>(i));
    int onFace = 0;
    for (double x : p)
      onFace += std::abs(std::abs(x) - 1.0) < 1e-6;
    EXPECT_GE(onFace, 1) << "point " << i << " left the surface";
    corners += onFace == 3;
  }
  EXPECT_EQ(corners, 8);
  double cubeEdgeLength = 0.0;
  std::set<std::pair<std::int64_t, std::int64_t>> counted;
  for (std::size_t t = 0; t < n; ++t)
    for (int k = 0; k < 3; ++k)
    {
      const auto a = s.triangles[3 * t + k], b = s.triangles[3 * t + (k + 1) % 3];
      if (!counted.insert(std::minmax<std::int64_t>(a, b)).second)
        continue;
      const auto pa = pointOf(s, a), pb = pointOf(s, b);
      int sharedFaces = 0;
      for (int c = 0; c < 3; ++c)
        sharedFaces += std::abs(std::abs(pa[c]) - 1.0) < 1e-6 && std::abs(pb[c] - pa[c]) < 1e-6;
      if (sharedFaces >= 2)
        cubeEdgeLength += std::sqrt((pa[0] - pb[0]) * (pa[0] - pb[0]) + (pa[1] - pb[1]) * (pa[1] - pb[1]) +
          (pa[2] - pb[2]) * (pa[2] - pb[2]));
    }
  EXPECT_NEAR(cubeEdgeLength, 24.0, 1e-5);
  (void)edges;
}

TEST(Decimation, SphereKeepsGenusZeroAndTorusGenusOne)
{
  for (int shape = 0; shape < 2; ++shape)
  {
    const testmesh::Mesh mesh = shape == 0 ? sphere(3) : torus(48, 16);
    DecimationOptions options;
    options.preserveTopology = true;
    options.targetTriangles = static_cast<std::int64_t>(mesh.cells.size() / 10);
    const DecimatedSurface s = decimate(mesh, options);
    const auto [edges, boundary] = checkValid(s);
    EXPECT_EQ(boundary, 0u);
    const std::int64_t euler = static_cast<std::int64_t>(s.points.size() / 3) - static_cast<std::int64_t>(edges) +
      static_cast<std::int64_t>(s.triangles.size() / 3);
    EXPECT_EQ(euler, shape == 0 ? 2 : 0) << (shape == 0 ? "sphere" : "torus");
    EXPECT_TRUE(s.reachedTarget);
    EXPECT_LE(s.triangles.size() / 3, mesh.cells.size() / 10);
    EXPECT_GE(s.triangles.size() / 3 + 2, mesh.cells.size() / 10);
    EXPECT_GT(s.rounds, 1u);
    if (shape == 0)
    {
      // No triangle turned inside out: every normal points away from the centre.
      for (std::size_t t = 0; t < s.triangles.size() / 3; ++t)
      {
        const auto normal = normalOf(s, t);
        const auto p = pointOf(s, s.triangles[3 * t]);
        EXPECT_GT(normal[0] * p[0] + normal[1] * p[1] + normal[2] * p[2], 0.0) << "triangle " << t;
      }
      // Close to the sphere still: the points within 10% of its radius.
      for (std::size_t i = 0; i < s.points.size() / 3; ++i)
      {
        const auto p = pointOf(s, static_cast<std::int64_t>(i));
        EXPECT_NEAR(std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]), 1.0, 0.1);
      }
    }
  }
}

TEST(Decimation, SameOutputOnEveryRunAndParentsAreInputCells)
{
  const testmesh::Mesh mesh = torus(40, 14);
  DecimationOptions options;
  options.targetTriangles = 200;
  const DecimatedSurface first = decimate(mesh, options);
  const DecimatedSurface second = decimate(mesh, options);
  EXPECT_EQ(first.triangles, second.triangles);
  EXPECT_EQ(first.points, second.points);
  EXPECT_EQ(first.pointSource, second.pointSource);
  EXPECT_EQ(first.cellParent, second.cellParent);
  EXPECT_EQ(first.rounds, second.rounds);
  // Parents are input cells, each at most once (a triangle is kept or removed, never made).
  for (cl_int parent : first.cellParent)
    EXPECT_TRUE(parent >= 0 && static_cast<std::size_t>(parent) < mesh.cells.size());
  std::set<cl_int> parents(first.cellParent.begin(), first.cellParent.end());
  EXPECT_EQ(parents.size(), first.cellParent.size());
}

TEST(Decimation, BadTrianglesAreNamed)
{
  testmesh::Mesh mesh = flatGrid(2);
  mesh.cells[3].ids = { 1, 4, 1 };
  try
  {
    decimate(mesh, {});
    FAIL() << "a repeated point was accepted";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("Triangle 3 repeats a point"), std::string::npos) << e.what();
  }
  mesh = flatGrid(2);
  mesh.cells[5].ids = { 0, 1, 2 }; // three points on a line
  try
  {
    decimate(mesh, {});
    FAIL() << "a zero-area triangle was accepted";
  }
  catch (const Error& e)
  {
    EXPECT_NE(std::string(e.what()).find("Triangle 5 has zero area"), std::string::npos) << e.what();
  }
}

// The quadrics against a host reference in double: area-weighted planes of the ball, plus the
// boundary planes (through each boundary edge, perpendicular to its triangle, weighted by its
// squared length). Then one collapse of a closed surface costs the cheapest edge's optimum.
TEST(Decimation, QuadricsAndCostsMatchADoubleReference)
{
  testmesh::Mesh mesh = flatGrid(3);
  // Lift and tilt it so that no plane is an axis plane.
  for (std::size_t i = 0; i < mesh.points(); ++i)
  {
    const double x = mesh.xyz[3 * i], y = mesh.xyz[3 * i + 1];
    mesh.xyz[3 * i + 2] = 0.3 * x * x - 0.2 * y + 0.1 * x * y;
  }
  // The device's quadrics are relative to the mesh's origin (PointsView::origin).
  std::array<double, 3> origin{ 0.0, 0.0, 0.0 };
  std::vector<double> reference(10 * mesh.points(), 0.0);
  std::map<std::pair<std::int64_t, std::int64_t>, int> edgeUses;
  for (const auto& c : mesh.cells)
    for (int k = 0; k < 3; ++k)
      ++edgeUses[std::minmax(c.ids[k], c.ids[(k + 1) % 3])];
  const auto P = [&](std::int64_t i) {
    return std::array<double, 3>{ mesh.xyz[3 * i] - origin[0], mesh.xyz[3 * i + 1] - origin[1],
      mesh.xyz[3 * i + 2] - origin[2] };
  };
  const auto addPlane = [&](std::int64_t v, std::array<double, 3> n, double d, double w) {
    const double h[4] = { n[0], n[1], n[2], d };
    int c = 0;
    for (int i = 0; i < 4; ++i)
      for (int j = i; j < 4; ++j)
        reference[10 * v + c++] += w * h[i] * h[j];
  };
  const auto computeReference = [&]() {
  std::fill(reference.begin(), reference.end(), 0.0);
  for (const auto& c : mesh.cells)
  {
    const auto a = P(c.ids[0]), b = P(c.ids[1]), e = P(c.ids[2]);
    const double u[3] = { b[0] - a[0], b[1] - a[1], b[2] - a[2] }, w[3] = { e[0] - a[0], e[1] - a[1], e[2] - a[2] };
    std::array<double, 3> n = { u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0] };
    const double len = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    for (auto& x : n)
      x /= len;
    const double d = -(n[0] * a[0] + n[1] * a[1] + n[2] * a[2]);
    for (int k = 0; k < 3; ++k)
      addPlane(c.ids[k], n, d, len / 2);
    for (int k = 0; k < 3; ++k)
    {
      const auto i = c.ids[k], j = c.ids[(k + 1) % 3];
      if (edgeUses[std::minmax(i, j)] != 1)
        continue;
      const auto pi = P(i), pj = P(j);
      const double s[3] = { pj[0] - pi[0], pj[1] - pi[1], pj[2] - pi[2] };
      std::array<double, 3> m = { s[1] * n[2] - s[2] * n[1], s[2] * n[0] - s[0] * n[2], s[0] * n[1] - s[1] * n[0] };
      const double ml = std::sqrt(m[0] * m[0] + m[1] * m[1] + m[2] * m[2]);
      for (auto& x : m)
        x /= ml;
      const double md = -(m[0] * pi[0] + m[1] * pi[1] + m[2] * pi[2]);
      const double weight = s[0] * s[0] + s[1] * s[1] + s[2] * s[2];
      addPlane(i, m, md, weight);
      addPlane(j, m, md, weight);
    }
  }
  };
  for (Precision precision : { Precision::Single, Precision::Double })
  {
    DeviceRun run(DeviceContext::acquire("0"), precision);
    if (precision == Precision::Double && !run.info().hasDoublePrecision)
      continue;
    const DeviceMesh device(run, testmesh::toHost(mesh));
    origin = device.origin();
    computeReference();
    const std::vector<double> q = vertexQuadrics(run, device);
    ASSERT_EQ(q.size(), reference.size());
    const double tolerance = run.info().hasDoublePrecision && precision == Precision::Double ? 1e-12 : 1e-5;
    for (std::size_t i = 0; i < q.size(); ++i)
      EXPECT_NEAR(q[i], reference[i], tolerance * (1 + std::abs(reference[i]))) << "coefficient " << i;
  }

  // One collapse of a closed surface: the cheapest edge's quadric at its optimal point.
  const testmesh::Mesh ball = sphere(1);
  DeviceRun run(DeviceContext::acquire("0"), Precision::Double);
  if (!run.info().hasDoublePrecision)
    return;
  const DeviceMesh device(run, testmesh::toHost(ball));
  const std::vector<double> q = vertexQuadrics(run, device);
  double cheapest = std::numeric_limits<double>::max();
  for (const auto& c : ball.cells)
    for (int k = 0; k < 3; ++k)
    {
      const auto a = c.ids[k], b = c.ids[(k + 1) % 3];
      double m[10];
      for (int i = 0; i < 10; ++i)
        m[i] = q[10 * a + i] + q[10 * b + i];
      // Solve A x = -b in double by Cramer's rule.
      const double A[3][3] = { { m[0], m[1], m[2] }, { m[1], m[4], m[5] }, { m[2], m[5], m[7] } };
      const double r[3] = { -m[3], -m[6], -m[8] };
      const auto det3 = [](const double M[3][3]) {
        return M[0][0] * (M[1][1] * M[2][2] - M[1][2] * M[2][1]) - M[0][1] * (M[1][0] * M[2][2] - M[1][2] * M[2][0]) +
          M[0][2] * (M[1][0] * M[2][1] - M[1][1] * M[2][0]);
      };
      const double det = det3(A);
      double x[3];
      for (int col = 0; col < 3; ++col)
      {
        double B[3][3];
        for (int i = 0; i < 3; ++i)
          for (int j = 0; j < 3; ++j)
            B[i][j] = j == col ? r[i] : A[i][j];
        x[col] = det3(B) / det;
      }
      const double cost = m[0] * x[0] * x[0] + 2 * m[1] * x[0] * x[1] + 2 * m[2] * x[0] * x[2] + 2 * m[3] * x[0] +
        m[4] * x[1] * x[1] + 2 * m[5] * x[1] * x[2] + 2 * m[6] * x[1] + m[7] * x[2] * x[2] + 2 * m[8] * x[2] + m[9];
      cheapest = std::min(cheapest, std::max(cost, 0.0));
    }
  DecimationOptions options;
  options.targetTriangles = static_cast<std::int64_t>(ball.cells.size()) - 2;
  const DecimatedSurface s = decimateTriangles(run, device, options);
  EXPECT_EQ(s.triangles.size() / 3, ball.cells.size() - 2);
  EXPECT_EQ(s.rounds, 1u);
  EXPECT_NEAR(s.largestError, cheapest, 1e-9 * (1 + cheapest));
  EXPECT_GT(s.largestError, 0.0);
}

// Without the link condition the genus may change and edges may become non-manifold, but no
// triangle repeats a point or another triangle.
TEST(Decimation, WithoutPreserveTopologyTrianglesStayDistinct)
{
  const testmesh::Mesh mesh = torus(48, 16);
  DecimationOptions options;
  options.preserveTopology = false;
  options.targetTriangles = 24;
  const DecimatedSurface s = decimate(mesh, options);
  const std::size_t n = s.triangles.size() / 3;
  EXPECT_GT(n, 0u);
  EXPECT_LT(n, mesh.cells.size() / 10);
  std::set<std::array<std::int64_t, 3>> seen;
  for (std::size_t t = 0; t < n; ++t)
  {
    std::array<std::int64_t, 3> v = { s.triangles[3 * t], s.triangles[3 * t + 1], s.triangles[3 * t + 2] };
    EXPECT_TRUE(v[0] != v[1] && v[1] != v[2] && v[2] != v[0]) << "triangle " << t;
    std::sort(v.begin(), v.end());
    EXPECT_TRUE(seen.insert(v).second) << "duplicate triangle " << t;
  }
}
