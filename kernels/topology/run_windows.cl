// The runs of the GPUs' way of matching (record_runs in cell_entity_runs.cl) moved to their slots
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

// The bounds of the run of position i, of `entity`, among `slots` sorted positions, read from
// entity_offsets alone (position j is in entity entity_offsets[j + 1] - 1, which never falls
// as j grows, and heads entity_offsets[j]'s run when that differs): the next positions first,
// then outwards by doubling steps until a position beyond the run, then halving, so a run of L
// slots costs O(log L) reads near i (tetrahedra share an edge among
// five or six on average; a binary search over all positions took 60% longer there).
inline uint entity_at(__global const uint* entity_offsets, const uint j)
{
  return entity_offsets[j + 1] - 1;
}

inline uint run_start_of(const uint i, const uint entity, __global const uint* entity_offsets)
{
  // Most runs have one or two slots: i or the position before it is their head.
  if (entity_offsets[i] == entity)
    return i;
  if (entity_offsets[i - 1] == entity)
    return i - 1;
  uint in = i - 1; // in the run
  uint out = 0; // one past a position before the run (0: none found)
  for (uint step = 1; step <= in; step <<= 1)
  {
    if (entity_at(entity_offsets, in - step) < entity)
    {
      out = in - step + 1;
      break;
    }
    in -= step;
  }
  // The start is in [out, in].
  while (out < in)
  {
    const uint middle = out + (in - out) / 2;
    if (entity_at(entity_offsets, middle) < entity)
      out = middle + 1;
    else
      in = middle;
  }
  return in;
}

inline uint run_end(const uint i, const uint entity, const uint slots,
  __global const uint* entity_offsets)
{
  if (i + 1 == slots || entity_at(entity_offsets, i + 1) > entity)
    return i + 1;
  if (i + 2 == slots || entity_at(entity_offsets, i + 2) > entity)
    return i + 2;
  uint in = i + 2; // in the run
  uint out = slots; // a position beyond the run, or `slots`
  for (uint step = 1; in + step < slots; step <<= 1)
  {
    if (entity_at(entity_offsets, in + step) > entity)
    {
      out = in + step;
      break;
    }
    in += step;
  }
  // The end is in (in, out].
  uint from = in + 1;
  while (from < out)
  {
    const uint middle = from + (out - from) / 2;
    if (entity_at(entity_offsets, middle) > entity)
      out = middle;
    else
      from = middle + 1;
  }
  return out;
}

// Numbers the entities and moves each sorted position's run (entity_runs.cl), as one record,
// into its window of slots (slot >> shift; the cursors start at the windows' first slots):
// (slot, with MANY_SLOTS when more than two slots share the entity; start; entity;
// neighbour). A run's bounds come from entity_offsets (run_start_of, run_end), and a run head
// writes its entity's vertices from its key (head_keys, at its position).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void number_runs_by_window(__global const int* sorted_slots, const uint slots,
  __global const uint* entity_offsets, __global const uint4* head_keys,
  __global const int* slot_cell, const uint shift, __global uint* cursors,
  __global uint4* grouped, __global uint4* entity_vertices)
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
      const uint i = (uint)base + k * WG + lid;
      const uint entity = entity_offsets[i + 1] - 1;
      if (entity_offsets[i] == entity) // a run head
        entity_vertices[entity] = head_keys[i];
      const uint start = run_start_of(i, entity, entity_offsets);
      const uint end = run_end(i, entity, slots, entity_offsets);
      const struct sorted_run r =
        sorted_run_in((int)i, (int)entity, (int)start, (int)end, sorted_slots, slot_cell);
      record[k] = (uint4)((uint)r.slot | (r.length > 2 ? MANY_SLOTS : 0u), (uint)r.start,
        (uint)r.entity, (uint)r.neighbor);
      window[k] = (uint)r.slot >> shift;
    }
  }
  scatter_tile(valid, record, 0, window, 0, cursors, grouped, 0, count, start, totals, staged, 0,
    staged_window);
}

// The run records grouped by window of slots into their sub-windows (slot >> sub_shift; the
// cursors start at the sub-windows' first slots), a tile at a time (first_tile_subwindow in
// window_tiles.cl).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void group_runs_by_subwindow(__global const uint4* grouped, const uint slots, const uint shift,
  const uint sub_shift, __global uint* cursors, __global uint4* regrouped)
{
  SCATTER_TILE_LOCALS;
  const uint lid = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * TILE;
  const uint valid = (uint)min((size_t)TILE, (size_t)slots - base);
  const uint first_sub = first_tile_subwindow(grouped[base].x & SLOT_BITS, shift, sub_shift);
  uint4 record[ITEMS];
  uint window[ITEMS];
  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid)
    {
      record[k] = grouped[base + k * WG + lid];
      const uint sub = (record[k].x & SLOT_BITS) >> sub_shift;
      window[k] = tile_subwindow(sub, first_sub);
      if (window[k] == WINDOWS)
        regrouped[atomic_inc(&cursors[sub])] = record[k];
    }
  }
  scatter_tile(valid, record, 0, window, 0, cursors + first_sub, regrouped, 0, count, start, totals,
    staged, 0, staged_window);
}

// A run record as the slot's (start, length, entity, neighbour): a run of one slot has no
// neighbour (-1), a run of two one; the length of a longer one is searched for again.
inline int4 slot_record(const uint4 record, const uint slots, __global const uint* entity_offsets)
{
  const uint start = record.y;
  const uint entity = record.z;
  const int other = (int)record.w;
  int length = other < 0 ? 1 : 2;
  if (record.x & MANY_SLOTS)
    length = (int)(run_end(start, entity, slots, entity_offsets) - start);
  return (int4)((int)start, length, (int)entity, other);
}

// The records of a sub-window each work-item loads.
#define PLACE_ITEMS ((CAPACITY + WG - 1) / WG)

// One work-group per sub-window s of slots [s << sub_shift, (s + 1) << sub_shift), at most
// CAPACITY of them, whose run records are regrouped[s << sub_shift, ...) (exactly its slots'
// records): the records are put in slot order in local memory and written out in order into
// the three buffers.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void place_subwindow_runs(__global const uint4* regrouped, const uint slots, const uint sub_shift,
  __global const uint* entity_offsets, __global int2* slot_run, __global int* neighbor,
  __global int* slot_entity)
{
  __local int4 ordered[CAPACITY];
  const uint lid = get_local_id(0);
  const uint begin = get_group_id(0) << sub_shift;
  const uint n = (uint)min((ulong)slots - begin, 1ul << sub_shift);
  // Every load first, then their uses.
  uint4 loaded[PLACE_ITEMS];
  for (uint k = 0; k < PLACE_ITEMS; ++k)
    if (k * WG + lid < n)
      loaded[k] = regrouped[begin + k * WG + lid];
  for (uint k = 0; k < PLACE_ITEMS; ++k)
    if (k * WG + lid < n)
      ordered[(loaded[k].x & SLOT_BITS) - begin] = slot_record(loaded[k], slots, entity_offsets);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint t = lid; t < n; t += WG)
  {
    const int4 r = ordered[t];
    slot_run[begin + t] = r.xy;
    slot_entity[begin + t] = r.z;
    neighbor[begin + t] = r.w;
  }
}
