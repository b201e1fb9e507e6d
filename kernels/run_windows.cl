// The runs of the GPUs' way of matching (record_runs in cell_entities.cl) moved to their slots
// through windows of slots, for large meshes whose numbering scatters them: straight from
// sorted order, every run would go anywhere in gigabytes, each write a transaction of its own.
// Here the runs move twice, a tile at a time, grouped in local memory so that neighbouring
// work-items write neighbouring places: into WINDOWS windows of slots, then each window into
// sub-windows of about CAPACITY slots, which one work-group puts in slot order in local memory
// and writes out in order. Every run goes to its own slot, so no result depends on the
// schedule.
//
// Build options: WG, ITEMS, WINDOWS, TILE_OVERFLOW (window_tiles.cl); SLOT_ROWS (cell_of_slot
// in entity_keys.cl); CAPACITY, the slots one work-group orders at once.
#include "entity_runs.cl"
#include "window_tiles.cl"

// A run record's slot, and the flag it carries when more than two slots share the entity.
#define SLOT_BITS 0x7fffffffu
#define MANY_SLOTS 0x80000000u

// Where each of `count` windows of slots (slot >> shift) starts.
__kernel void window_starts(const uint count, const uint shift, __global uint* cursors)
{
  const uint w = get_global_id(0);
  if (w < count)
    cursors[w] = w << shift;
}

// Each sorted position's run (entity_runs.cl) as one record, into its window of slots
// (slot >> shift; the cursors start at the windows' first slots): (slot, with MANY_SLOTS when
// more than two slots share the entity; start; entity; neighbour). A run of one slot has no
// neighbour (-1), a run of two one: the length is read back from run_start only for
// non-manifold entities.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void group_runs_by_window(__global const int* sorted_slots, const uint slots,
  __global const uint* entity_offsets, __global const int* run_start,
  __global const int* slot_cell, const uint shift, __global uint* cursors,
  __global uint4* grouped)
{
  SCATTER_TILE_LOCALS;
  const uint lid = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * TILE;
  const uint valid = (uint)min((size_t)TILE, (size_t)slots - base);
  uint4 record[ITEMS];
  uint window[ITEMS];
  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid)
    {
      const struct sorted_run r =
        sorted_run_at((int)(base + k * WG + lid), sorted_slots, entity_offsets, run_start, slot_cell);
      record[k] = (uint4)((uint)r.slot | (r.length > 2 ? MANY_SLOTS : 0u), (uint)r.start,
        (uint)r.entity, (uint)r.neighbor);
      window[k] = (uint)r.slot >> shift;
    }
  }
  scatter_tile(valid, record, 0, window, 0, cursors, grouped, 0, count, start, totals, staged, 0,
    staged_window);
}

// The run records grouped by window of slots into their sub-windows (slot >> sub_shift; the
// cursors start at the sub-windows' first slots). A tile's records lie in its first record's
// window or the next ones, so its local windows are the sub-windows from that window's first
// one on; a record beyond them (a tile over more than two small windows) goes on its own.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void group_runs_by_subwindow(__global const uint4* grouped, const uint slots, const uint shift,
  const uint sub_shift, __global uint* cursors, __global uint4* regrouped)
{
  SCATTER_TILE_LOCALS;
  const uint lid = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * TILE;
  const uint valid = (uint)min((size_t)TILE, (size_t)slots - base);
  const uint first_sub = ((grouped[base].x & SLOT_BITS) >> shift) << (shift - sub_shift);
  uint4 record[ITEMS];
  uint window[ITEMS];
  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid)
    {
      record[k] = grouped[base + k * WG + lid];
      const uint sub = (record[k].x & SLOT_BITS) >> sub_shift;
      window[k] = min(sub - first_sub, (uint)WINDOWS);
      if (window[k] == WINDOWS)
        regrouped[atomic_inc(&cursors[sub])] = record[k];
    }
  }
  scatter_tile(valid, record, 0, window, 0, cursors + first_sub, regrouped, 0, count, start, totals,
    staged, 0, staged_window);
}

// A run record as the slot's (start, length, entity, neighbour): the length is read back from
// run_start only for entities of more than two slots.
inline int4 slot_record(const uint4 record, __global const int* run_start)
{
  const int start = (int)record.y;
  const int entity = (int)record.z;
  const int other = (int)record.w;
  const int length = (record.x & MANY_SLOTS) ? run_start[entity + 1] - start : other < 0 ? 1 : 2;
  return (int4)(start, length, entity, other);
}

// One work-group per sub-window s of slots [s << sub_shift, (s + 1) << sub_shift), at most
// CAPACITY of them, whose run records are regrouped[s << sub_shift, ...) (exactly its slots'
// records): the records are put in slot order in local memory and written out in order into
// the three buffers.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void place_subwindow_runs(__global const uint4* regrouped, const uint slots, const uint sub_shift,
  __global const int* run_start, __global int2* slot_run, __global int* neighbor,
  __global int* slot_entity)
{
  __local int4 ordered[CAPACITY];
  const uint lid = get_local_id(0);
  const uint begin = get_group_id(0) << sub_shift;
  const uint n = (uint)min((ulong)slots - begin, 1ul << sub_shift);
  // Every load first, then their uses.
  uint4 loaded[CAPACITY / WG];
  for (uint k = 0; k < CAPACITY / WG; ++k)
    if (k * WG + lid < n)
      loaded[k] = regrouped[begin + k * WG + lid];
  for (uint k = 0; k < CAPACITY / WG; ++k)
    if (k * WG + lid < n)
      ordered[(loaded[k].x & SLOT_BITS) - begin] = slot_record(loaded[k], run_start);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint t = lid; t < n; t += WG)
  {
    const int4 r = ordered[t];
    slot_run[begin + t] = r.xy;
    slot_entity[begin + t] = r.z;
    neighbor[begin + t] = r.w;
  }
}
