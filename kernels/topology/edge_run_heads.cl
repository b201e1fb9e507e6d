// Each edge once, from the slots of matched edges (CellEntities: a run of equal keys per edge,
// one slot per cell using it): the work-item of an edge's first sorted slot speaks for it.
// `#include "edge_run_heads.cl"`.

// Whether slot s is the first slot of its edge's run and the edge joins two distinct vertices;
// then `run` is its run (start among the sorted slots, slots) and a, b its ends.
inline bool edge_run_head(int s, __global const int2* slot_run, __global const int* sorted_slots,
  __global const int* slot_entity, __global const uint4* entity_vertices, int2* run, int* a, int* b)
{
  *run = slot_run[s];
  if (sorted_slots[run->x] != s)
    return false;
  const uint4 ends = entity_vertices[slot_entity[s]];
  *a = (int)ends.x;
  *b = (int)ends.y;
  return *a != *b;
}
