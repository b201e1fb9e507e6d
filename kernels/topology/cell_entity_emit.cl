// The first step of matching the sides (or edges) of every cell (cell_entities.cl): every
// slot's key and cell. A file of its own because it is built once per kind of cell.
#include "entity_keys.cl"
#include "entity_runs.cl"
// Build options: PER_CELL (cellKindOptions), KEY_WINDOWS (the windows of bucket_windows.cl).

// Every slot's key and cell, and how many slots each bucket (smallest vertex) gets: counted in
// bucket_counts directly, or, with KEY_WINDOWS (the windows of bucket_windows.cl), how many
// each window of buckets (key.x >> window_shift) gets, counted by the work-group in local
// memory first so that a window takes one atomic per work-group.
__kernel void emit_entities(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, __global uint4* keys, __global int* slot_cell,
  __global uint* bucket_counts, const uint window_shift)
{
#ifdef KEY_WINDOWS
  __local uint window_count[KEY_WINDOWS];
  for (uint w = get_local_id(0); w < KEY_WINDOWS; w += get_local_size(0))
    window_count[w] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  const int i = get_global_id(0);
  if (i < count)
  {
    __global const int* v = connectivity + cell_start(i);
    const int n = cell_size(i);
    const int cell = cell_ids[i];
    const int first = (int)slot_offsets[cell];
    const int entities = (int)slot_offsets[cell + 1] - first;
    for (int e = 0; e < entities; ++e)
    {
      const uint4 key = entity_key(v, n, table, rows, cells_fixed, e);
      keys[first + e] = key;
      slot_cell[first + e] = cell;
#ifdef KEY_WINDOWS
      atomic_inc(&window_count[key.x >> window_shift]);
#else
      atomic_inc(&bucket_counts[key.x]);
#endif
    }
  }
#ifdef KEY_WINDOWS
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = get_local_id(0); w < KEY_WINDOWS; w += get_local_size(0))
    if (window_count[w] > 0)
      atomic_add(&bucket_counts[w], window_count[w]);
#endif
}
