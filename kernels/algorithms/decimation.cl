// Quadric edge collapse of triangle surfaces (core/gpumesh/algorithms/Decimation.h), one round at a
// time: quadrics per vertex, a cost and a checked target per edge, an independent set of the
// cheapest edges, then the collapses applied and the triangles compacted. Every value is computed
// by one work-item from what the round started with, so the result does not depend on the
// schedule: no atomics on floating-point values.
//
// The mesh is triangles (3 ids each, cell t's edge k joins its corners k and k + 1: VTK's order,
// slot 3t + k of CellEntities). A vertex's ball is its row of a VertexTable of cells
// (row_start, degree, entries); its neighbours the row of a VertexTable of vertices.
//
// Build options: QUADRIC_DOUBLE (1 where the device has fp64: quadrics, costs and checks in double).
//
// The same output on every device: every value that decides a collapse (quadrics, costs, targets,
// vertex classes, checks) is computed in QREAL by + - * / and sqrt only, each rounded on its own
// (no contraction into fma, no built-in dot/cross/length/distance, whose implementations differ),
// in a fixed order. In double these operations are correctly rounded on every OpenCL device, so
// the results are bit for bit those of the host reference (testing/core/TestDecimation.cxx); in
// float (devices without fp64) division and sqrt may differ by an ulp between devices.
#pragma OPENCL FP_CONTRACT OFF

#if QUADRIC_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double QREAL;
typedef double3 QREAL3;
#define QREAL_MAX DBL_MAX
// Below this |det| / ||A||^3 the 3x3 system of the optimal point is taken as singular.
#define SINGULAR 1e-10
// Below this (twice the area)^2 / (sum of squared sides)^2 a triangle is degenerate.
#define DEGENERATE 1e-12
#else
typedef float QREAL;
typedef float3 QREAL3;
#define QREAL_MAX FLT_MAX
#define SINGULAR 1e-5f
#define DEGENERATE 1e-12f
#endif

// Vector operations in a fixed order, each operation rounded on its own.
inline QREAL qdot(QREAL3 a, QREAL3 b)
{
  return a.x * b.x + a.y * b.y + a.z * b.z;
}

