// Longest-edge refinement of the two published worked examples (data/leb_example_*.txt).
#include "gpumesh/algorithms/refinement/LongestEdgeRefinement.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <map>
#include <set>

using namespace gpumesh;

namespace
{
using Point = std::array<double, 2>;
using Triangle = std::array<Point, 3>;

struct Example
{
  std::vector<Point> points;
  std::vector<std::array<std::int64_t, 3>> triangles;
  std::vector<cl_int> marks;
};

// The format of data/README.md: points, directed edges, triangles as signed 1-based edges;
// a triangle's vertices are the start points of its edges.
Example readExample(const std::string& name)
{
  std::ifstream in(std::string(GPUMESH_DATA_DIR) + "/" + name);
  EXPECT_TRUE(in) << name;
  Example example;
  std::string header;
  std::size_t n = 0;
  in >> header >> n;
  example.points.resize(n);
  for (auto& p : example.points)
    in >> p[0] >> p[1];
  in >> header >> n;
  std::vector<std::array<std::int64_t, 2>> edges(n);
  for (auto& e : edges)
    in >> e[0] >> e[1];
  in >> header >> n;
  for (std::size_t t = 0; t < n; ++t)
  {
    std::array<std::int64_t, 3> vertices{};
    for (auto& v : vertices)
    {
      long long signedEdge = 0;
      in >> signedEdge;
      const auto& edge = edges[static_cast<std::size_t>(std::llabs(signedEdge) - 1)];
      v = signedEdge > 0 ? edge[0] : edge[1];
    }
    int flag = 0;
    in >> flag;
    example.triangles.push_back(vertices);
    example.marks.push_back(flag);
  }
  return example;
}

double signedArea(const Triangle& t)
{
  return 0.5 * ((t[1][0] - t[0][0]) * (t[2][1] - t[0][1]) - (t[1][1] - t[0][1]) * (t[2][0] - t[0][0]));
}

// Rotated so the smallest vertex comes first: the same triangle with the same orientation
// compares equal whatever vertex it starts from.
Triangle canonical(Triangle t)
{
  const auto first = std::min_element(t.begin(), t.end()) - t.begin();
  std::rotate(t.begin(), t.begin() + first, t.end());
  return t;
}

struct Refined
{
  std::vector<Triangle> triangles;
  std::vector<cl_int> parent;
  std::vector<Point> newPoints;
};

Refined refine(const Example& example, int passes = 1)
{
  HostMesh host;
  std::vector<double> xyz;
  for (const auto& p : example.points)
    xyz.insert(xyz.end(), { p[0], p[1], 0.0 });
  host.setPoints(xyz.data(), static_cast<std::int64_t>(example.points.size()));
  host.setCellCount(static_cast<std::int64_t>(example.triangles.size()));
  for (std::size_t t = 0; t < example.triangles.size(); ++t)
    host.addCell(static_cast<std::int64_t>(t), CellKind::Triangle, example.triangles[t].data(), 3);
  std::vector<cl_int> marked;
  for (std::size_t t = 0; t < example.marks.size(); ++t)
    if (example.marks[t])
      marked.push_back(static_cast<cl_int>(t));
  DeviceRun run(DeviceContext::acquire("auto"));
  RefinedSimplices result = refineLongestEdges(run, DeviceMesh(run, host), marked, passes);

  std::vector<cl_int> connectivity;
  std::vector<cl_int2> parents(result.newPointCount);
  Refined refined;
  result.download(run, connectivity, refined.parent);
  run.download(result.pointParents, parents.data(), parents.size(), "point parents");
  std::vector<Point> points = example.points; // exact midpoints, in double, from the parents
  for (const auto& pair : parents)
  {
    const Point& a = points[static_cast<std::size_t>(pair.s[0])];
    const Point& b = points[static_cast<std::size_t>(pair.s[1])];
    points.push_back({ 0.5 * (a[0] + b[0]), 0.5 * (a[1] + b[1]) });
    refined.newPoints.push_back(points.back());
  }
  for (std::size_t t = 0; t < result.cellCount; ++t)
    refined.triangles.push_back({ points[static_cast<std::size_t>(connectivity[3 * t])],
      points[static_cast<std::size_t>(connectivity[3 * t + 1])], points[static_cast<std::size_t>(connectivity[3 * t + 2])] });
  return refined;
}

// Conforming: every edge of the output is used by at most two triangles, once in each
// direction, and no vertex lies inside another triangle's edge.
void expectConforming(const std::vector<Triangle>& triangles)
{
  std::map<std::pair<Point, Point>, int> directed;
  std::set<Point> vertices;
  for (const auto& t : triangles)
    for (int j = 0; j < 3; ++j)
    {
      ++directed[{ t[j], t[(j + 1) % 3] }];
      vertices.insert(t[j]);
    }
  for (const auto& [edge, uses] : directed)
  {
    EXPECT_EQ(uses, 1) << "edge used twice in the same direction";
    for (const Point& v : vertices) // a hanging node lies strictly inside an edge
    {
      const Point& a = edge.first;
      const Point& b = edge.second;
      const double cross = (b[0] - a[0]) * (v[1] - a[1]) - (b[1] - a[1]) * (v[0] - a[0]);
      const double along = (v[0] - a[0]) * (b[0] - a[0]) + (v[1] - a[1]) * (b[1] - a[1]);
      const double length2 = (b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]);
      EXPECT_FALSE(std::abs(cross) < 1e-12 && along > 0 && along < length2) << "hanging node";
    }
  }
}
} // namespace

