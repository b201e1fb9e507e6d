// Keys of sides and edges, shared by the two ways of matching them (cell_entities.cl for GPUs,
// cell_entity_partitions.cl for CPUs; `#include "entity_keys.cl"`). A key is a uint4 of the
// entity's sorted vertex ids padded with NONE, so an edge, a triangle face and a quad face never
// compare equal; its x, the smallest vertex, is the entity's bucket.
#define NONE 0xffffffffu

inline uint4 sorted_key(uint a, uint b, uint c, uint d)
{
  // A sorting network for four values.
  uint t;
#define ORDER(x, y)                                                                                \
  if (x > y)                                                                                       \
  {                                                                                                \
    t = x;                                                                                         \
    x = y;                                                                                         \
    y = t;                                                                                         \
  }
  ORDER(a, b) ORDER(c, d) ORDER(a, c) ORDER(b, d) ORDER(b, c)
#undef ORDER
  return (uint4)(a, b, c, d);
}

inline int key_less(uint4 a, uint4 b)
{
  if (a.x != b.x) return a.x < b.x;
  if (a.y != b.y) return a.y < b.y;
  if (a.z != b.z) return a.z < b.z;
  return a.w < b.w;
}

inline int key_equal(uint4 a, uint4 b)
{
  return all(a == b);
}

// An entity_vertex as a key component (padding: NONE).
inline uint key_vertex(__global const int* v, int n, int corner, int turn)
{
  return corner < 0 ? NONE : (uint)entity_vertex(v, n, corner, turn);
}

// The key of entity e of a cell with vertices v[0..n): row e of the kind's `table` (fixed-size
// kinds), or its one row turned e places (polygons, polylines; entity_vertex in common.cl).
inline uint4 entity_key(__global const int* v, int n, __global const int* table, int rows, int fixed, int e)
{
  __global const int* row = table + 4 * (fixed ? e : e % rows);
  const int turn = fixed ? 0 : e / rows;
  return sorted_key(key_vertex(v, n, row[0], turn), key_vertex(v, n, row[1], turn),
    key_vertex(v, n, row[2], turn), key_vertex(v, n, row[3], turn));
}