inline QREAL3 qcross(QREAL3 a, QREAL3 b)
{
  return (QREAL3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

inline QREAL qlength(QREAL3 a)
{
  return sqrt(qdot(a, a));
}

// Vertex classes: how far a vertex may move.
#define FIXED 0 // not at all: corners, frozen vertices, non-manifold ones
#define LINE 1  // along its two line edges (boundary with PreserveBoundary, features)
#define FREE 2

// A quadric: the symmetric 4x4 matrix of planes, 10 coefficients
// (a2 ab ac ad b2 bc bd c2 cd d2), times `weight`, added to q.
inline void add_plane(QREAL* q, QREAL3 n, QREAL d, QREAL weight)
{
  q[0] += weight * n.x * n.x;
  q[1] += weight * n.x * n.y;
  q[2] += weight * n.x * n.z;
  q[3] += weight * n.x * d;
  q[4] += weight * n.y * n.y;
  q[5] += weight * n.y * n.z;
  q[6] += weight * n.y * d;
  q[7] += weight * n.z * n.z;
  q[8] += weight * n.z * d;
  q[9] += weight * d * d;
}

// v^T Q v for v = (x, y, z, 1): the sum of the weighted squared distances to the planes.
inline QREAL quadric_cost(const QREAL* q, QREAL3 p)
{
  const QREAL c = q[0] * p.x * p.x + 2 * q[1] * p.x * p.y + 2 * q[2] * p.x * p.z + 2 * q[3] * p.x +
    q[4] * p.y * p.y + 2 * q[5] * p.y * p.z + 2 * q[6] * p.y + q[7] * p.z * p.z + 2 * q[8] * p.z + q[9];
  return c > 0 ? c : 0; // rounding can make a zero error slightly negative
}

inline QREAL3 qwiden(REAL3 p)
{
  return (QREAL3)((QREAL)p.x, (QREAL)p.y, (QREAL)p.z);
}

inline QREAL3 qpoint(__global const REAL* points, int id)
{
  return qwiden(point_at(points, id));
}

inline int3 triangle_at(__global const int* triangles, int t)
{
  return vload3(t, triangles);
}

inline int corner_of(int3 tri, int v)
{
  return tri.x == v ? 0 : (tri.y == v ? 1 : 2);
}

inline int corner(int3 tri, int k)
{
  return k == 0 ? tri.x : (k == 1 ? tri.y : tri.z);
}

// A fixed permutation of the edge ids (MurmurHash3's finaliser, a bijection of 32-bit values)
// for ties: edge ids follow the vertices, so in id order a local minimum among equal costs (a
// flat region) is only found at the front of the numbering, and one round would collapse a
// wavefront; in this order the minima are spread everywhere. Still a function of the ids only.
inline uint tie_order(int e)
{
  uint x = (uint)e;
  x ^= x >> 16;
  x *= 0x85ebca6bu;
  x ^= x >> 13;
  x *= 0xc2b2ae35u;
  x ^= x >> 16;
  return x;
}

// (cost, permuted id) order: the cheaper edge first, ties by tie_order.
inline int cheaper(__global const QREAL* cost, int e, int f)
{
  return cost[e] < cost[f] || (cost[e] == cost[f] && tie_order(e) < tie_order(f));
}

// A triangle's unit-less normal (twice its area long).
inline QREAL3 triangle_normal(__global const REAL* points, int3 tri)
{
  const QREAL3 p0 = qpoint(points, tri.x);
  return qcross(qpoint(points, tri.y) - p0, qpoint(points, tri.z) - p0);
}

// Whether the edge of `slot` (its run: first place in sorted_slots, number of triangles) is a line
// that vertices may only move along: a boundary edge under PreserveBoundary, a feature edge
// (normals of its two triangles further apart than the feature angle) under PreserveFeatures.
inline int line_edge(__global const int* triangles, __global const REAL* points, __global const int* sorted_slots,
  int2 run, int preserve_boundary, int preserve_features, REAL cos_feature)
{
  if (run.y == 1)
    return preserve_boundary;
  if (run.y != 2 || !preserve_features)
    return 0;
  const QREAL3 n1 = triangle_normal(points, triangle_at(triangles, sorted_slots[run.x] / 3));
  const QREAL3 n2 = triangle_normal(points, triangle_at(triangles, sorted_slots[run.x + 1] / 3));
  return qdot(n1, n2) < (QREAL)cos_feature * qlength(n1) * qlength(n2);
}

// The first triangle (smallest id) with a repeated point, and the first with zero area.
__kernel void check_triangles(__global const int* triangles, const int count, __global const REAL* points,
  __global int* first_bad)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  const int3 tri = triangle_at(triangles, t);
  if (tri.x == tri.y || tri.y == tri.z || tri.z == tri.x)
    atomic_min(&first_bad[0], t);
  else if (all(triangle_normal(points, tri) == (QREAL3)(0)))
    atomic_min(&first_bad[1], t);
}

// Garland-Heckbert: each triangle of v's ball adds its plane weighted by its area, each boundary
// edge at v a plane through the edge perpendicular to its triangle, weighted by the edge's squared
// length (as vtkQuadricDecimation constrains boundaries). The ball is in cell order: the sum's
// order is fixed.
__kernel void vertex_quadrics(__global const int* triangles, __global const REAL* points,
  __global const int* ball, __global const uint* ball_start, __global const int* ball_degree,
  __global const int2* slot_run, const int vertices, __global QREAL* quadrics)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  QREAL q[10] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 };
  const uint start = ball_start[v];
  for (int i = 0; i < ball_degree[v]; ++i)
  {
    const int t = ball[start + i];
    const int3 tri = triangle_at(triangles, t);
    const QREAL3 p[3] = { qpoint(points, tri.x), qpoint(points, tri.y), qpoint(points, tri.z) };
    const QREAL3 n = qcross(p[1] - p[0], p[2] - p[0]);
    const QREAL twice_area = qlength(n);
    if (twice_area == 0)
      continue;
    const QREAL3 unit = n / twice_area;
    add_plane(q, unit, -qdot(unit, p[0]), twice_area / 2);
    const int k = corner_of(tri, v);
    // The two edges at v: k -> k + 1 (slot k) and k + 2 -> k (slot k + 2).
    for (int j = 0; j < 2; ++j)
    {
      const int edge = (k + 2 * j) % 3;
      if (slot_run[3 * t + edge].y != 1)
        continue;
      const QREAL3 a = p[edge], b = p[(edge + 1) % 3];
      const QREAL3 side = qcross(b - a, unit);
      const QREAL side_length = qlength(side);
      if (side_length == 0)
        continue;
      const QREAL3 sn = side / side_length;
      add_plane(q, sn, -qdot(sn, a), qdot(b - a, b - a));
    }
  }
  for (int c = 0; c < 10; ++c)
    quadrics[10 * (size_t)v + c] = q[c];
}

