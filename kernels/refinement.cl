// Longest-edge bisection of triangles (Rivara), in the seven steps of Hatipoglu's thesis
// (seed 002): no locks, and every output array allocated once from the prefix sums.
//
// The edges are the unique sides of the triangles (gpumesh::CellEntities): slot 3t + j of
// triangle t is its local edge j, from vertex j to vertex (j + 1) % 3, and slot_edge gives the
// edge's id. edge_vertices[e] = (smaller id, larger id).
//
// The longest edge of a triangle is the one with the largest squared length (single
// precision, points relative to the mesh origin); an exact tie goes to the edge whose
// (smaller id, larger id) pair is smallest. Every triangle sharing an edge reads the same
// length, so they all agree, whatever the cell order or orientation.

// Squared lengths must round the same way everywhere (no fused multiply-add).
#pragma OPENCL FP_CONTRACT OFF

inline float squared_length(float3 a, float3 b)
{
  const float3 d = b - a;
  return d.x * d.x + d.y * d.y + d.z * d.z;
}

// Whether edge e is longer than edge f under the rule above.
inline int longer(int e, int f, __global const float* length2, __global const uint4* edge_vertices)
{
  if (length2[e] != length2[f])
    return length2[e] > length2[f];
  const uint2 a = edge_vertices[e].xy;
  const uint2 b = edge_vertices[f].xy;
  return a.x < b.x || (a.x == b.x && a.y < b.y);
}

// Step 1: the squared length of every edge (from its smaller-id end, so both orientations
// give the same bits).
__kernel void edge_lengths(__global const float4* points, __global const uint4* edge_vertices,
  const int edges, __global float* length2)
{
  const int e = get_global_id(0);
  if (e >= edges)
    return;
  const uint4 v = edge_vertices[e];
  length2[e] = squared_length(vertex_at(points, (int)v.x), vertex_at(points, (int)v.y));
}

// Checks every triangle: a zero-length edge or a zero area makes it degenerate; an edge
// shared by more than two triangles makes it non-manifold. The smallest offending cell id of
// each kind is kept (atomic_min), so the report does not depend on the schedule.
__kernel void validate_triangles(__global const float4* points, __global const int* triangles,
  __global const int* slot_edge, __global const int2* slot_run, __global const float* length2,
  const int count, __global int* first_bad /* [0] degenerate, [1] non-manifold */)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  const float3 a = vertex_at(points, triangles[3 * t]);
  const float3 b = vertex_at(points, triangles[3 * t + 1]);
  const float3 c = vertex_at(points, triangles[3 * t + 2]);
  int degenerate = length(cross(b - a, c - a)) == 0.0f;
  int non_manifold = 0;
  for (int j = 0; j < 3; ++j)
  {
    degenerate |= length2[slot_edge[3 * t + j]] == 0.0f;
    non_manifold |= slot_run[3 * t + j].y > 2;
  }
  if (degenerate)
    atomic_min(&first_bad[0], t);
  if (non_manifold)
    atomic_min(&first_bad[1], t);
}

// Points on boundary edges (used by one triangle), appended to a list of `capacity` entries:
// unmerged duplicate points show up there as coincident boundary points. list_size counts
// every entry, also those beyond the capacity, so the caller can retry with enough room.
__kernel void boundary_points(__global const int* triangles, __global const int2* slot_run,
  const int count, const int capacity, __global int* list, __global int* list_size)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  for (int j = 0; j < 3; ++j)
  {
    if (slot_run[3 * t + j].y == 1)
    {
      const int k = atomic_add(list_size, 2);
      if (k + 1 < capacity)
      {
        list[k] = triangles[3 * t + j];
        list[k + 1] = triangles[3 * t + (j + 1) % 3];
      }
    }
  }
}

// The coordinates of the listed points (the seam check reads only these).
__kernel void gather_points(__global const float4* points, __global const int* ids,
  const int count, __global float4* out)
{
  const int i = get_global_id(0);
  if (i < count)
    out[i] = points[ids[i]];
}

// Step 2: each triangle finds its longest edge, marks it as the longest of some triangle,
// and, if the triangle is to be refined, marks it for division ("black mark"). Concurrent
// writers of a mark all write 1.
__kernel void longest_edges(__global const int* slot_edge, __global const float* length2,
  __global const uint4* edge_vertices, __global const int* refine, const int count,
  __global int* longest, __global int* is_longest, __global uint* divide)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  int best = 0;
  for (int j = 1; j < 3; ++j)
    if (longer(slot_edge[3 * t + j], slot_edge[3 * t + best], length2, edge_vertices))
      best = j;
  longest[t] = best;
  const int e = slot_edge[3 * t + best];
  is_longest[e] = 1;
  if (refine[t])
    divide[e] = 1;
}

