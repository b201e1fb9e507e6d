// The first step of matching the sides (or edges) of every cell, in the program of
// cell_entities.cl: every slot's key and cell.
#include "entity_keys.cl"
#include "entity_runs.cl"
// Build options: PER_CELL (cellKindOptions).

// Every slot's key and cell, and how many slots each bucket (smallest vertex) gets: counted in
// bucket_counts directly, or, when `windows` is not 0 (the windows of bucket_windows.cl), how
// many each window of buckets (key.x >> window_shift) gets, counted by the work-group in
// window_count (local memory, `windows` counters) first so that a window takes one atomic per
// work-group. The windows are an argument, not a build option: one program serves both ways.
__kernel void emit_entities(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, __global uint4* keys, __global int* slot_cell,
  __global uint* bucket_counts, const uint window_shift, const uint windows, __local uint* window_count)
{
  for (uint w = get_local_id(0); w < windows; w += get_local_size(0))
    window_count[w] = 0;
  if (windows > 0)
    barrier(CLK_LOCAL_MEM_FENCE);
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
      if (windows > 0)
        atomic_inc(&window_count[key.x >> window_shift]);
      else
        atomic_inc(&bucket_counts[key.x]);
    }
  }
  if (windows == 0)
    return;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint w = get_local_id(0); w < windows; w += get_local_size(0))
    if (window_count[w] > 0)
      atomic_add(&bucket_counts[w], window_count[w]);
}