// Per edge, its run of slots (first place in sorted_slots, number of triangles).
__kernel void edge_runs(__global const int2* slot_run, __global const int* sorted_slots,
  __global const int* slot_entity, const int slots, __global int2* edge_run)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  const int2 run = slot_run[s];
  if (sorted_slots[run.x] == s)
    edge_run[slot_entity[s]] = run;
}

// Per vertex: FIXED, LINE or FREE, whether it lies on the boundary (for the link condition), and
// its number of neighbours (of edges).
// Each edge at v is counted once, from its first triangle.
__kernel void vertex_classes(__global const int* triangles, __global const REAL* points,
  __global const int* ball, __global const uint* ball_start, __global const int* ball_degree,
  __global const int2* slot_run, __global const int* sorted_slots, __global const uchar* frozen,
  const int has_frozen, const int preserve_boundary, const int preserve_features, const REAL cos_feature,
  const int vertices, __global uchar* vertex_class, __global uchar* on_boundary, __global int* neighbour_count)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  int boundary = 0, lines = 0, nonmanifold = 0, degree = 0;
  int ends[2] = { v, v }; // the other ends of the first two line edges
  const uint start = ball_start[v];
  for (int i = 0; i < ball_degree[v]; ++i)
  {
    const int t = ball[start + i];
    const int3 tri = triangle_at(triangles, t);
    const int k = corner_of(tri, v);
    for (int j = 0; j < 2; ++j)
    {
      const int edge = (k + 2 * j) % 3;
      const int slot = 3 * t + edge;
      const int2 run = slot_run[slot];
      if (sorted_slots[run.x] != slot)
        continue;
      ++degree;
      nonmanifold |= run.y > 2;
      boundary += run.y == 1;
      if (line_edge(triangles, points, sorted_slots, run, preserve_boundary, preserve_features, cos_feature))
      {
        if (lines < 2)
          ends[lines] = corner(tri, edge == k ? (k + 1) % 3 : edge);
        ++lines;
      }
    }
  }
  // A vertex where a line turns by more than the feature angle is a corner.
  int corner_point = 0;
  if (lines == 2)
  {
    const QREAL3 p = qpoint(points, v);
    const QREAL3 in = p - qpoint(points, ends[0]), out = qpoint(points, ends[1]) - p;
    corner_point = qdot(in, out) < (QREAL)cos_feature * qlength(in) * qlength(out);
  }
  // A vertex on one or more than two boundary edges has a ball of several fans: it stays.
  const int fixed = nonmanifold || (boundary != 0 && boundary != 2) || (lines != 0 && lines != 2) ||
    corner_point || (has_frozen && frozen[v]);
  vertex_class[v] = fixed ? FIXED : (lines == 2 ? LINE : FREE);
  neighbour_count[v] = degree;
  on_boundary[v] = boundary > 0;
}

// The neighbours of v, each once, from its ball: the corner after v in each triangle, and the
// corner before v where that edge is on the boundary (the end of an open fan). `visit(x)` is a
// statement run for each, with the neighbour in x.
#define FOR_NEIGHBOURS(v, start, count, x, visit)                                                  \
  for (int i_ = 0; i_ < (count); ++i_)                                                            \
  {                                                                                                \
    const int t_ = ball[(start) + i_];                                                             \
    const int3 tri_ = triangle_at(triangles, t_);                                                  \
    const int k_ = corner_of(tri_, (v));                                                           \
    {                                                                                              \
      const int x = corner(tri_, (k_ + 1) % 3);                                                    \
      visit;                                                                                       \
    }                                                                                              \
    if (slot_run[3 * t_ + (k_ + 2) % 3].y == 1)                                                    \
    {                                                                                              \
      const int x = corner(tri_, (k_ + 2) % 3);                                                    \
      visit;                                                                                       \
    }                                                                                              \
  }

