// The decisions of a decimation round against a host reference in plain C++, bit for bit: the
// quadrics, vertex classes, every edge's cost, target and survivor, and the outcome of its checks.
// Equal bits here mean the device computed each value with the same correctly rounded operations
// in the same order, which is what makes the output the same on every device with fp64.
// This file is compiled with -ffp-contract=off (testing/core/CMakeLists.txt): no fused
// multiply-adds on the host either.
#include "gpumesh/algorithms/Decimation.h"

#include "MeshGenerators.h"
#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <vector>

using namespace gpumesh;

namespace
{
using V3 = std::array<double, 3>;

V3 sub(const V3& a, const V3& b)
{
  return { a[0] - b[0], a[1] - b[1], a[2] - b[2] };
}
V3 add(const V3& a, const V3& b)
{
  return { a[0] + b[0], a[1] + b[1], a[2] + b[2] };
}
// decimation.cl's qdot, qcross, qlength: the same operations in the same order.
double dot(const V3& a, const V3& b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
V3 cross(const V3& a, const V3& b)
{
  return { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
}
double length(const V3& a)
{
  return std::sqrt(dot(a, a));
}

void addPlane(double* q, const V3& n, double d, double w)
{
  q[0] += w * n[0] * n[0];
  q[1] += w * n[0] * n[1];
  q[2] += w * n[0] * n[2];
  q[3] += w * n[0] * d;
  q[4] += w * n[1] * n[1];
  q[5] += w * n[1] * n[2];
  q[6] += w * n[1] * d;
  q[7] += w * n[2] * n[2];
  q[8] += w * n[2] * d;
  q[9] += w * d * d;
}

double quadricCost(const double* q, const V3& p)
{
  const double c = q[0] * p[0] * p[0] + 2 * q[1] * p[0] * p[1] + 2 * q[2] * p[0] * p[2] + 2 * q[3] * p[0] +
    q[4] * p[1] * p[1] + 2 * q[5] * p[1] * p[2] + 2 * q[6] * p[1] + q[7] * p[2] * p[2] + 2 * q[8] * p[2] + q[9];
  return c > 0 ? c : 0;
}

bool sameBits(double x, double y)
{
  return std::memcmp(&x, &y, sizeof x) == 0;
}

// The first round of decimateTriangles, written out sequentially from the kernels' definitions
// (kernels/algorithms/decimation.cl), in double.
struct Reference
{
  std::vector<V3> P;                     // device points (relative to the origin), widened
  std::vector<std::array<int, 3>> T;     // triangles
  std::vector<std::vector<int>> ball;    // per point its triangles, in increasing id
  std::map<std::pair<int, int>, int> uses; // edge -> triangles on it
  std::map<std::pair<int, int>, std::vector<int>> edgeTriangles;
  bool single = true; // points in float: targets rounded to float
  DecimationOptions options;
  double cosFeature = 0, cosNormal = 0;

  std::vector<double> Q;
  std::vector<int> cls, boundary, degree;

  int count(int a, int b) const { return uses.at(std::minmax(a, b)); }
  int cornerOf(const std::array<int, 3>& t, int v) const { return t[0] == v ? 0 : (t[1] == v ? 1 : 2); }
  V3 normal(int t) const { return cross(sub(P[T[t][1]], P[T[t][0]]), sub(P[T[t][2]], P[T[t][0]])); }

  bool lineEdge(int a, int b) const
  {
    const int n = count(a, b);
    if (n == 1)
      return options.preserveBoundary;
    if (n != 2 || !options.preserveFeatures)
      return false;
    const auto& ts = edgeTriangles.at(std::minmax(a, b));
    const V3 n1 = normal(ts[0]), n2 = normal(ts[1]);
    return dot(n1, n2) < cosFeature * length(n1) * length(n2);
  }

  void build()
  {
    const std::size_t n = P.size();
    ball.assign(n, {});
    for (std::size_t t = 0; t < T.size(); ++t)
      for (int k = 0; k < 3; ++k)
      {
        ball[T[t][k]].push_back(static_cast<int>(t));
        const auto key = std::minmax(T[t][k], T[t][(k + 1) % 3]);
        ++uses[key];
        edgeTriangles[key].push_back(static_cast<int>(t));
      }
    // vertex_quadrics
    Q.assign(10 * n, 0.0);
    for (std::size_t v = 0; v < n; ++v)
    {
      double* q = &Q[10 * v];
      for (int t : ball[v])
      {
        const auto& tri = T[t];
        const V3 p[3] = { P[tri[0]], P[tri[1]], P[tri[2]] };
        const V3 nn = cross(sub(p[1], p[0]), sub(p[2], p[0]));
        const double twiceArea = length(nn);
        if (twiceArea == 0)
          continue;
        const V3 unit = { nn[0] / twiceArea, nn[1] / twiceArea, nn[2] / twiceArea };
        addPlane(q, unit, -dot(unit, p[0]), twiceArea / 2);
        const int k = cornerOf(tri, static_cast<int>(v));
        for (int j = 0; j < 2; ++j)
        {
          const int edge = (k + 2 * j) % 3;
          if (count(tri[edge], tri[(edge + 1) % 3]) != 1)
            continue;
          const V3 a = p[edge], b = p[(edge + 1) % 3];
          const V3 side = cross(sub(b, a), unit);
          const double sideLength = length(side);
          if (sideLength == 0)
            continue;
          const V3 sn = { side[0] / sideLength, side[1] / sideLength, side[2] / sideLength };
          addPlane(q, sn, -dot(sn, a), dot(sub(b, a), sub(b, a)));
        }
      }
    }
    // vertex_classes
    cls.assign(n, 0);
    boundary.assign(n, 0);
    degree.assign(n, 0);
    for (std::size_t v = 0; v < n; ++v)
    {
      std::set<int> others;
      for (int t : ball[v])
      {
        const int k = cornerOf(T[t], static_cast<int>(v));
        others.insert(T[t][(k + 1) % 3]);
        others.insert(T[t][(k + 2) % 3]);
      }
      int bnd = 0, lines = 0, nonmanifold = 0;
      std::vector<int> ends;
      for (int w : others)
      {
        const int c = count(static_cast<int>(v), w);
        nonmanifold |= c > 2;
        bnd += c == 1;
        if (lineEdge(static_cast<int>(v), w))
        {
          if (lines < 2)
            ends.push_back(w);
          ++lines;
        }
      }
      bool cornerPoint = false;
      if (lines == 2)
      {
        const V3 p = P[v];
        const V3 in = sub(p, P[ends[0]]), out = sub(P[ends[1]], p);
        cornerPoint = dot(in, out) < cosFeature * length(in) * length(out);
      }
      const bool fixed = nonmanifold || (bnd != 0 && bnd != 2) || (lines != 0 && lines != 2) || cornerPoint ||
        (!options.frozen.empty() && options.frozen[v]);
      cls[v] = fixed ? 0 : (lines == 2 ? 1 : 2);
      degree[v] = static_cast<int>(others.size());
      boundary[v] = bnd > 0;
    }
  }

  // edge_costs: cost, target, survivor.
  void cost(int a, int b, double& cost, V3& target, int& survivor) const
  {
    cost = std::numeric_limits<double>::max();
    survivor = -1;
    if (count(a, b) > 2)
      return;
    const bool line = lineEdge(a, b);
    const int ca = cls[a], cb = cls[b];
    int mode = 0;
    if (ca == 0 && cb == 0)
      mode = 0;
    else if (ca == 0)
      mode = (cb == 2 || line) ? 1 : 0;
    else if (cb == 0)
      mode = (ca == 2 || line) ? 2 : 0;
    else if (ca == 1 && cb == 1)
      mode = line ? 3 : 0;
    else if (ca == 1)
      mode = 1;
    else if (cb == 1)
      mode = 2;
    else
      mode = 4;
    if (mode == 0)
      return;
    double q[10];
    for (int c = 0; c < 10; ++c)
      q[c] = Q[10 * a + c] + Q[10 * b + c];
    const V3 pa = P[a], pb = P[b];
    const V3 mid = { (pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2 };
    V3 best = pa;
    double bestCost = 0;
    if (mode == 4)
    {
      const double c00 = q[4] * q[7] - q[5] * q[5], c01 = q[2] * q[5] - q[1] * q[7], c02 = q[1] * q[5] - q[2] * q[4];
      const double c11 = q[0] * q[7] - q[2] * q[2], c12 = q[1] * q[2] - q[0] * q[5], c22 = q[0] * q[4] - q[1] * q[1];
      const double det = q[0] * c00 + q[1] * c01 + q[2] * c02;
      const double norm =
        std::sqrt(q[0] * q[0] + q[4] * q[4] + q[7] * q[7] + 2 * (q[1] * q[1] + q[2] * q[2] + q[5] * q[5]));
      bool solved = false;
      if (norm > 0 && std::fabs(det) > 1e-10 * norm * norm * norm)
      {
        const V3 x = { -(c00 * q[3] + c01 * q[6] + c02 * q[8]) / det, -(c01 * q[3] + c11 * q[6] + c12 * q[8]) / det,
          -(c02 * q[3] + c12 * q[6] + c22 * q[8]) / det };
        if (length(sub(x, mid)) <= length(sub(pa, pb)))
        {
          best = x;
          bestCost = quadricCost(q, x);
          solved = true;
        }
      }
      if (!solved)
        mode = 3;
    }
    if (mode == 3)
    {
      best = pa;
      bestCost = quadricCost(q, pa);
      const double costB = quadricCost(q, pb), costMid = quadricCost(q, mid);
      if (costB < bestCost)
      {
        best = pb;
        bestCost = costB;
      }
      if (costMid < bestCost)
      {
        best = mid;
        bestCost = costMid;
      }
    }
    else if (mode == 1 || mode == 2)
    {
      best = mode == 1 ? pa : pb;
      bestCost = quadricCost(q, best);
    }
    if (!(bestCost <= options.maximumError))
      return;
    cost = bestCost;
    target = best;
    if (single)
      for (double& x : target)
        x = static_cast<float>(x);
    survivor = (mode == 2 || (mode == 3 && best == pb)) ? b : a;
  }

  // ball_folds
  bool folds(int v, int a, int b, const V3& p) const
  {
    for (int t : ball[v])
    {
      const auto& tri = T[t];
      const bool hasA = tri[0] == a || tri[1] == a || tri[2] == a, hasB = tri[0] == b || tri[1] == b || tri[2] == b;
      if (hasA && hasB)
        continue;
      V3 q[3];
      for (int k = 0; k < 3; ++k)
        q[k] = (tri[k] == a || tri[k] == b) ? p : P[tri[k]];
      const V3 before = normal(t);
      const V3 after = cross(sub(q[1], q[0]), sub(q[2], q[0]));
      const double squares =
        dot(sub(q[1], q[0]), sub(q[1], q[0])) + dot(sub(q[2], q[1]), sub(q[2], q[1])) + dot(sub(q[0], q[2]), sub(q[0], q[2]));
      if (!(dot(after, after) > 1e-12 * squares * squares))
        return true;
      if (dot(before, after) < cosNormal * length(before) * length(after))
        return true;
    }
    return false;
  }

  bool inBall(int v, int x) const
  {
    for (int t : ball[v])
      if (T[t][0] == x || T[t][1] == x || T[t][2] == x)
        return true;
    return false;
  }

  // edge_checks
  bool passes(int a, int b, const V3& p) const
  {
    const int aCount = static_cast<int>(ball[a].size()), bCount = static_cast<int>(ball[b].size());
    const int small = aCount <= bCount ? a : b, other = small == a ? b : a;
    int shared = 0;
    for (int t : ball[small])
    {
      const int k = cornerOf(T[t], small);
      const int next = T[t][(k + 1) % 3], previous = T[t][(k + 2) % 3];
      if (next != other)
        shared += inBall(other, next);
      if (count(previous, small) == 1 && previous != other)
        shared += inBall(other, previous);
    }
    bool ok = true;
    if (options.preserveTopology)
      ok = shared == count(a, b) && !(boundary[a] && boundary[b] && count(a, b) != 1);
    else
    {
      // makes_duplicate: a triangle (a, x, y) and a triangle (b, x, y), neither on the edge.
      for (int ta : ball[a])
      {
        const int ka = cornerOf(T[ta], a);
        const int x = T[ta][(ka + 1) % 3], y = T[ta][(ka + 2) % 3];
        if (x == b || y == b)
          continue;
        for (int tb : ball[b])
        {
          const int kb = cornerOf(T[tb], b);
          const int u = T[tb][(kb + 1) % 3], w = T[tb][(kb + 2) % 3];
          if ((u == x && w == y) || (u == y && w == x))
            ok = false;
        }
      }
    }
    const int merged = degree[a] + degree[b] - shared - 2;
    ok = ok && merged >= ((boundary[a] || boundary[b]) ? 2 : 3);
    return ok && !folds(a, a, b, p) && !folds(b, a, b, p);
  }
};

// A jittered grid lifted to a curved surface with a crease along x = crease (0: none).
testmesh::Mesh wavyGrid(std::size_t cells, double crease)
{
  testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(cells, 7));
  for (std::size_t p = 0; p < mesh.points(); ++p)
  {
    const double x = mesh.xyz[3 * p], y = mesh.xyz[3 * p + 1];
    mesh.xyz[3 * p + 2] = 3.0 * std::sin(x / 3.0) * std::cos(y / 4.0) + (crease > 0 ? 1.5 * std::fabs(x - crease) : 0.0);
  }
  return mesh;
}

// GPUMESH_DEVICE when set (another machine's device: run.sh core-tests), else the first.
std::string testDevice()
{
  const char* chosen = std::getenv("GPUMESH_DEVICE");
  return chosen && *chosen ? chosen : "0";
}

struct Mismatches
{
  std::size_t count = 0;
  std::ostringstream first;
  void add(const std::string& what)
  {
    if (count++ < 8)
      first << "  " << what << "\n";
  }
};

std::string bits(double x)
{
  std::ostringstream s;
  s.precision(17);
  s << x;
  return s.str();
}

void compareFirstRound(const testmesh::Mesh& mesh, Precision precision, const DecimationOptions& options)
{
  DeviceRun run(DeviceContext::acquire(testDevice()), precision);
  if (!run.info().hasDoublePrecision)
    GTEST_SKIP() << "the device has no fp64: its decisions are in float (documented as not device-independent)";
  const DeviceMesh device(run, testmesh::toHost(mesh));
  const DecimationRoundEdges round = firstRoundEdges(run, device, options);

  Reference ref;
  ref.single = precision == Precision::Single;
  ref.options = options;
  constexpr double degrees = 3.14159265358979323846 / 180.0;
  ref.cosFeature = std::cos(options.featureAngle * degrees);
  ref.cosNormal = std::cos(options.maximumNormalChange * degrees);
  if (ref.single)
  {
    ref.cosFeature = static_cast<float>(ref.cosFeature);
    ref.cosNormal = static_cast<float>(ref.cosNormal);
  }
  // The device's points (relative to its origin, in the run's precision) and triangles.
  std::vector<double> xyz(3 * static_cast<std::size_t>(device.pointCount()));
  run.download(device.points(), xyz.data(), xyz.size(), "points");
  for (std::size_t i = 0; i < xyz.size(); i += 3)
    ref.P.push_back({ xyz[i], xyz[i + 1], xyz[i + 2] });
  const DeviceCellGroup& group = device.groups().front();
  std::vector<cl_int> tris(3 * group.count);
  run.download(group.connectivity, tris.data(), tris.size(), "triangles");
  for (std::size_t t = 0; t < group.count; ++t)
  {
    ref.T.push_back({ tris[3 * t], tris[3 * t + 1], tris[3 * t + 2] });
    for (int k = 0; k < 3; ++k)
      ASSERT_EQ(tris[3 * t + k], mesh.cells[t].ids[k]) << "the device's triangle " << t << " is not the input's";
  }
  ref.build();

  const std::size_t edges = round.cost.size();
  ASSERT_EQ(edges, ref.uses.size()) << "edge count";
  Mismatches quadrics, classes, costs, targets, survivors, checks;
  for (std::size_t i = 0; i < ref.Q.size(); ++i)
    if (!sameBits(round.quadrics[i], ref.Q[i]))
      quadrics.add("point " + std::to_string(i / 10) + " coefficient " + std::to_string(i % 10) + ": device " +
        bits(round.quadrics[i]) + ", host " + bits(ref.Q[i]));
  for (std::size_t v = 0; v < ref.cls.size(); ++v)
    if (round.vertexClass[v] != ref.cls[v])
      classes.add("point " + std::to_string(v) + ": device " + std::to_string(round.vertexClass[v]) + ", host " +
        std::to_string(ref.cls[v]));
  std::size_t candidates = 0, passed = 0, optimal = 0;
  for (std::size_t e = 0; e < edges; ++e)
  {
    const int a = static_cast<int>(round.edgeEnds[2 * e]), b = static_cast<int>(round.edgeEnds[2 * e + 1]);
    ASSERT_TRUE(ref.uses.count(std::minmax(a, b))) << "edge " << e << " (" << a << ", " << b << ") is no edge";
    double cost;
    V3 target{};
    int survivor;
    ref.cost(a, b, cost, target, survivor);
    const std::string name = "edge " + std::to_string(e) + " (" + std::to_string(a) + ", " + std::to_string(b) + ")";
    if (!sameBits(round.cost[e], cost))
      costs.add(name + ": device " + bits(round.cost[e]) + ", host " + bits(cost));
    if (round.survivor[e] != survivor)
      survivors.add(name + ": device " + std::to_string(round.survivor[e]) + ", host " + std::to_string(survivor));
    if (survivor < 0 || round.survivor[e] != survivor)
      continue;
    ++candidates;
    for (int k = 0; k < 3; ++k)
      if (!sameBits(round.target[3 * e + k], target[k]))
        targets.add(name + " coordinate " + std::to_string(k) + ": device " + bits(round.target[3 * e + k]) +
          ", host " + bits(target[k]));
    optimal += target != ref.P[a] && target != ref.P[b];
    const bool ok = ref.passes(a, b, target);
    passed += ok;
    if ((round.checked[e] >= 0) != ok)
      checks.add(name + ": device " + (round.checked[e] >= 0 ? "passes" : "fails") + ", host " +
        (ok ? "passes" : "fails"));
  }
  EXPECT_EQ(quadrics.count, 0u) << quadrics.first.str();
  EXPECT_EQ(classes.count, 0u) << classes.first.str();
  EXPECT_EQ(costs.count, 0u) << costs.first.str();
  EXPECT_EQ(survivors.count, 0u) << survivors.first.str();
  EXPECT_EQ(targets.count, 0u) << targets.first.str();
  EXPECT_EQ(checks.count, 0u) << checks.first.str();
  // Not a trivial round: candidates with optimal points, some failing their checks, some not.
  EXPECT_GT(candidates, edges / 4);
  EXPECT_GT(optimal, candidates / 4);
  EXPECT_GT(passed, candidates / 4);
  EXPECT_LT(passed, candidates);
}
} // namespace

TEST(DecimationDeterminism, FirstRoundMatchesTheHostBitForBit)
{
  const testmesh::Mesh mesh = wavyGrid(20000, 0.0);
  DecimationOptions options;
  options.maximumNormalChange = 15.0; // more edges fail the fold check
  for (Precision precision : { Precision::Single, Precision::Double })
  {
    SCOPED_TRACE(precision == Precision::Single ? "float points" : "double points");
    compareFirstRound(mesh, precision, options);
  }
}

TEST(DecimationDeterminism, FirstRoundWithLinesAndCornersMatchesTheHost)
{
  const testmesh::Mesh mesh = wavyGrid(20000, 41.3);
  DecimationOptions options;
  options.preserveBoundary = true;
  options.preserveFeatures = true;
  options.featureAngle = 20.0;
  options.maximumNormalChange = 15.0;
  for (Precision precision : { Precision::Single, Precision::Double })
  {
    SCOPED_TRACE(precision == Precision::Single ? "float points" : "double points");
    compareFirstRound(mesh, precision, options);
  }
  // Lines and corners are there to compare.
  DeviceRun run(DeviceContext::acquire(testDevice()), Precision::Single);
  const DecimationRoundEdges round = firstRoundEdges(run, DeviceMesh(run, testmesh::toHost(mesh)), options);
  const auto lines = std::count(round.vertexClass.begin(), round.vertexClass.end(), cl_uchar(1));
  const auto fixed = std::count(round.vertexClass.begin(), round.vertexClass.end(), cl_uchar(0));
  EXPECT_GT(lines, 100);
  EXPECT_GT(fixed, 4);
}

TEST(DecimationDeterminism, FirstRoundWithoutPreserveTopologyMatchesTheHost)
{
  const testmesh::Mesh mesh = wavyGrid(5000, 0.0);
  DecimationOptions options;
  options.preserveTopology = false;
  compareFirstRound(mesh, Precision::Single, options);
}
