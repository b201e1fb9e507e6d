// (vertex, value) pairs from which core/gpumesh/VertexLinks.cxx builds vertex tables. Each
// work-item writes its own fixed range of pairs: no atomics, and (-1, -1) where it has
// nothing to say.
#define NO_PAIR ((int2)(-1, -1))

// Both directions of each unique edge (sorted vertex ids in .x, .y).
__kernel void edge_pairs(__global const uint4* entity_vertices, const int edges, __global int2* pairs)
{
  const int e = get_global_id(0);
  if (e >= edges)
    return;
  const int a = (int)entity_vertices[e].x;
  const int b = (int)entity_vertices[e].y;
  pairs[2 * e] = a == b ? NO_PAIR : (int2)(a, b);
  pairs[2 * e + 1] = a == b ? NO_PAIR : (int2)(b, a);
}

// (vertex, cell) for every vertex of every cell: pairs[first + connectivity position].
__kernel void cell_pairs(CELL_ARGS, const uint first, __global int2* pairs)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const size_t begin = cell_start(i);
  const int n = cell_size(i);
  for (int k = 0; k < n; ++k)
    pairs[first + begin + k] = (int2)(connectivity[begin + k], cell_ids[i]);
}

inline void edge_both_ways(int a, int b, __global int2* out)
{
  out[0] = a == b ? NO_PAIR : (int2)(a, b);
  out[1] = a == b ? NO_PAIR : (int2)(b, a);
}

// Per cell, 8 pairs per side: the (up to 4) edges of each side used by this cell only. A side
// of a 2D cell is itself an edge; a face's edges join consecutive vertices of its table row.
__kernel void boundary_pairs_fixed(CELL_ARGS, __global const uint* slot_offsets,
  __global const int2* slot_run, const uint first, __global int2* pairs, __global const int* table,
  const int sides_per_cell)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const uint slot = slot_offsets[cell_ids[i]];
  for (int f = 0; f < sides_per_cell; ++f)
  {
    __global const int* row = table + 4 * f;
    __global int2* out = pairs + first + ((size_t)i * sides_per_cell + f) * 8;
    const int corners = row[3] >= 0 ? 4 : (row[2] >= 0 ? 3 : 2);
    const int edges = slot_run[slot + f].y == 1 ? (corners == 2 ? 1 : corners) : 0;
    for (int e = 0; e < 4; ++e)
    {
      if (e < edges)
        edge_both_ways(v[row[e]], v[row[(e + 1) % corners]], out + 2 * e);
      else
        out[2 * e] = out[2 * e + 1] = NO_PAIR;
    }
  }
}

// Polygons: side e is the edge (e, e+1); 2 pairs per polygon vertex.
__kernel void boundary_pairs_polygon(CELL_ARGS, __global const uint* slot_offsets,
  __global const int2* slot_run, const uint first, __global int2* pairs)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int begin = (int)cell_start(i);
  const int n = cell_size(i);
  const uint slot = slot_offsets[cell_ids[i]];
  for (int e = 0; e < n; ++e)
  {
    __global int2* out = pairs + first + 2 * (size_t)(begin + e);
    if (slot_run[slot + e].y == 1)
      edge_both_ways(connectivity[begin + e], connectivity[begin + (e + 1) % n], out);
    else
      out[0] = out[1] = NO_PAIR;
  }
}