// Whether vertex x is a corner of a triangle of the ball [start, start + count).
inline int in_ball(__global const int* triangles, __global const int* ball, uint start, int count, int x)
{
  for (int i = 0; i < count; ++i)
  {
    const int3 tri = triangle_at(triangles, ball[start + i]);
    if (tri.x == x || tri.y == x || tri.z == x)
      return 1;
  }
  return 0;
}

// Whether moving a and b to p turns a triangle of `v`'s ball (other than those on edge a-b) more
// than the angle whose cosine is cos_normal, or makes it degenerate.
inline int ball_folds(__global const int* triangles, __global const REAL* points, __global const int* ball,
  uint start, int count, int a, int b, QREAL3 p, QREAL cos_normal)
{
  for (int i = 0; i < count; ++i)
  {
    const int3 tri = triangle_at(triangles, ball[start + i]);
    const int has_a = tri.x == a || tri.y == a || tri.z == a;
    const int has_b = tri.x == b || tri.y == b || tri.z == b;
    if (has_a && has_b)
      continue;
    QREAL3 q[3];
    for (int k = 0; k < 3; ++k)
    {
      const int id = corner(tri, k);
      q[k] = (id == a || id == b) ? p : qpoint(points, id);
    }
    const QREAL3 before = triangle_normal(points, tri);
    const QREAL3 after = qcross(q[1] - q[0], q[2] - q[0]);
    const QREAL squares =
      qdot(q[1] - q[0], q[1] - q[0]) + qdot(q[2] - q[1], q[2] - q[1]) + qdot(q[0] - q[2], q[0] - q[2]);
    // Degenerate: twice the area tiny beside the squared sides (a needle or a point).
    if (!(qdot(after, after) > DEGENERATE * squares * squares))
      return 1;
    if (qdot(before, after) < cos_normal * qlength(before) * qlength(after))
      return 1;
  }
  return 0;
}

// Whether collapsing a-b would make two triangles equal: a triangle (a, x, y) and a triangle
// (b, x, y), neither on the edge.
inline int makes_duplicate(__global const int* triangles, __global const int* ball, uint a_start, int a_count,
  uint b_start, int b_count, int a, int b)
{
  for (int i = 0; i < a_count; ++i)
  {
    const int3 ta = triangle_at(triangles, ball[a_start + i]);
    const int ka = corner_of(ta, a);
    const int x = corner(ta, (ka + 1) % 3), y = corner(ta, (ka + 2) % 3);
    if (x == b || y == b)
      continue;
    for (int j = 0; j < b_count; ++j)
    {
      const int3 tb = triangle_at(triangles, ball[b_start + j]);
      const int kb = corner_of(tb, b);
      const int u = corner(tb, (kb + 1) % 3), w = corner(tb, (kb + 2) % 3);
      if ((u == x && w == y) || (u == y && w == x))
        return 1;
    }
  }
  return 0;
}

