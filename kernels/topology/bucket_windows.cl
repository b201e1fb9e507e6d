// The GPUs' way of matching (cell_entities.cl) through windows of owner vertices, for large
// meshes whose numbering scatters: straight from slot order, the buckets' counts and entries
// land anywhere in gigabytes, each write a transaction of its own. Here the slots' bucket
// entries move twice, a tile at a time, grouped in local memory so that neighbouring
// work-items write neighbouring places: into WINDOWS windows of owner vertices, then each
// window into at most WINDOWS sub-windows of at most VERTICES vertices. One work-group then
// counts, fills and ranks a sub-window's buckets in local memory. The order of the
// entries inside a (sub-)window is arbitrary: each bucket is ordered by (key, slot) alone, so
// no result depends on the schedule.
//
// Build options: WG, ITEMS, WINDOWS, TILE_OVERFLOW (window_tiles.cl: group_keys_by_subwindow
// moves the records beyond a tile's windows itself); KEY_COMPONENTS (entity_keys.cl);
// SMALL_BUCKET (cell_entities.cl); CAPACITY and VERTICES, the most entries and owner vertices
// of a sub-window sorted in local memory (larger ones are sorted in global memory).
#include "entity_keys.cl"
#include "window_tiles.cl"

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

// With four-vertex keys, a tile's entries move with their buckets beside them.
#if KEY_COMPONENTS == 4
#define STAGED_BUCKET_LOCAL __local uint staged_bucket[TILE]
#else
#define STAGED_BUCKET_LOCAL __local uint* staged_bucket = 0
#endif

// Every slot's bucket entry (bucket_entry in entity_keys.cl; its bucket beside it with
// four-vertex keys) into its owner's window; the cursors start at the windows' offsets.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void group_keys_by_window(__global const uint4* keys, const uint slots, const uint shift,
  __global uint* cursors, __global uint4* grouped, __global uint* grouped_bucket)
{
  SCATTER_TILE_LOCALS;
  STAGED_BUCKET_LOCAL;
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


// How many entries each sub-window gets, a tile of grouped entries at a time
// (first_tile_subwindow in window_tiles.cl).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void count_key_subwindows(__global const uint4* grouped, __global const uint* grouped_bucket,
  const uint slots, const uint shift, const uint sub_shift, __global uint* sub_counts)
{
  __local uint count[WINDOWS];
  const uint lid = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * TILE;
  const uint valid = (uint)min((size_t)TILE, (size_t)slots - base);
  const uint first_sub =
    first_tile_subwindow(bucket_of_entry(grouped, grouped_bucket, base), shift, sub_shift);
  uint sub[ITEMS];
  uint window[ITEMS];
  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid)
    {
      sub[k] = bucket_of_entry(grouped, grouped_bucket, base + k * WG + lid) >> sub_shift;
      window[k] = tile_subwindow(sub[k], first_sub);
      if (window[k] == WINDOWS)
        atomic_inc(&sub_counts[sub[k]]);
    }
  }
  uint rank[ITEMS];
  count_tile(valid, window, count, rank);
  for (uint w = lid; w < WINDOWS; w += WG)
    if (count[w] > 0)
      atomic_add(&sub_counts[first_sub + w], count[w]);
}

// The entries grouped by window into their sub-windows; the cursors start at the sub-windows'
// offsets.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void group_keys_by_subwindow(__global const uint4* grouped, __global const uint* grouped_bucket,
  const uint slots, const uint shift, const uint sub_shift, __global uint* cursors,
  __global uint4* regrouped, __global uint* regrouped_bucket)
{
  SCATTER_TILE_LOCALS;
  STAGED_BUCKET_LOCAL;
  const uint lid = get_local_id(0);
  const size_t base = (size_t)get_group_id(0) * TILE;
  const uint valid = (uint)min((size_t)TILE, (size_t)slots - base);
  const uint first_sub =
    first_tile_subwindow(bucket_of_entry(grouped, grouped_bucket, base), shift, sub_shift);
  uint4 entry[ITEMS];
  uint bucket[ITEMS];
  uint window[ITEMS];
  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid)
    {
      const size_t i = base + k * WG + lid;
      entry[k] = grouped[i];
      bucket[k] = bucket_of_entry(grouped, grouped_bucket, i);
      const uint sub = bucket[k] >> sub_shift;
      window[k] = tile_subwindow(sub, first_sub);
      if (window[k] == WINDOWS)
      {
        const uint place = atomic_inc(&cursors[sub]);
        regrouped[place] = entry[k];
#if KEY_COMPONENTS == 4
        regrouped_bucket[place] = bucket[k];
#endif
      }
    }
  }
  scatter_tile(valid, entry, bucket, window, KEY_COMPONENTS == 4, cursors + first_sub, regrouped,
    regrouped_bucket, count, start, totals, staged, staged_bucket, staged_window);
}

