// The edges on a mesh's boundary (core/gpumesh/topology/BoundaryEdges.h), from the edges and (for
// tetrahedra) the faces matched by core/gpumesh/topology/CellEntities.h.

// Triangles: an edge is on the boundary when one triangle uses it (its run has one slot).
__kernel void flag_single_slot_runs(__global const int2* slot_run, const int slots, __global uint* flags)
{
  const int s = get_global_id(0);
  if (s < slots)
    flags[s] = slot_run[s].y == 1;
}

// Tetrahedra: the three edges of every face one tetrahedron uses are on the boundary. Face f of
// tetrahedron t is its slot 4t + f (faces 0-1-3, 1-2-3, 2-0-3, 0-2-1), edge e its slot 6t + e.
__kernel void flag_boundary_face_edges(__global const int2* face_run, const int face_slots,
  __global const int* edge_entity, __global uint* boundary_entities)
{
  const int f = get_global_id(0);
  if (f >= face_slots || face_run[f].y != 1)
    return;
  const int face_edges[4][3] = { { 0, 4, 3 }, { 1, 5, 4 }, { 2, 3, 5 }, { 2, 1, 0 } };
  const int t = f / 4;
  for (int k = 0; k < 3; ++k)
    boundary_entities[edge_entity[6 * t + face_edges[f % 4][k]]] = 1;
}

// Every slot of a flagged edge.
__kernel void flag_slots_of_entities(__global const int* slot_entity, const int slots,
  __global const uint* boundary_entities, __global uint* flags)
{
  const int s = get_global_id(0);
  if (s < slots)
    flags[s] = boundary_entities[slot_entity[s]];
}

// The flagged slots, in slot order, with their edges' end points.
__kernel void gather_boundary_slots(__global const uint* places, const int slots,
  __global const int* slot_entity, __global const uint4* entity_vertices, __global int* out_slots,
  __global int2* out_ends)
{
  const int s = get_global_id(0);
  if (s >= slots || places[s + 1] == places[s])
    return;
  const uint4 key = entity_vertices[slot_entity[s]];
  out_slots[places[s]] = s;
  out_ends[places[s]] = (int2)((int)key.x, (int)key.y);
}

#include "listed_points.cl"

// The cells holding two listed points (the only ones holding an edge with both ends listed, or
// a face with such an edge), appended in any order (the caller sorts them) with their points and
// which of them are listed (bit k: point k): up to `capacity`, `count` tells how many there are.
__kernel void append_cells_with_two_listed(__global const int* connectivity, const int per_cell, const int cells,
  __global const uint* bits, const int capacity, __global int* count, __global int* out_cells,
  __global int* out_points, __global int* out_listed)
{
  const int c = get_global_id(0);
  if (c >= cells)
    return;
  int listed = 0, found = 0;
  for (int k = 0; k < per_cell; ++k)
  {
    const int p = connectivity[per_cell * c + k];
    const int bit = (bits[p >> 5] >> (p & 31)) & 1u;
    listed |= bit << k;
    found += bit;
  }
  if (found < 2)
    return;
  const int at = atomic_inc(count);
  if (at >= capacity)
    return;
  out_cells[at] = c;
  out_listed[at] = listed;
  for (int k = 0; k < per_cell; ++k)
    out_points[per_cell * at + k] = connectivity[per_cell * c + k];
}
