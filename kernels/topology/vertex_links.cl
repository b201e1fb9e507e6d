// (vertex, value) pairs from which core/gpumesh/topology/VertexLinks.cxx builds vertex tables, in
// the program of vertex_table.cl. Each
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

// 8 pairs per side (slot s writes pairs[8 s ...]): the (up to 4) edges of each side used by
// this cell only. A side of a 2D cell is itself an edge; a face's edges join consecutive
// vertices of its row (entity_vertex in kernels/runtime/common.cl).
__kernel void boundary_pairs(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, __global const int2* slot_run, __global int2* pairs)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  const uint first = slot_offsets[cell_ids[i]];
  const int sides = (int)(slot_offsets[cell_ids[i] + 1] - first);
  for (int f = 0; f < sides; ++f)
  {
    __global const int* row = table + 4 * (cells_fixed ? f : f % rows);
    const int turn = cells_fixed ? 0 : f / rows;
    __global int2* out = pairs + 8 * (size_t)(first + f);
    const int corners = row[3] >= 0 ? 4 : (row[2] >= 0 ? 3 : 2);
    const int edges = slot_run[first + f].y == 1 ? (corners == 2 ? 1 : corners) : 0;
    for (int e = 0; e < 4; ++e)
    {
      if (e < edges)
        edge_both_ways(entity_vertex(v, n, row[e], turn), entity_vertex(v, n, row[(e + 1) % corners], turn),
          out + 2 * e);
      else
        out[2 * e] = out[2 * e + 1] = NO_PAIR;
    }
  }
}