// The counts of the buckets of owner vertices [first_vertex, first_vertex + n), count[v] in
// local memory, become their offsets: each bucket's start is written to bucket_offsets
// (`placed` plus the counts before it), its size to `sizes` when it is large (zero otherwise,
// large_slots counting large buckets' slots), and count[v] becomes its start less `placed`.
// Work-item lid scans its consecutive vertices, the work-items' totals are scanned, and each
// adds its prefix. Every work-item of the group must call it.
inline void offset_buckets(const uint n, const uint first_vertex, const uint placed,
  __local uint* count, __local uint* totals, __global uint* bucket_offsets, __global uint* sizes,
  __global uint* large_slots)
{
  const uint lid = get_local_id(0);
  const uint per = (n + WG - 1) / WG;
  const uint from = min(lid * per, n);
  const uint to = min(from + per, n);
  uint sum = 0;
  for (uint v = from; v < to; ++v)
    sum += count[v];
  uint running = work_group_exclusive_total(sum, totals);
  for (uint v = from; v < to; ++v)
  {
    const uint size = count[v];
    const int large = size > SMALL_BUCKET;
    bucket_offsets[first_vertex + v] = placed + running;
    sizes[first_vertex + v] = large ? size : 0;
    if (large)
      atomic_add(large_slots, size);
    count[v] = running;
    running += size;
  }
}

