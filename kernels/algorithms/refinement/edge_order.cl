// The longest-edge order shared by the refinement of triangles (refinement.cl) and of
// tetrahedra (tetra_refinement.cl): the one home of the tie rule. Included by both
// (`#include "edge_order.cl"`, expanded by gpumesh::programSource).
//
// Edge e is longer than edge f when its squared length (in REAL, the run's precision, from the
// difference of its end points, smaller id first) is larger; an exact tie goes to the edge
// whose (smaller id, larger id) pair is lexicographically smallest, or with tie ids (the global
// point ids of a distributed mesh) whose (smaller, larger) tie id pair is. Every cell sharing an
// edge reads the same length, so all of them agree, whatever the cell order or orientation.
// edge_vertices[e] = (smaller id, larger id), as gpumesh::CellEntities numbers them.

// Squared lengths must round the same way everywhere (no fused multiply-add).
#pragma OPENCL FP_CONTRACT OFF

inline REAL squared_length(REAL3 a, REAL3 b)
{
  const REAL3 d = b - a;
  return d.x * d.x + d.y * d.y + d.z * d.z;
}

// The tie key of the edge of (smaller, larger) vertex ids v: v itself, or with tie ids its
// (smaller, larger) tie id pair, so processes sharing the edge agree.
inline long2 tie_key_of(uint2 v, __global const long* tie_ids, const int use_tie_ids)
{
  if (!use_tie_ids)
    return (long2)(v.x, v.y);
  const long a = tie_ids[v.x], b = tie_ids[v.y];
  return (long2)(min(a, b), max(a, b));
}

inline long2 tie_key(int e, __global const uint4* edge_vertices, __global const long* tie_ids,
  const int use_tie_ids)
{
  return tie_key_of(edge_vertices[e].xy, tie_ids, use_tie_ids);
}

// Whether an edge of squared length l2e and tie key ke is longer than one of l2f and kf.
inline int longer_than(REAL l2e, long2 ke, REAL l2f, long2 kf)
{
  if (l2e != l2f)
    return l2e > l2f;
  return ke.x < kf.x || (ke.x == kf.x && ke.y < kf.y);
}

// Whether edge e is longer than edge f under the rule above.
inline int longer(int e, int f, __global const REAL* length2, __global const uint4* edge_vertices,
  __global const long* tie_ids, const int use_tie_ids)
{
  if (length2[e] != length2[f])
    return length2[e] > length2[f];
  return longer_than(length2[e], tie_key(e, edge_vertices, tie_ids, use_tie_ids), length2[f],
    tie_key(f, edge_vertices, tie_ids, use_tie_ids));
}

// The edge between vertices a and b as (smaller id, larger id).
inline uint2 edge_ends(int a, int b)
{
  return (uint2)((uint)min(a, b), (uint)max(a, b));
}

// The squared length of every edge (from its smaller-id end, so both orientations give the
// same bits).
__kernel void edge_lengths(__global const REAL* points, __global const uint4* edge_vertices,
  const int edges, __global REAL* length2)
{
  const int e = get_global_id(0);
  if (e >= edges)
    return;
  const uint4 v = edge_vertices[e];
  length2[e] = squared_length(point_at(points, (int)v.x), point_at(points, (int)v.y));
}
