// The sides (or edges) of every cell, matched across cells: each entity is keyed by its
// sorted vertex ids and owned by its smallest vertex (its bucket). Nearly every bucket holds
// few entities, and one work-item sorts it; the few large buckets (a pole, a fan) are sorted
// together by a device radix sort, so no bucket costs more than linear time. Entities with
// equal keys are the same side (edge) shared by several cells: runs of equal keys in the
// sorted order, found in parallel.
//
// Vocabulary: a slot is one (cell, local entity) pair; slots of cell c are consecutive from
// slot_offsets[c]. A key is a uint4 of sorted vertex ids padded with NONE, so an edge, a
// triangle face and a quad face never compare equal.
#include "entity_keys.cl"
// Build option: SMALL_BUCKET, the largest bucket sorted by one work-item.

// Slot e of a cell: entity_vertex (kernels/common.cl) says which vertices it has. Closed cells
// (polygons) have as many edges as vertices, open ones (polylines) one fewer.
__kernel void count_entities(CELL_ARGS, const int rows, const int open, __global uint* slot_counts)
{
  const int i = get_global_id(0);
  if (i < count)
    slot_counts[cell_ids[i]] = cells_fixed ? rows : cell_size(i) - open;
}

__kernel void emit_entities(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, __global uint4* keys, __global int* slot_cell,
  __global uint* bucket_counts)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
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
    atomic_inc(&bucket_counts[key.x]);
  }
}

// Groups the slots by bucket, each as its sort entry (key.y, key.z, key.w, slot): every key of
// a bucket shares x, so the entry orders the bucket, and the sort then reads its bucket's
// entries where they lie, not each key through its slot. The order inside a bucket is
// arbitrary until it is sorted.
__kernel void fill_buckets(__global const uint4* keys, const int slots,
  __global const uint* bucket_offsets, __global uint* cursors, __global uint4* entries)
{
  const int slot = get_global_id(0);
  if (slot >= slots)
    return;
  const uint4 key = keys[slot];
  entries[bucket_offsets[key.x] + atomic_inc(&cursors[key.x])] = (uint4)(key.y, key.z, key.w, (uint)slot);
}

// One work-item per small bucket: sorts its entries by (key, slot) (slot last: equal keys keep
// slot order), which makes every later result independent of the thread schedule, and writes
// the sorted slots and where runs of equal keys start (the first of a bucket always does: its
// x differs from the previous bucket's). Insertion sort, at most SMALL_BUCKET^2 steps. Large
// buckets are left to the radix sort: large_sizes gets their sizes (0 for small ones), whose
// scan says where each one's slots start in the sorted list of all large buckets' slots.
__kernel void sort_small_buckets(__global uint4* entries, __global const uint* bucket_offsets,
  const int buckets, __global int* sorted_slots, __global uint* heads, __global uint* large_sizes)
{
  const int b = get_global_id(0);
  if (b >= buckets)
    return;
  const int begin = (int)bucket_offsets[b];
  const int end = (int)bucket_offsets[b + 1];
  const int large = end - begin > SMALL_BUCKET;
  large_sizes[b] = large ? end - begin : 0;
  if (large)
    return;
  // In place: the bucket's entries lie together.
  for (int i = begin + 1; i < end; ++i)
  {
    const uint4 e = entries[i];
    int j = i - 1;
    while (j >= begin && key_less(e, entries[j]))
    {
      entries[j + 1] = entries[j];
      --j;
    }
    entries[j + 1] = e;
  }
  for (int i = begin; i < end; ++i)
  {
    const uint4 e = entries[i];
    sorted_slots[i] = (int)e.w;
    heads[i] = i == begin || any(e.xyz != entries[i - 1].xyz);
  }
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
// where their runs of equal keys start.
__kernel void place_large_slots(__global const uint4* keys, __global const uint* sorted_large,
  const int count, __global const uint* bucket_offsets, __global const uint* large_offsets,
  __global int* sorted_slots, __global uint* heads)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const uint slot = sorted_large[i];
  const uint4 key = keys[slot];
  const uint place = bucket_offsets[key.x] + (uint)i - large_offsets[key.x];
  sorted_slots[place] = (int)slot;
  heads[place] = i == 0 || !key_equal(key, keys[sorted_large[i - 1]]);
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
  const int entity = (int)entity_offsets[i + 1] - 1;
  const int start = run_start[entity];
  const int length = run_start[entity + 1] - start;
  const int slot = sorted_slots[i];
  slot_run[slot] = (int2)(start, length);
  slot_entity[slot] = entity;
  neighbor[slot] = length > 1 ? slot_cell[sorted_slots[i == start ? start + 1 : start]] : -1;
}
