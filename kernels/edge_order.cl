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

// An edge's tie key: its (smaller, larger) vertex id, or with tie ids its (smaller, larger)
// tie id, so processes sharing the edge agree.
inline long2 tie_key(int e, __global const uint4* edge_vertices, __global const long* tie_ids,
  const int use_tie_ids)
{
  const uint2 v = edge_vertices[e].xy;
  if (!use_tie_ids)
    return (long2)(v.x, v.y);
  const long a = tie_ids[v.x], b = tie_ids[v.y];
  return (long2)(min(a, b), max(a, b));
}

// Whether edge e is longer than edge f under the rule above.
inline int longer(int e, int f, __global const REAL* length2, __global const uint4* edge_vertices,
  __global const long* tie_ids, const int use_tie_ids)
{
  if (length2[e] != length2[f])
    return length2[e] > length2[f];
  const long2 a = tie_key(e, edge_vertices, tie_ids, use_tie_ids);
  const long2 b = tie_key(f, edge_vertices, tie_ids, use_tie_ids);
  return a.x < b.x || (a.x == b.x && a.y < b.y);
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
