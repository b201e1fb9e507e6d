// The GPUs' way of matching (cell_entities.cl) with its two scatters kept inside windows, for
// large meshes whose numbering scatters them. Straight from slot order, a slot's bucket entry
// and, at the end, its run go anywhere in gigabytes, each write a sector of its own beyond the
// cache. Here the slots first move, a tile at a time, into windows of owner vertices (entries)
// or of slots (runs); the scatter that follows then lands in the few megabytes of one window at
// a time, which stay in the cache while they fill (1.8x faster for 30M triangles numbered at
// random on an H200, BENCHMARKS.md). The order inside a window is arbitrary: the matching
// orders each bucket itself and every run goes to its own slot, so no result depends on the
// schedule.
//
// Build options: WG and ITEMS (a tile is WG * ITEMS records, one work-group), WINDOWS (the
// most windows), KEY_COMPONENTS, SLOT_ROWS (cell_of_slot in entity_keys.cl).
#include "entity_keys.cl"
#include "entity_runs.cl"
#include "work_group_scan.cl"

#define TILE (WG * ITEMS)
// A run record's slot, and the flag it carries when more than two slots share the entity.
#define SLOT_BITS 0x7fffffffu
#define MANY_SLOTS 0x80000000u

// Whether the numbering scatters, sampled: counts the cells of a group, `stride` apart, whose
// first vertex lies in another window (id >> shift) than that of the cell `distance` after them.
// Not far_cells (vertex_order.cl, for smoothing's renumbering): that one measures how far apart
// each cell's own points are, which cells shuffled over points in order pass, while the
// matching's scatters follow the cells' order as much as the points'.
__kernel void count_far_cells(CELL_ARGS, const int stride, const int distance, const uint shift,
  __global uint* far)
{
  const int i = get_global_id(0) * stride;
  if (i + distance >= count)
    return;
  const uint here = (uint)connectivity[cell_start(i)] >> shift;
  const uint there = (uint)connectivity[cell_start(i + distance)] >> shift;
  if (here != there)
    atomic_inc(far);
}

// The tile's records counted by window in local memory (`count`, zeroed here): rank[k], record
// k's place among its window's records of the tile. Work-item lid holds window[k] for tile
// element k * WG + lid, when that is below `valid`.
inline void count_tile(const uint valid, const uint* window, __local uint* count, uint* rank)
{
  const uint lid = get_local_id(0);
  for (uint w = lid; w < WINDOWS; w += WG)
    count[w] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 0; k < ITEMS; ++k)
    if (k * WG + lid < valid)
      rank[k] = atomic_inc(&count[window[k]]);
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Moves the work-group's tile to the windows: the tile is grouped by window in local memory,
// one atomic per window and tile on the window's cursor reserves its places, and neighbouring
// work-items write neighbouring places. Work-item lid holds record[k], extra[k] (moved only
// `with_extra`) and window[k] for tile element k * WG + lid, when that is below `valid`.
inline void scatter_tile(const uint valid, const uint4* record, const uint* extra,
  const uint* window, const int with_extra, __global uint* cursors, __global uint4* out,
  __global uint* out_extra, __local uint* count, __local uint* start, __local uint* totals,
  __local uint4* staged, __local uint* staged_extra, __local ushort* staged_window)
{
  const uint lid = get_local_id(0);
  uint rank[ITEMS];
  count_tile(valid, window, count, rank);

  // Exclusive scan of the counts: work-item lid scans its consecutive windows, the work-items'
  // totals are scanned, and each adds its prefix. Each then reserves its
  // windows' places; count[w] becomes where window w's run of this tile goes.
  const uint per = (WINDOWS + WG - 1) / WG;
  const uint first = min(lid * per, (uint)WINDOWS);
  const uint last = min(first + per, (uint)WINDOWS);
  uint sum = 0;
  for (uint w = first; w < last; ++w)
    sum += count[w];
  uint running = work_group_exclusive_total(sum, totals);
  for (uint w = first; w < last; ++w)
  {
    const uint n = count[w];
    start[w] = running;
    running += n;
    count[w] = n > 0 ? atomic_add(&cursors[w], n) : 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid)
    {
      const uint place = start[window[k]] + rank[k];
      staged[place] = record[k];
      staged_window[place] = (ushort)window[k];
      if (with_extra)
        staged_extra[place] = extra[k];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint t = lid; t < valid; t += WG)
  {
    const uint w = staged_window[t];
    const uint destination = count[w] + (t - start[w]);
    out[destination] = staged[t];
    if (with_extra)
      out_extra[destination] = staged_extra[t];
  }
}