TEST(LongestEdgeRefinement, ThesisWorkedExampleGivesFigureB2)
{
  const Example example = readExample("leb_example_thesis.txt");
  const Refined refined = refine(example);
  // Tables 4.6 and 4.7 of seed 002: the seven triangles after refinement.
  const std::set<Triangle> expected = {
    canonical({ Point{ 7.5, 8 }, Point{ 0, 3 }, Point{ 0, 16 } }),
    canonical({ Point{ 15, 0 }, Point{ 12.5, 15 }, Point{ 25, 14 } }),
    canonical({ Point{ 12.5, 15 }, Point{ 10, 24 }, Point{ 25, 14 } }),
    canonical({ Point{ 0, 3 }, Point{ 7.5, 8 }, Point{ 15, 0 } }),
    canonical({ Point{ 12.5, 15 }, Point{ 7.5, 8 }, Point{ 0, 16 } }),
    canonical({ Point{ 7.5, 8 }, Point{ 12.5, 15 }, Point{ 15, 0 } }),
    canonical({ Point{ 10, 24 }, Point{ 12.5, 15 }, Point{ 0, 16 } }),
  };
  std::set<Triangle> actual;
  for (const auto& t : refined.triangles)
    actual.insert(canonical(t));
  EXPECT_EQ(actual, expected);
  EXPECT_EQ(refined.triangles.size(), 7u);
  EXPECT_EQ(std::set<Point>(refined.newPoints.begin(), refined.newPoints.end()),
    (std::set<Point>{ { 7.5, 8 }, { 12.5, 15 } }));
  expectConforming(refined.triangles);
}

TEST(LongestEdgeRefinement, OzturanExampleGives23Triangles)
{
  const Example example = readExample("leb_example_ozturan.txt");
  const Refined refined = refine(example);
  EXPECT_EQ(refined.triangles.size(), 23u);
  EXPECT_EQ(refined.newPoints.size(), 4u);
  expectConforming(refined.triangles);
  // Children keep their parent's orientation and split its area exactly.
  std::vector<double> area(example.triangles.size(), 0.0);
  for (std::size_t t = 0; t < refined.triangles.size(); ++t)
  {
    const Triangle& child = refined.triangles[t];
    const auto& ids = example.triangles[static_cast<std::size_t>(refined.parent[t])];
    const Triangle parent = { example.points[ids[0]], example.points[ids[1]], example.points[ids[2]] };
    EXPECT_GT(signedArea(child) * signedArea(parent), 0.0) << "child " << t << " flipped";
    area[static_cast<std::size_t>(refined.parent[t])] += signedArea(child);
  }
  for (std::size_t p = 0; p < area.size(); ++p)
  {
    const auto& ids = example.triangles[p];
    const Triangle parent = { example.points[ids[0]], example.points[ids[1]], example.points[ids[2]] };
    EXPECT_NEAR(area[p], signedArea(parent), 1e-9 * std::abs(signedArea(parent)));
  }
}

TEST(LongestEdgeRefinement, SecondPassRefinesTheChildrenOfMarkedCells)
{
  const Example example = readExample("leb_example_thesis.txt");
  const Refined once = refine(example, 1);
  const Refined twice = refine(example, 2);
  EXPECT_GT(twice.triangles.size(), once.triangles.size());
  expectConforming(twice.triangles);
  double total = 0.0;
  for (const auto& t : twice.triangles)
    total += signedArea(t);
  double expectedTotal = 0.0;
  for (const auto& t : once.triangles)
    expectedTotal += signedArea(t);
  EXPECT_NEAR(total, expectedTotal, 1e-9 * std::abs(expectedTotal));
}