// Step 3: the dependency forest. If an edge of t that is not t's longest is the longest of
// another triangle, dividing it forces t to divide its longest edge: link it there. Only the
// triangle for which the edge is not the longest writes its link, so each edge has one writer.
__kernel void dependency_links(__global const int* slot_edge, __global const int* longest,
  __global const int* is_longest, const int count, __global int* next)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  const int best = longest[t];
  for (int j = 0; j < 3; ++j)
  {
    const int e = slot_edge[3 * t + j];
    if (j != best && is_longest[e])
      next[e] = slot_edge[3 * t + best];
  }
}

// Step 4: propagation along the forest. Links always lead to longer edges, so chains end.
// A walk stops at an edge already marked: whoever marked it walks on from there. Races only
// repeat work; the final set of marked edges is the closure, whatever the schedule.
__kernel void propagate(__global const int* next, const int edges, __global uint* divide)
{
  const int e = get_global_id(0);
  if (e >= edges || !divide[e])
    return;
  for (int f = next[e]; f >= 0; f = next[f])
  {
    if (divide[f])
      break;
    divide[f] = 1;
  }
}

// Step 5: how many triangles each triangle becomes (1 + its divided edges).
__kernel void count_children(__global const int* slot_edge, __global const uint* divide,
  const int count, __global uint* children)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  children[t] = 1 + divide[slot_edge[3 * t]] + divide[slot_edge[3 * t + 1]] + divide[slot_edge[3 * t + 2]];
}

// Step 7a: the midpoint of each divided edge, at the place the prefix sum gave it.
__kernel void new_points(__global const float4* points, __global const uint4* edge_vertices,
  __global const uint* divide, __global const uint* point_offsets, const int edges,
  const int old_points, __global float4* out_points, __global int2* point_parents)
{
  const int e = get_global_id(0);
  if (e >= edges || !divide[e])
    return;
  const uint4 v = edge_vertices[e];
  const int p = (int)point_offsets[e];
  out_points[old_points + p] =
    (float4)(0.5f * (vertex_at(points, (int)v.x) + vertex_at(points, (int)v.y)), 0.0f);
  point_parents[p] = (int2)((int)v.x, (int)v.y);
}

inline void emit_triangle(__global int* out, int slot, int a, int b, int c)
{
  out[3 * slot] = a;
  out[3 * slot + 1] = b;
  out[3 * slot + 2] = c;
}

// Step 7b: Rivara's templates. Rotate (a, b, c) so that a-b is the longest edge, keeping the
// orientation; M is its midpoint, Nbc and Nca the midpoints of the other divided edges. The
// children, written consecutively from triangle_offsets[t], all keep t's orientation:
//   a-b only:         (M b c) (a M c)
//   a-b and b-c:      (M b Nbc) (M Nbc c) (a M c)
//   a-b and c-a:      (M b c) (a M Nca) (M c Nca)
//   all three:        (M b Nbc) (M Nbc c) (a M Nca) (M c Nca)
// A divided edge always drags the longest edge with it (steps 3-4); a triangle found
// otherwise is reported in first_bad[2] rather than written wrongly.
__kernel void apply_templates(__global const int* triangles, __global const int* slot_edge,
  __global const int* longest, __global const uint* divide, __global const uint* point_offsets,
  __global const uint* triangle_offsets, __global const int* refine,
  __global const int* parent_in, const int count, const int old_points,
  __global int* out_triangles, __global int* out_parent, __global int* out_refine,
  __global int* first_bad)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  const int r = longest[t];
  const int a = triangles[3 * t + r];
  const int b = triangles[3 * t + (r + 1) % 3];
  const int c = triangles[3 * t + (r + 2) % 3];
  const int ab = slot_edge[3 * t + r];
  const int bc = slot_edge[3 * t + (r + 1) % 3];
  const int ca = slot_edge[3 * t + (r + 2) % 3];
  int slot = (int)triangle_offsets[t];
  const int first = slot;
  if (!divide[ab] && (divide[bc] || divide[ca]))
  {
    atomic_min(&first_bad[2], t);
    return;
  }
  if (!divide[ab])
  {
    emit_triangle(out_triangles, slot++, triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]);
  }
  else
  {
    const int m = old_points + (int)point_offsets[ab];
    if (divide[bc])
    {
      const int n = old_points + (int)point_offsets[bc];
      emit_triangle(out_triangles, slot++, m, b, n);
      emit_triangle(out_triangles, slot++, m, n, c);
    }
    else
      emit_triangle(out_triangles, slot++, m, b, c);
    if (divide[ca])
    {
      const int n = old_points + (int)point_offsets[ca];
      emit_triangle(out_triangles, slot++, a, m, n);
      emit_triangle(out_triangles, slot++, m, c, n);
    }
    else
      emit_triangle(out_triangles, slot++, a, m, c);
  }
  for (int k = first; k < slot; ++k)
  {
    out_parent[k] = parent_in[t];
    out_refine[k] = refine[t]; // the descendants of marked cells are marked for the next pass
  }
}