// Per edge: where its collapse would put the merged vertex, what it costs (the merged quadric
// there), and which end survives; survivor -1 when the edge may not collapse (cost then
// QREAL_MAX). Which targets a pair of vertex classes allows:
//   FIXED + FIXED: none. FIXED + other: the fixed end (a LINE other end only along a line edge).
//   LINE + FREE: the LINE end. LINE + LINE: only along a line edge, to the cheapest of the two
//   ends and the midpoint. FREE + FREE: the optimal point when the 3x3 system is well
//   conditioned and the point lies within an edge length of the midpoint, else the cheapest of
//   the two ends and the midpoint.
// No candidate costs more than MaximumError; edge_checks does the rest.
__kernel void edge_costs(__global const int* triangles, __global const REAL* points,
  __global const uint4* edge_vertices, __global const int2* edge_run, __global const int* sorted_slots,
  __global const uchar* vertex_class, __global const QREAL* quadrics, const int preserve_boundary,
  const int preserve_features, const REAL cos_feature, const QREAL maximum_error, const int edges,
  __global QREAL* cost, __global REAL* target, __global int* survivor)
{
  const int e = get_global_id(0);
  if (e >= edges)
    return;
  cost[e] = QREAL_MAX;
  survivor[e] = -1;
  const int a = (int)edge_vertices[e].x, b = (int)edge_vertices[e].y;
  const int2 run = edge_run[e];
  if (run.y > 2)
    return;
  const int line = line_edge(triangles, points, sorted_slots, run, preserve_boundary, preserve_features, cos_feature);
  const int ca = vertex_class[a], cb = vertex_class[b];
  // 0: no collapse, 1: to a, 2: to b, 3: cheapest of a, b, midpoint, 4: optimal point.
  int mode = 0;
  if (ca == FIXED && cb == FIXED)
    mode = 0;
  else if (ca == FIXED)
    mode = (cb == FREE || line) ? 1 : 0;
  else if (cb == FIXED)
    mode = (ca == FREE || line) ? 2 : 0;
  else if (ca == LINE && cb == LINE)
    mode = line ? 3 : 0;
  else if (ca == LINE)
    mode = 1;
  else if (cb == LINE)
    mode = 2;
  else
    mode = 4;
  if (mode == 0)
    return;

  QREAL q[10];
  for (int c = 0; c < 10; ++c)
    q[c] = quadrics[10 * (size_t)a + c] + quadrics[10 * (size_t)b + c];
  const QREAL3 pa = qpoint(points, a), pb = qpoint(points, b), mid = (pa + pb) / 2;
  QREAL3 best = pa;
  QREAL best_cost = 0;
  if (mode == 4)
  {
    // A x = -b by cofactors (A symmetric).
    const QREAL c00 = q[4] * q[7] - q[5] * q[5], c01 = q[2] * q[5] - q[1] * q[7], c02 = q[1] * q[5] - q[2] * q[4];
    const QREAL c11 = q[0] * q[7] - q[2] * q[2], c12 = q[1] * q[2] - q[0] * q[5], c22 = q[0] * q[4] - q[1] * q[1];
    const QREAL det = q[0] * c00 + q[1] * c01 + q[2] * c02;
    const QREAL norm = sqrt(q[0] * q[0] + q[4] * q[4] + q[7] * q[7] + 2 * (q[1] * q[1] + q[2] * q[2] + q[5] * q[5]));
    int solved = 0;
    if (norm > 0 && fabs(det) > SINGULAR * norm * norm * norm)
    {
      const QREAL3 x = -(QREAL3)(c00 * q[3] + c01 * q[6] + c02 * q[8], c01 * q[3] + c11 * q[6] + c12 * q[8],
                         c02 * q[3] + c12 * q[6] + c22 * q[8]) / det;
      if (qlength(x - mid) <= qlength(pa - pb))
      {
        best = x;
        best_cost = quadric_cost(q, x);
        solved = 1;
      }
    }
    if (!solved)
      mode = 3;
  }
  if (mode == 3)
  {
    // Ties to a, then b, then the midpoint.
    best = pa;
    best_cost = quadric_cost(q, pa);
    const QREAL cost_b = quadric_cost(q, pb), cm = quadric_cost(q, mid);
    if (cost_b < best_cost)
    {
      best = pb;
      best_cost = cost_b;
    }
    if (cm < best_cost)
    {
      best = mid;
      best_cost = cm;
    }
  }
  else if (mode == 1 || mode == 2)
  {
    best = mode == 1 ? pa : pb;
    best_cost = quadric_cost(q, best);
  }
  if (!(best_cost <= maximum_error))
    return;
  cost[e] = best_cost;
  vstore3((REAL3)((REAL)best.x, (REAL)best.y, (REAL)best.z), e, target);
  // The end the target is, else the smaller id (a).
  survivor[e] = (mode == 2 || (mode == 3 && all(best == pb))) ? b : a;
}