// Read in place (a CPU device reads the caller's arrays), the 32-bit connectivity that the
// refinement modifies in place must be a copy: the caller's arrays come back unchanged, and
// the result is the one of an upload.
TEST(LongestEdgeRefinement, ArraysReadInPlaceAreLeftUnchanged)
{
  const Example example = readExample("leb_example_thesis.txt");
  std::vector<double> xyz;
  for (const auto& p : example.points)
    xyz.insert(xyz.end(), { p[0], p[1], 0.0 });
  std::vector<std::int32_t> offsets, connectivity;
  for (const auto& t : example.triangles)
  {
    offsets.push_back(static_cast<std::int32_t>(connectivity.size()));
    connectivity.insert(connectivity.end(), t.begin(), t.end());
  }
  offsets.push_back(static_cast<std::int32_t>(connectivity.size()));
  const auto keptXyz = xyz;
  const auto keptConnectivity = connectivity;
  std::vector<cl_int> marked;
  for (std::size_t t = 0; t < example.marks.size(); ++t)
    if (example.marks[t])
      marked.push_back(static_cast<cl_int>(t));

  MeshView view;
  view.points.xyz = xyz.data();
  view.points.isDouble = true;
  view.points.count = static_cast<std::int64_t>(example.points.size());
  CellSection section;
  section.layout = SectionLayout::Polygons;
  section.cellCount = static_cast<std::int64_t>(example.triangles.size());
  section.offsets = offsets.data();
  section.connectivity = connectivity.data();
  view.sections.push_back(section);
  std::vector<cl_int> copied, inPlace, parents;
  for (const bool readInPlace : { false, true })
  {
    view.readInPlace = readInPlace;
    DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
    RefinedSimplices result = refineLongestEdges(run, DeviceMesh(run, view), marked, 1);
    result.download(run, readInPlace ? inPlace : copied, parents);
  }
  EXPECT_EQ(copied.size(), 21u);
  EXPECT_EQ(inPlace, copied);
  EXPECT_EQ(connectivity, keptConnectivity);
  EXPECT_EQ(xyz, keptXyz);
}

TEST(LongestEdgeRefinement, BadInputIsAnErrorNamingTheCell)
{
  Example fan; // three triangles on the edge 0-1: non-manifold
  fan.points = { { 0, 0 }, { 1, 0 }, { 0.5, 1 }, { 0.5, -1 }, { 0.2, 0.5 } };
  fan.triangles = { { 0, 1, 2 }, { 1, 0, 3 }, { 0, 1, 4 } };
  fan.marks = { 1, 0, 0 };
  try
  {
    refine(fan);
    FAIL() << "a non-manifold mesh was refined";
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("Cell 0 has an edge shared by more than two"), std::string::npos) << error.what();
  }
  // The same fan after a manifold triangle, and a fourth triangle on the edge: the smallest
  // cell on the edge is named.
  Example wider;
  wider.points = { { 0, 0 }, { 1, 0 }, { 0.5, 1 }, { 0.5, -1 }, { 0.2, 0.5 }, { 0.8, -0.5 }, { -1, 0 } };
  wider.triangles = { { 0, 2, 6 }, { 0, 1, 4 }, { 1, 0, 3 }, { 0, 1, 2 }, { 1, 0, 5 } };
  wider.marks = { 1, 0, 0, 0, 0 };
  try
  {
    refine(wider);
    FAIL() << "a non-manifold mesh was refined";
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("Cell 1 has an edge shared by more than two"), std::string::npos) << error.what();
  }
  Example flat; // cell 1 has zero area
  flat.points = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 2, 0 } };
  flat.triangles = { { 0, 1, 2 }, { 0, 1, 3 } };
  flat.marks = { 1, 1 };
  try
  {
    refine(flat);
    FAIL() << "a degenerate triangle was refined";
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("Cell 1 is degenerate"), std::string::npos) << error.what();
  }
  Example seam; // two triangles sharing an edge through duplicated points
  seam.points = { { 0, 0 }, { 1, 0 }, { 0, 1 }, { 1, 0 }, { 0, 1 }, { 1, 1 } };
  seam.triangles = { { 0, 1, 2 }, { 3, 5, 4 } };
  seam.marks = { 1, 0 };
  try
  {
    refine(seam);
    FAIL() << "a mesh cut along a seam was refined";
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("coincide"), std::string::npos) << error.what();
  }
}
