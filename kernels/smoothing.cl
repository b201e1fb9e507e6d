// Jacobi vertex smoothing (core/gpumesh/Smoothing.h). The state is each vertex's displacement
// d from its input position x0 (REAL4 per vertex), so a small move of a point far from the
// mesh origin is not lost to rounding: x = x0 + d. A step reads the previous iterate `in` and
// writes `out`: d_v += factor * mean over the row's sources s of (s - x_v), where (s - x_v)
// is formed from differences of nearby values only. The sources are the neighbour vertices
// (umbrella operator) or, with CELL_SOURCES, the barycentres of the vertex's cells, kept as
// an anchor point plus an offset (gathered after the per-cell scatter). Rows are sorted, so
// each vertex sums in one fixed order: results are identical run to run. A vertex whose role
// differs from `role` is not written; it keeps, in both ping-pong buffers, its displacement.
// Build options: WIDTH, the row width of the fixed-width table relax_rows reads (a
// compile-time constant so the loop over a row unrolls); CELL_SOURCES (0 or 1).
#ifndef WIDTH
#define WIDTH 1
#endif
#ifndef CELL_SOURCES
#define CELL_SOURCES 0
#endif

// Vertex roles; a smaller role wins where several sides disagree (atomic_min).
#define PINNED 0
#define ON_BOUNDARY 1
#define INTERIOR 2
#define NONE_ID 0xffffffffu

// The relax kernels' last arguments: the barycentres and their anchors, or nothing (the
// sources are the vertices of `in`).
#if CELL_SOURCES
#define SOURCE_ARGUMENTS , __global const REAL4 *sources, __global const int *anchors
#define SOURCES , sources, anchors
// Barycentre of cell s minus x_v.
inline REAL3 towards(__global const REAL* points, __global const REAL4* in, int v, REAL3 x0, int s
  SOURCE_ARGUMENTS)
{
  return (point_at(points, anchors[s]) - x0) + (sources[s].xyz - in[v].xyz);
}
#else
#define SOURCE_ARGUMENTS
#define SOURCES
// Vertex s minus vertex v.
inline REAL3 towards(__global const REAL* points, __global const REAL4* in, int v, REAL3 x0, int s)
{
  return (point_at(points, s) - x0) + (in[s].xyz - in[v].xyz);
}
#endif

// One row of a fixed-width table per work-item; rows end at their first -1.
// Per step: in, out, factor; the rest is bound once.
__kernel void relax_rows(__global const REAL4* in, __global REAL4* out, const REAL factor,
  __global const REAL* points, __global const int* row_vertex, const int rows,
  __global const int* entries, const uint base, __global const int* roles,
  const int role SOURCE_ARGUMENTS)
{
  const int r = get_global_id(0);
  if (r >= rows)
    return;
  const int v = row_vertex[r];
  if (roles[v] != role)
    return;
  __global const int* row = entries + base + (size_t)r * WIDTH;
  const REAL3 x0 = point_at(points, v);
  REAL3 sum = (REAL3)(0);
  int n = 0;
  for (int k = 0; k < WIDTH; ++k)
  {
    const int s = row[k];
    if (s < 0)
      break;
    sum += towards(points, in, v, x0, s SOURCES);
    ++n;
  }
  out[v] = (REAL4)(in[v].xyz + factor * (sum / (REAL)n), 0);
}

// The overflow table: rows of any length, offsets[r] from base, degree[v] values.
__kernel void relax_overflow(__global const REAL4* in, __global REAL4* out, const REAL factor,
  __global const REAL* points, __global const int* row_vertex, const int rows,
  __global const int* entries, const uint base, __global const uint* offsets,
  __global const int* degree, __global const int* roles, const int role SOURCE_ARGUMENTS)
{
  const int r = get_global_id(0);
  if (r >= rows)
    return;
  const int v = row_vertex[r];
  if (roles[v] != role)
    return;
  __global const int* row = entries + base + offsets[r];
  const int n = degree[v];
  const REAL3 x0 = point_at(points, v);
  REAL3 sum = (REAL3)(0);
  for (int k = 0; k < n; ++k)
    sum += towards(points, in, v, x0, row[k] SOURCES);
  out[v] = (REAL4)(in[v].xyz + factor * (sum / (REAL)n), 0);
}

// The scatter half of barycentric smoothing: each cell's barycentre as its first point (its
// anchor, found once: core/gpumesh/NeighborDistance.h's centroids) plus the mean of
// (x0_k - x0_first + d_k) over its vertices.
// Per step: in; the rest is bound once.
__kernel void barycentre(__global const REAL4* in, CELL_ARGS, __global const REAL* points,
  __global REAL4* barycentres)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  const REAL3 origin = point_at(points, v[0]);
  REAL3 sum = (REAL3)(0);
  for (int k = 0; k < n; ++k)
    sum += (point_at(points, v[k]) - origin) + in[v[k]].xyz;
  barycentres[cell_ids[i]] = (REAL4)(sum / (REAL)n, 0);
}

// The result: moved points x0 + d and the displacement as it lands, (x0 + d) - x0, 3 REALs
// per point each (VTK's layout).
__kernel void moved_points(__global const REAL* points, __global const REAL4* displacement,
  const int count, __global REAL* moved, __global REAL* moved_by)
{
  const int v = get_global_id(0);
  if (v >= count)
    return;
  const REAL3 x0 = point_at(points, v);
  const REAL3 x = x0 + displacement[v].xyz;
  vstore3(x, v, moved);
  vstore3(x - x0, v, moved_by);
}

// One work-item per side slot: a side of one cell (boundary) gives its vertices
// `boundary_role`, a side of more than two cells (non-manifold) pins them.
__kernel void mark_sides(__global const int2* slot_run, __global const int* slot_entity,
  __global const uint4* entity_vertices, const int slots, const int boundary_role,
  __global int* roles)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  const int cells = slot_run[s].y;
  if (cells == 2)
    return;
  const int role = cells == 1 ? boundary_role : PINNED;
  const uint4 v = entity_vertices[slot_entity[s]];
  atomic_min(&roles[v.x], role);
  atomic_min(&roles[v.y], role);
  if (v.z != NONE_ID)
    atomic_min(&roles[v.z], role);
  if (v.w != NONE_ID)
    atomic_min(&roles[v.w], role);
}

__kernel void pin_vertices(__global const uchar* pinned, const int vertices, __global int* roles)
{
  const int v = get_global_id(0);
  if (v < vertices && pinned[v])
    roles[v] = PINNED;
}