// The checks of a candidate (those within the round's cost threshold only: they cost more than
// the rest of the round): the link condition (PreserveTopology), no vertex of fewer than 3
// neighbours left inside (2 on the boundary), no duplicate triangle, no triangle folded or
// degenerate. A candidate that fails is no candidate this round.
__kernel void edge_checks(__global const int* triangles, __global const REAL* points,
  __global const uint4* edge_vertices, __global const int2* edge_run, __global const int* ball,
  __global const uint* ball_start, __global const int* ball_degree, __global const int2* slot_run,
  __global const uchar* on_boundary, __global const int* neighbour_count, __global const REAL* target,
  const int preserve_topology,
  const REAL cos_normal, const int edges, __global int* survivor)
{
  const int e = get_global_id(0);
  if (e >= edges || survivor[e] < 0)
    return;
  const int a = (int)edge_vertices[e].x, b = (int)edge_vertices[e].y;
  const int2 run = edge_run[e];
  const uint a_start = ball_start[a], b_start = ball_start[b];
  const int a_count = ball_degree[a], b_count = ball_degree[b];
  // The neighbours a and b share: those of the end with the smaller ball, each tested against
  // the other end through whichever of the two balls is smaller, so that a vertex of high degree
  // costs its degree once, not its square. (On a non-manifold fan a neighbour may be counted
  // twice: the link condition then fails, which is the safe side.)
  const int small = a_count <= b_count ? a : b, other = small == a ? b : a;
  const uint small_start = small == a ? a_start : b_start, other_start = small == a ? b_start : a_start;
  const int small_count = small == a ? a_count : b_count, other_count = small == a ? b_count : a_count;
  int shared = 0;
  FOR_NEIGHBOURS(small, small_start, small_count, x, {
    if (x != other)
      shared += ball_degree[x] < other_count ? in_ball(triangles, ball, ball_start[x], ball_degree[x], other)
                                             : in_ball(triangles, ball, other_start, other_count, x);
  })
  int ok = 1;
  if (preserve_topology)
  {
    // Link condition: the common neighbours are the opposite corners of the edge's triangles, and
    // two boundary vertices join only along a boundary edge (the boundary's virtual vertex). On a
    // manifold it also rules out duplicate triangles (bar the tetrahedron, which the degree rules
    // out).
    ok = shared == run.y && !(on_boundary[a] && on_boundary[b] && run.y != 1);
  }
  else
    ok = !makes_duplicate(triangles, ball, a_start, a_count, b_start, b_count, a, b);
  const int merged_degree = neighbour_count[a] + neighbour_count[b] - shared - 2;
  ok = ok && merged_degree >= ((on_boundary[a] || on_boundary[b]) ? 2 : 3);
  const QREAL3 p = qwiden(vload3(e, target));
  ok = ok && !ball_folds(triangles, points, ball, a_start, a_count, a, b, p, (QREAL)cos_normal) &&
    !ball_folds(triangles, points, ball, b_start, b_count, a, b, p, (QREAL)cos_normal);
  if (!ok)
    survivor[e] = -1;
}

// Buckets of the candidates' costs: the top 16 bits of the cost as a float (sign, exponent and 7
// bits of mantissa: non-negative floats order as their bits, here in buckets of 1/128 relative).
// Counted, they give the bucket below which a round's candidates lie, so that the rounds follow
// the global order of costs as a sequential decimation does.
inline ulong cost_key(QREAL cost)
{
  return (ulong)(as_uint((float)cost) >> 16);
}

// How many candidates fall in each key's bucket (integer atomics: the counts do not depend on
// the order).
__kernel void cost_histogram(__global const QREAL* cost, __global const int* survivor, const int edges,
  __global uint* histogram)
{
  const int e = get_global_id(0);
  if (e < edges && survivor[e] >= 0)
    atomic_inc(&histogram[cost_key(cost[e])]);
}

// Candidates dearer than the threshold wait for a later round.
__kernel void limit_candidates(__global const QREAL* cost, const ulong threshold, const int edges,
  __global int* survivor)
{
  const int e = get_global_id(0);
  if (e < edges && survivor[e] >= 0 && cost_key(cost[e]) > threshold)
    survivor[e] = -1;
}