// The buckets of owner vertices [low, last), whose entries are grouped[begin, end), sorted in
// global memory, `range` vertices at a time (the local `cursor` holds as many): counted,
// their offsets written, the entries placed in `entries`, and each entry of a small bucket
// ranked there, each head's key written to head_keys. For sub-windows too large for local
// memory (a vertex of high degree).
inline void sort_buckets_in_global(__global const uint4* grouped,
  __global const uint* grouped_bucket, const uint begin, const uint end, const uint low,
  const uint last, const uint range, __local uint* cursor, __local uint* totals,
  __global uint* bucket_offsets, __global uint4* entries, __global uint* entry_bucket,
  __global int* sorted_slots, __global uint* heads, __global uint4* head_keys,
  __global uint* sizes, __global uint* large_slots)
{
  const uint lid = get_local_id(0);
  uint placed = begin;
  for (uint from_vertex = low; from_vertex < last; from_vertex += range)
  {
    const uint n = min(range, last - from_vertex);
    for (uint v = lid; v < n; v += WG)
      cursor[v] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = begin + lid; i < end; i += WG)
    {
      const uint v = bucket_of_entry(grouped, grouped_bucket, i) - from_vertex;
      if (v < n)
        atomic_inc(&cursor[v]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    offset_buckets(n, from_vertex, placed, cursor, totals, bucket_offsets, sizes, large_slots);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint i = begin + lid; i < end; i += WG)
    {
      const uint b = bucket_of_entry(grouped, grouped_bucket, i);
      if (b - from_vertex < n)
      {
        const uint place = placed + atomic_inc(&cursor[b - from_vertex]);
        entries[place] = grouped[i];
#if KEY_COMPONENTS == 4
        entry_bucket[place] = b;
#endif
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    placed += cursor[n - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  // The entries and offsets written above by this work-group are read back.
  barrier(CLK_GLOBAL_MEM_FENCE);
  for (uint i = begin + lid; i < end; i += WG)
  {
    const uint b = bucket_of_entry(entries, entry_bucket, i);
    const uint from = bucket_offsets[b];
    const uint to = b + 1 < last ? bucket_offsets[b + 1] : end;
    if (to - from <= SMALL_BUCKET)
      rank_bucket_entry(entries, (int)i, (int)from, (int)to, b, sorted_slots, heads, head_keys);
  }
}

// The entries of a sub-window each work-item loads (the program's tile kernels, built with it,
// may have larger work-groups than the sort: at least one then).
#define SORT_ITEMS ((CAPACITY + WG - 1) / WG)

// An entry staged in local memory: with edges alone (KEY_COMPONENTS 2) only the other vertex
// and the slot tell a bucket's entries apart, so 8 bytes of its 16.
#if KEY_COMPONENTS == 2
typedef uint2 staged_entry;
inline uint2 stage_entry(const uint4 e) { return (uint2)(e.x, e.w); }
inline uint4 unstage_entry(const uint2 s) { return (uint4)(s.x, NONE, 0, s.y); }
#else
typedef uint4 staged_entry;
inline uint4 stage_entry(const uint4 e) { return e; }
inline uint4 unstage_entry(const uint4 s) { return s; }
#endif

// One work-group per sub-window s of owner vertices [s << sub_shift, (s + 1) << sub_shift),
// whose entries are regrouped[sub_offsets[s], sub_offsets[s + 1]): the entries are loaded and
// counted by bucket in local memory, the buckets' offsets written (the sub-window's first
// bucket starts where its entries do, so no scan over all points is needed), the entries put
// in bucket order in local memory, and each entry of a small bucket ranked there
// (rank_against), its sorted slot and run head written near its neighbours'. Large buckets are
// left to the radix sort: their sizes go to `sizes` (every other bucket's to zero) and
// large_slots counts their slots. Each head's key then goes to its sorted place in head_keys
// (number_runs_by_window in run_windows.cl reads it there), which may be `regrouped` itself: each work-group writes
// only its own sub-window's part, after it has read it. A sub-window of more than CAPACITY
// entries or VERTICES vertices is sorted in global memory, its entries placed in `entries`
// (entry_bucket).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void sort_subwindow_buckets(__global const uint4* regrouped,
  __global const uint* regrouped_bucket, __global const uint* sub_offsets, const uint points,
  const uint sub_shift, __global uint* bucket_offsets, __global uint4* entries,
  __global uint* entry_bucket, __global int* sorted_slots, __global uint* heads,
  __global uint4* head_keys, __global uint* sizes, __global uint* large_slots)
{
  __local staged_entry staged[CAPACITY];
  __local ushort staged_vertex[CAPACITY];
  __local uint count[VERTICES];
  __local uint totals[WG];
  const uint lid = get_local_id(0);
  const uint s = get_group_id(0);
  const uint begin = sub_offsets[s];
  const uint end = sub_offsets[s + 1];
  const uint n = end - begin;
  const uint low = s << sub_shift;
  const uint last = (uint)min((ulong)points, (ulong)(s + 1) << sub_shift);
  const uint vertices = last - low;
  if (lid == 0 && last == points)
    bucket_offsets[points] = end;
  if (n > CAPACITY || vertices > VERTICES)
  {
    sort_buckets_in_global(regrouped, regrouped_bucket, begin, end, low, last, VERTICES, count,
      totals, bucket_offsets, entries, entry_bucket, sorted_slots, heads, head_keys, sizes,
      large_slots);
    return;
  }

  for (uint v = lid; v < vertices; v += WG)
    count[v] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  // Every load first, then their uses: each entry is counted in its bucket, and its arrival
  // there kept, which with the bucket's offset places it.
  uint4 loaded[SORT_ITEMS];
  uint vertex[SORT_ITEMS];
  uint arrival[SORT_ITEMS];
  for (uint k = 0; k < SORT_ITEMS; ++k)
  {
    if (k * WG + lid < n)
    {
      loaded[k] = regrouped[begin + k * WG + lid];
      vertex[k] = bucket_of_entry(regrouped, regrouped_bucket, begin + k * WG + lid) - low;
    }
  }
  for (uint k = 0; k < SORT_ITEMS; ++k)
    if (k * WG + lid < n)
      arrival[k] = atomic_inc(&count[vertex[k]]);
  barrier(CLK_LOCAL_MEM_FENCE);
  offset_buckets(vertices, low, begin, count, totals, bucket_offsets, sizes, large_slots);
  barrier(CLK_LOCAL_MEM_FENCE);
  // The entries in bucket order; count[v] is now where bucket v starts, count[v + 1] (or n)
  // where it ends.
  for (uint k = 0; k < SORT_ITEMS; ++k)
  {
    if (k * WG + lid < n)
    {
      const uint place = count[vertex[k]] + arrival[k];
      staged[place] = stage_entry(loaded[k]);
      staged_vertex[place] = (ushort)vertex[k];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint p = lid; p < n; p += WG)
  {
    const uint v = staged_vertex[p];
    const uint from = count[v];
    const uint to = v + 1 < vertices ? count[v + 1] : n;
    if (to - from > SMALL_BUCKET)
      continue;
    const uint4 e = unstage_entry(staged[p]);
    int rank = 0;
    int head = 1;
    for (uint j = from; j < to; ++j)
      rank_against(unstage_entry(staged[j]), e, &rank, &head);
    sorted_slots[begin + from + rank] = (int)e.w;
    heads[begin + from + rank] = head;
    if (head)
      head_keys[begin + from + rank] = key_of_entry(e, low + v);
  }
}
