// NonManifoldSmoothing of vertex smoothing on surfaces (VertexSmoother, core/gpumesh/algorithms/
// Smoothing.h), as vtkWindowedSincPolyDataFilter (VTK 9.2, its WeightNonManifoldEdges default)
// smooths a non-manifold point: with every neighbour, each counted once per face of the edge
// to it, so the sheets meeting at a non-manifold edge pull with the number of faces they have
// there. Found once before the iterations, from the surface's edges (a run of slots per edge,
// one slot per face; kernels/topology/cell_entities.cl):
//  - non_manifold_pairs: the neighbours of every ON_NON_MANIFOLD vertex (a VertexTable's pairs;
//    the table keeps each neighbour once);
//  - non_manifold_weights: the weight of each entry of that table, the faces of its edge.
#include "edge_run_heads.cl"
#define ON_NON_MANIFOLD 4
#define NO_PAIR ((int2)(-1, -1))

__kernel void non_manifold_pairs(__global const int* slot_entity, __global const uint4* entity_vertices,
  const int slots, __global const int* roles, __global int2* pairs)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  const uint4 ends = entity_vertices[slot_entity[s]];
  const int a = (int)ends.x, b = (int)ends.y;
  pairs[2 * s] = a != b && roles[a] == ON_NON_MANIFOLD ? (int2)(a, b) : NO_PAIR;
  pairs[2 * s + 1] = a != b && roles[b] == ON_NON_MANIFOLD ? (int2)(b, a) : NO_PAIR;
}

// Where `value` is in vertex v's row (rows hold each value once), or -1.
inline int entry_of(__global const int* entries, __global const uint* row_start, __global const int* degree,
  int v, int value)
{
  const uint first = row_start[v];
  for (int k = 0; k < degree[v]; ++k)
  {
    if (entries[first + k] == value)
      return (int)first + k;
  }
  return -1;
}

// One work-item per slot; the first slot of each edge's run writes the edge's face count at
// both of its ends' entries (each entry belongs to one edge: one writer).
__kernel void non_manifold_weights(__global const int2* slot_run, __global const int* sorted_slots,
  __global const int* slot_entity, __global const uint4* entity_vertices, const int slots,
  __global const int* roles, __global const int* entries, __global const uint* row_start,
  __global const int* degree, __global int* weights)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  int2 run;
  int a, b;
  if (!edge_run_head(s, slot_run, sorted_slots, slot_entity, entity_vertices, &run, &a, &b))
    return;
  if (roles[a] == ON_NON_MANIFOLD)
  {
    const int e = entry_of(entries, row_start, degree, a, b);
    if (e >= 0)
      weights[e] = run.y;
  }
  if (roles[b] == ON_NON_MANIFOLD)
  {
    const int e = entry_of(entries, row_start, degree, b, a);
    if (e >= 0)
      weights[e] = run.y;
  }
}