// Per vertex: its cheapest candidate edge, by (cost, id), over the edges of its ball; -1 if none.
__kernel void vertex_minimum(__global const int* triangles, __global const int* ball,
  __global const uint* ball_start, __global const int* ball_degree, __global const int* slot_entity,
  __global const QREAL* cost, __global const uchar* candidate, const int vertices, __global int* cheapest)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  int best = -1;
  const uint start = ball_start[v];
  for (int i = 0; i < ball_degree[v]; ++i)
  {
    const int t = ball[start + i];
    const int k = corner_of(triangle_at(triangles, t), v);
    for (int j = 0; j < 2; ++j)
    {
      const int e = slot_entity[3 * t + (k + 2 * j) % 3];
      if (candidate[e] && (best < 0 || cheaper(cost, e, best)))
        best = e;
    }
  }
  cheapest[v] = best;
}

// Per vertex: the cheapest of the cheapest edges at the corners of its triangles (-1 if none).
__kernel void ring_minimum(__global const int* triangles, __global const int* ball,
  __global const uint* ball_start, __global const int* ball_degree, __global const QREAL* cost,
  __global const int* cheapest, const int vertices, __global int* ring_cheapest)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  int best = -1;
  const uint start = ball_start[v];
  for (int i = 0; i < ball_degree[v]; ++i)
  {
    const int3 tri = triangle_at(triangles, ball[start + i]);
    for (int k = 0; k < 3; ++k)
    {
      const int m = cheapest[corner(tri, k)];
      if (m >= 0 && (best < 0 || cheaper(cost, m, best)))
        best = m;
    }
  }
  ring_cheapest[v] = best;
}

// The candidates of a round: the edges that passed their checks.
__kernel void start_candidates(__global const int* survivor, const int edges, __global uchar* candidate,
  __global uint* removed)
{
  const int e = get_global_id(0);
  if (e >= edges)
    return;
  candidate[e] = survivor[e] >= 0;
  removed[e] = 0;
}

// An edge collapses when it is the cheapest candidate at every vertex of the triangles around both
// its ends (ring_cheapest of both ends is the edge): two such edges never share a triangle of their
// balls, so their checks and collapses are independent. removed: the triangles its collapse
// removes.
__kernel void select_collapses(__global const uint4* edge_vertices, __global const int2* edge_run,
  __global const int* ring_cheapest, const int edges, __global uchar* candidate, __global uint* removed)
{
  const int e = get_global_id(0);
  if (e >= edges || !candidate[e])
    return;
  if (ring_cheapest[edge_vertices[e].x] == e && ring_cheapest[edge_vertices[e].y] == e)
  {
    removed[e] = (uint)edge_run[e].y;
    candidate[e] = 0;
  }
}

// Further passes of a round add collapses away from those selected: every vertex of the triangles
// around a selected edge's ends is taken (the same value from every writer: the race is harmless).
__kernel void take_neighbourhoods(__global const int* triangles, __global const uint4* edge_vertices,
  __global const int* ball, __global const uint* ball_start, __global const int* ball_degree,
  __global const uint* removed, const int edges, __global uchar* taken)
{
  const int e = get_global_id(0);
  if (e >= edges || removed[e] == 0)
    return;
  const int ends[2] = { (int)edge_vertices[e].x, (int)edge_vertices[e].y };
  for (int j = 0; j < 2; ++j)
  {
    const uint start = ball_start[ends[j]];
    for (int i = 0; i < ball_degree[ends[j]]; ++i)
    {
      const int3 tri = triangle_at(triangles, ball[start + i]);
      taken[tri.x] = 1;
      taken[tri.y] = 1;
      taken[tri.z] = 1;
    }
  }
}

// A candidate with a taken end shares a triangle with a selected collapse's neighbourhood (or its
// triangles see a moved vertex): it waits for the next round. One whose ends are both free has no
// vertex of its neighbourhood moved and no triangle of it touched, so its checks still hold.
__kernel void drop_taken(__global const uint4* edge_vertices, __global const uchar* taken, const int edges,
  __global uchar* candidate)
{
  const int e = get_global_id(0);
  if (e < edges && candidate[e] && (taken[edge_vertices[e].x] || taken[edge_vertices[e].y]))
    candidate[e] = 0;
}

