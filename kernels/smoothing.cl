// Jacobi vertex smoothing (core/gpumesh/Smoothing.h). A step reads the previous iterate `in`
// and writes `out`: out = x + factor * (mean of the row's sources - x). The sources are the
// neighbour vertices' positions (umbrella operator) or the barycentres of the vertex's cells
// (gathered after the per-cell scatter). Rows are sorted, so each vertex sums in one fixed
// order: results are identical run to run. A vertex whose role differs from `role` is not
// written; it keeps, in both ping-pong buffers, the position it started with.
// Build option: WIDTH, the row width of the fixed-width table relax_rows reads (a
// compile-time constant so the loop over a row unrolls; other kernels ignore it).
#ifndef WIDTH
#define WIDTH 1
#endif

// Vertex roles; a smaller role wins where several sides disagree (atomic_min).
#define PINNED 0
#define ON_BOUNDARY 1
#define INTERIOR 2
#define NONE_ID 0xffffffffu

inline float4 relaxed(float4 x, float3 sum, int n, float factor)
{
  return (float4)(x.xyz + factor * (sum / (float)n - x.xyz), 0.0f);
}

// One row of a fixed-width table per work-item; rows end at their first -1.
__kernel void relax_rows(__global const float4* in, __global const float4* sources,
  __global float4* out, __global const int* row_vertex, const int rows,
  __global const int* entries, const uint base, __global const int* roles, const int role,
  const float factor)
{
  const int r = get_global_id(0);
  if (r >= rows)
    return;
  const int v = row_vertex[r];
  if (roles[v] != role)
    return;
  __global const int* row = entries + base + (size_t)r * WIDTH;
  float3 sum = (float3)(0.0f);
  int n = 0;
  for (int k = 0; k < WIDTH; ++k)
  {
    const int s = row[k];
    if (s < 0)
      break;
    sum += sources[s].xyz;
    ++n;
  }
  out[v] = relaxed(in[v], sum, n, factor);
}

// The overflow table: rows of any length, offsets[r] from base, degree[v] values.
__kernel void relax_overflow(__global const float4* in, __global const float4* sources,
  __global float4* out, __global const int* row_vertex, const int rows,
  __global const int* entries, const uint base, __global const uint* offsets,
  __global const int* degree, __global const int* roles, const int role, const float factor)
{
  const int r = get_global_id(0);
  if (r >= rows)
    return;
  const int v = row_vertex[r];
  if (roles[v] != role)
    return;
  __global const int* row = entries + base + offsets[r];
  const int n = degree[v];
  float3 sum = (float3)(0.0f);
  for (int k = 0; k < n; ++k)
    sum += sources[row[k]].xyz;
  out[v] = relaxed(in[v], sum, n, factor);
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
