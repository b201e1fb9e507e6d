// The sides (or edges) of every cell, matched across cells: each entity is keyed by its
// sorted vertex ids and owned by its smallest vertex (its bucket). Nearly every bucket holds
// few entities, each placed in its bucket's order by its own work-item; the few large buckets (a pole, a fan) are sorted
// together by a device radix sort, so no bucket costs more than linear time. Entities with
// equal keys are the same side (edge) shared by several cells: runs of equal keys in the
// sorted order, found in parallel.
//
// Vocabulary: a slot is one (cell, local entity) pair; slots of cell c are consecutive from
// slot_offsets[c]. A key is a uint4 of sorted vertex ids padded with NONE, so an edge, a
// triangle face and a quad face never compare equal.
#include "entity_keys.cl"
#include "entity_runs.cl"
// Build options: SMALL_BUCKET, the largest bucket ranked in place (larger ones: radix sort);
// KEY_COMPONENTS, the most vertex ids in one key of the mesh (2, 3 or 4).

// Slot e of a cell: entity_vertex (kernels/runtime/common.cl) says which vertices it has. Closed cells
// (polygons) have as many edges as vertices, open ones (polylines) one fewer.
__kernel void count_entities(CELL_ARGS, const int rows, const int open, __global uint* slot_counts)
{
  const int i = get_global_id(0);
  if (i < count)
    slot_counts[cell_ids[i]] = cells_fixed ? rows : cell_size(i) - open;
}

// The same when every cell has `rows` slots.
__kernel void uniform_slot_offsets(const int count, const uint rows, __global uint* slot_offsets)
{
  const int c = get_global_id(0);
  if (c < count)
    slot_offsets[c] = (uint)c * rows;
}

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

// Groups the slots by bucket, each as its sort entry (bucket_entry in entity_keys.cl; with its
// bucket beside it when keys have four vertices), so that the sort reads its bucket's entries
// where they lie, not each key through its slot. The cursors start at the buckets' offsets, so
// one atomic gives a slot its place. The order inside a bucket is arbitrary until it is sorted.
__kernel void fill_buckets(__global const uint4* keys, const int slots, __global uint* cursors,
  __global uint4* entries, __global uint* entry_bucket)
{
  const int slot = get_global_id(0);
  if (slot >= slots)
    return;
  const uint4 key = keys[slot];
  const uint place = atomic_inc(&cursors[key.x]);
  entries[place] = bucket_entry(key, (uint)slot);
#if KEY_COMPONENTS == 4
  entry_bucket[place] = key.x;
#endif
}

// One work-item per entry of a small bucket, ranked in its bucket (rank_bucket_entry in
// entity_keys.cl). Large buckets are left to the radix sort: the bucket's first entry writes
// its size into `sizes` (zero before) when the bucket is large, so that their scan says where
// each one's slots start among all large buckets' slots, and large_slots counts them.
__kernel void rank_small_buckets(__global const uint4* entries, __global const uint* entry_bucket,
  __global const uint* bucket_offsets, const int count, __global int* sorted_slots,
  __global uint* heads, __global uint* sizes, __global uint* large_slots)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const uint b = bucket_of_entry(entries, entry_bucket, i);
  const int begin = (int)bucket_offsets[b];
  const int end = (int)bucket_offsets[b + 1];
  const int large = end - begin > SMALL_BUCKET;
  if (i == begin && large)
  {
    atomic_add(large_slots, (uint)(end - begin));
    sizes[b] = (uint)(end - begin);
  }
  if (!large)
    rank_bucket_entry(entries, i, begin, end, b, sorted_slots, heads, 0);
}

inline uint bucket_size(__global const uint* bucket_offsets, uint b)
{
  return bucket_offsets[b + 1] - bucket_offsets[b];
}

// 1 for the slots of large buckets: scanned, each one's place in the list of those slots,
// in slot order, which the stable sort then keeps for equal keys.
__kernel void flag_large_slots(__global const uint4* keys, const int slots,
  __global const uint* bucket_offsets, __global uint* flags)
{
  const int slot = get_global_id(0);
  if (slot < slots)
    flags[slot] = bucket_size(bucket_offsets, keys[slot].x) > SMALL_BUCKET ? 1 : 0;
}

__kernel void gather_large_slots(const int slots, __global const uint* places,
  __global uint* large_slots)
{
  const int slot = get_global_id(0);
  if (slot < slots && places[slot + 1] != places[slot])
    large_slots[places[slot]] = (uint)slot;
}

// The sort key of components [first, first + count) of each listed slot's key (count 1 or
// 2), `bits` bits per vertex id; NONE becomes none_id (the point count), above every id, so
// the packed keys order as the keys do.
__kernel void pack_keys(__global const uint4* keys, __global const uint* slots, const int count,
  const int first, const int components, const uint bits, const uint none_id,
  __global ulong* packed)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const uint4 key = keys[slots[i]];
  const uint ids[4] = { key.x, key.y, key.z, key.w };
  ulong result = 0;
  for (int c = first; c < first + components; ++c)
    result = (result << bits) | (ulong)(ids[c] == NONE ? none_id : ids[c]);
  packed[i] = result;
}

// The large buckets' slots, sorted by (key, slot), go back to their buckets' places, with
// where their runs of equal keys start (and, `with_head_keys`, the heads' keys).
__kernel void place_large_slots(__global const uint4* keys, __global const uint* sorted_large,
  const int count, __global const uint* bucket_offsets, __global const uint* large_offsets,
  __global int* sorted_slots, __global uint* heads, __global uint4* head_keys,
  const int with_head_keys)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const uint slot = sorted_large[i];
  const uint4 key = keys[slot];
  const uint place = bucket_offsets[key.x] + (uint)i - large_offsets[key.x];
  sorted_slots[place] = (int)slot;
  const int head = i == 0 || !key_equal(key, keys[sorted_large[i - 1]]);
  heads[place] = head;
  if (with_head_keys && head)
    head_keys[place] = key;
}

// entity_offsets[i]: the entities that start before position i, so a head at i starts entity
// entity_offsets[i]. run_start gets entity_count + 1 entries, the last one `slots`.
__kernel void record_entities(__global const uint4* keys, __global const int* sorted_slots,
  const int slots, __global const uint* entity_offsets, __global int* run_start,
  __global uint4* entity_vertices)
{
  const int i = get_global_id(0);
  if (i >= slots)
    return;
  const uint entity = entity_offsets[i];
  if (entity_offsets[i + 1] != entity)
  {
    run_start[entity] = i;
    entity_vertices[entity] = keys[sorted_slots[i]];
  }
  if (i == slots - 1)
    run_start[entity_offsets[slots]] = slots;
}

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