// The selected collapses: the survivor moves to the target and takes the other end's quadric; the
// other end is mapped onto it, and is the survivor's partner (by its input id) for point data. applied_cost: the cost of each applied collapse, NaN elsewhere.
__kernel void apply_collapses(__global const uint4* edge_vertices, __global const uint* removed,
  __global const int* survivor, __global const REAL* target, __global const QREAL* cost, const int edges,
  __global const int* input_id, __global REAL* points, __global QREAL* quadrics, __global int* remap,
  __global int* partner, __global REAL* applied_cost)
{
  const int e = get_global_id(0);
  if (e >= edges)
    return;
  if (removed[e] == 0)
  {
    applied_cost[e] = NAN;
    return;
  }
  const int a = (int)edge_vertices[e].x, b = (int)edge_vertices[e].y;
  const int s = survivor[e], o = s == a ? b : a;
  vstore3(vload3(e, target), s, points);
  for (int c = 0; c < 10; ++c)
    quadrics[10 * (size_t)s + c] += quadrics[10 * (size_t)o + c];
  remap[o] = s;
  partner[s] = input_id[o];
  applied_cost[e] = (REAL)cost[e];
}

// The largest applied cost (LargestQuadricError) in `largest`, one value per stride over a
// grid stride of the edges (-INFINITY where none applied: fmax ignores the NaN of the others);
// the host takes the largest of these. A reduction of its own: a general one would be another
// program to build on first use, for one number per round.
__kernel void largest_applied(__global const REAL* applied_cost, const int edges, const int strides,
  __global REAL* largest)
{
  const int i = get_global_id(0);
  const int n = strides; // the launch may hold more work-items than that (a whole work-group)
  if (i >= n)
    return;
  REAL m = -INFINITY;
  for (int e = i; e < edges; e += n)
    m = fmax(m, applied_cost[e]);
  largest[i] = m;
}

// Each triangle's corners through the map; keep[t] = 1 unless two corners became one (the
// triangles of the collapsed edges).
__kernel void remap_triangles(__global int* triangles, const int count, __global const int* remap,
  __global uint* keep)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  const int3 tri = (int3)(remap[triangles[3 * t]], remap[triangles[3 * t + 1]], remap[triangles[3 * t + 2]]);
  vstore3(tri, t, triangles);
  keep[t] = tri.x != tri.y && tri.y != tri.z && tri.z != tri.x;
}

// The kept triangles and their input cells, in order.
__kernel void compact_triangles(__global const int* triangles, __global const int* parent,
  __global const uint* keep, __global const uint* places, const int count, __global int* out_triangles,
  __global int* out_parent)
{
  const int t = get_global_id(0);
  if (t >= count || !keep[t])
    return;
  const uint place = places[t];
  vstore3(vload3(t, triangles), place, out_triangles);
  out_parent[place] = parent[t];
}

// used[v] = 1 for every corner (the same value from every triangle: the race is harmless).
__kernel void mark_used(__global const int* triangles, const int count, __global uint* used)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  used[triangles[3 * t]] = 1;
  used[triangles[3 * t + 1]] = 1;
  used[triangles[3 * t + 2]] = 1;
}

// The used vertices in order, with all they carry: positions, quadrics, input ids, the input id of
// the last vertex collapsed into each, and the frozen mask (has_frozen: whether there is one).
__kernel void compact_vertices(__global const REAL* points, __global const QREAL* quadrics,
  __global const int* input_id, __global const int* partner, __global const uchar* frozen, const int has_frozen,
  __global const uint* used, __global const uint* places, const int vertices, __global REAL* out_points,
  __global QREAL* out_quadrics, __global int* out_input_id, __global int* out_partner, __global uchar* out_frozen)
{
  const int v = get_global_id(0);
  if (v >= vertices || !used[v])
    return;
  const uint place = places[v];
  vstore3(point_at(points, v), place, out_points);
  for (int c = 0; c < 10; ++c)
    out_quadrics[10 * (size_t)place + c] = quadrics[10 * (size_t)v + c];
  out_input_id[place] = input_id[v];
  out_partner[place] = partner[v];
  if (has_frozen)
    out_frozen[place] = frozen[v];
}

// Triangle corners renumbered to the compacted points.
__kernel void renumber_triangles(__global int* triangles, const int count, __global const uint* places)
{
  const int i = get_global_id(0);
  if (i < count)
    triangles[i] = (int)places[triangles[i]];
}
