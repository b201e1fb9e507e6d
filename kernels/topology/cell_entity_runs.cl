// The cells of each run of equal keys, the last step of the matching in the program of
// cell_entities.cl.
#include "entity_keys.cl"
#include "entity_runs.cl"
// Build options: SLOT_ROWS, the slots per cell when every cell has as many (entity_keys.cl).

// For each slot: its run (where it starts in the sorted slots, how many slots share the
// entity), its entity, and the first other cell of the run (or -1).
__kernel void record_runs(__global const int* sorted_slots, const int slots,
  __global const uint* entity_offsets, __global const int* run_start,
  __global const int* slot_cell, __global int2* slot_run, __global int* neighbor,
  __global int* slot_entity)
{
  const int i = get_global_id(0);
  if (i >= slots)
    return;
  const struct sorted_run r = sorted_run_at(i, sorted_slots, entity_offsets, run_start, slot_cell);
  slot_run[r.slot] = (int2)(r.start, r.length);
  slot_entity[r.slot] = r.entity;
  neighbor[r.slot] = r.neighbor;
}