// How many keys each window of owner vertices (key.x >> shift) gets, a tile at a time.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void count_key_windows(__global const uint4* keys, const uint slots, const uint shift,
  __global uint* window_counts)
{
  __local uint count[WINDOWS];
  const uint lid = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * TILE;
  const uint valid = (uint)min((size_t)TILE, (size_t)slots - base);
  uint window[ITEMS];
  for (uint k = 0; k < ITEMS; ++k)
    if (k * WG + lid < valid)
      window[k] = keys[base + k * WG + lid].x >> shift;
  uint rank[ITEMS];
  count_tile(valid, window, count, rank);
  for (uint w = lid; w < WINDOWS; w += WG)
    if (count[w] > 0)
      atomic_add(&window_counts[w], count[w]);
}

// Every slot's bucket entry (bucket_entry in entity_keys.cl; its bucket beside it with
// four-vertex keys) into its owner's window; the cursors start at the windows' offsets.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void group_keys_by_window(__global const uint4* keys, const uint slots, const uint shift,
  __global uint* cursors, __global uint4* grouped, __global uint* grouped_bucket)
{
  __local uint count[WINDOWS];
  __local uint start[WINDOWS];
  __local uint totals[WG];
  __local uint4 staged[TILE];
#if KEY_COMPONENTS == 4
  __local uint staged_bucket[TILE];
#else
  __local uint* staged_bucket = 0;
#endif
  __local ushort staged_window[TILE];
  const uint lid = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * TILE;
  const uint valid = (uint)min((size_t)TILE, (size_t)slots - base);
  uint4 entry[ITEMS];
  uint bucket[ITEMS];
  uint window[ITEMS];
  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid)
    {
      const size_t slot = base + k * WG + lid;
      const uint4 key = keys[slot];
      entry[k] = bucket_entry(key, (uint)slot);
      bucket[k] = key.x;
      window[k] = key.x >> shift;
    }
  }
  scatter_tile(valid, entry, bucket, window, KEY_COMPONENTS == 4, cursors, grouped, grouped_bucket,
    count, start, totals, staged, staged_bucket, staged_window);
}

// The buckets' sizes, from the entries grouped by window: neighbouring work-items count in
// the same window, so the atomics stay in cache.
__kernel void count_grouped_buckets(__global const uint4* grouped,
  __global const uint* grouped_bucket, const uint slots, __global uint* bucket_counts)
{
  const size_t i = get_global_id(0);
  if (i < slots)
    atomic_inc(&bucket_counts[bucket_of_entry(grouped, grouped_bucket, i)]);
}

// fill_buckets (cell_entities.cl) from the entries grouped by window: each window's entries
// land in its own buckets. The cursors start at the buckets' offsets.
__kernel void fill_buckets_from_windows(__global const uint4* grouped,
  __global const uint* grouped_bucket, const uint slots, __global uint* cursors,
  __global uint4* entries, __global uint* entry_bucket)
{
  const size_t i = get_global_id(0);
  if (i >= slots)
    return;
  const uint b = bucket_of_entry(grouped, grouped_bucket, i);
  const uint place = atomic_inc(&cursors[b]);
  entries[place] = grouped[i];
#if KEY_COMPONENTS == 4
  entry_bucket[place] = b;
#endif
}

// Where each window of slots (slot >> shift) starts.
__kernel void window_starts(const uint shift, __global uint* cursors)
{
  const uint w = get_global_id(0);
  if (w < WINDOWS)
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
  __local uint count[WINDOWS];
  __local uint start[WINDOWS];
  __local uint totals[WG];
  __local uint4 staged[TILE];
  __local ushort staged_window[TILE];
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

// Each run record to its slot, from the records grouped by window of slots, as one write of
// (start, length, entity, neighbour): three writes per slot into three buffers cost the cache
// more than one and a split in slot order (split_runs).
__kernel void place_runs(__global const uint4* grouped, const uint slots,
  __global const int* run_start, __global int4* slot_records)
{
  const size_t i = get_global_id(0);
  if (i >= slots)
    return;
  const uint4 record = grouped[i];
  const int start = (int)record.y;
  const int entity = (int)record.z;
  const int other = (int)record.w;
  const int length = (record.x & MANY_SLOTS) ? run_start[entity + 1] - start : other < 0 ? 1 : 2;
  slot_records[record.x & SLOT_BITS] = (int4)(start, length, entity, other);
}

__kernel void split_runs(__global const int4* slot_records, const uint slots,
  __global int2* slot_run, __global int* neighbor, __global int* slot_entity)
{
  const size_t slot = get_global_id(0);
  if (slot >= slots)
    return;
  const int4 record = slot_records[slot];
  slot_run[slot] = record.xy;
  slot_entity[slot] = record.z;
  neighbor[slot] = record.w;
}
