// The sides (or edges) of every cell, matched across cells without sorting the whole mesh:
// each entity is keyed by its sorted vertex ids and owned by its smallest vertex (its
// bucket). A bucket holds few entities, so one work-item per bucket sorts and matches them.
// Entities with equal keys are the same side (edge) shared by several cells.
//
// Vocabulary: a slot is one (cell, local entity) pair; slots of cell c are consecutive from
// slot_offsets[c]. A key is a uint4 of sorted vertex ids padded with NONE, so an edge, a
// triangle face and a quad face never compare equal.
#define NONE 0xffffffffu
// PRIVATE_BUCKET (build option): buckets up to this size are sorted in private memory, larger
// ones in place in global memory. GPUs gain from it; CPUs, whose caches already hold the
// bucket, lose (0 turns it off).

inline uint4 sorted_key(uint a, uint b, uint c, uint d)
{
  // A sorting network for four values.
  uint t;
#define ORDER(x, y)                                                                                \
  if (x > y)                                                                                       \
  {                                                                                                \
    t = x;                                                                                         \
    x = y;                                                                                         \
    y = t;                                                                                         \
  }
  ORDER(a, b) ORDER(c, d) ORDER(a, c) ORDER(b, d) ORDER(b, c)
#undef ORDER
  return (uint4)(a, b, c, d);
}

inline int key_less(uint4 a, uint4 b)
{
  if (a.x != b.x) return a.x < b.x;
  if (a.y != b.y) return a.y < b.y;
  if (a.z != b.z) return a.z < b.z;
  return a.w < b.w;
}

inline int key_equal(uint4 a, uint4 b)
{
  return all(a == b);
}

__kernel void count_fixed(__global const int* cell_ids, const int count, const uint per_cell,
  __global uint* slot_counts)
{
  const int i = get_global_id(0);
  if (i < count)
    slot_counts[cell_ids[i]] = per_cell;
}

// Closed cells (polygons) have as many edges as vertices; open ones (polylines) one fewer.
__kernel void count_variable(__global const int* offsets, __global const int* cell_ids,
  const int count, const int closed, __global uint* slot_counts)
{
  const int i = get_global_id(0);
  if (i < count)
  {
    const int n = offsets[i + 1] - offsets[i];
    slot_counts[cell_ids[i]] = closed ? n : n - 1;
  }
}

inline void emit(uint4 key, int slot, int cell, __global uint4* keys, __global int* slot_cell,
  __global uint* bucket_counts)
{
  keys[slot] = key;
  slot_cell[slot] = cell;
  atomic_inc(&bucket_counts[key.x]);
}

// table: per_cell rows of 4 local vertex indices (-1 pads edges and triangles).
__kernel void emit_fixed(__global const int* connectivity, const int vertices_per_cell,
  __global const int* cell_ids, const int count, __global const int* table, const int per_cell,
  __global const uint* slot_offsets, __global uint4* keys, __global int* slot_cell,
  __global uint* bucket_counts)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + (size_t)i * vertices_per_cell;
  const int cell = cell_ids[i];
  const int first = (int)slot_offsets[cell];
  for (int e = 0; e < per_cell; ++e)
  {
    __global const int* row = table + 4 * e;
    const uint4 key = sorted_key((uint)v[row[0]], (uint)v[row[1]],
      row[2] < 0 ? NONE : (uint)v[row[2]], row[3] < 0 ? NONE : (uint)v[row[3]]);
    emit(key, first + e, cell, keys, slot_cell, bucket_counts);
  }
}

// Edges (i, i+1) of polygons (closed) and polylines (open).
__kernel void emit_variable(__global const int* offsets, __global const int* connectivity,
  __global const int* cell_ids, const int count, const int closed,
  __global const uint* slot_offsets, __global uint4* keys, __global int* slot_cell,
  __global uint* bucket_counts)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int begin = offsets[i];
  const int n = offsets[i + 1] - begin;
  const int cell = cell_ids[i];
  const int first = (int)slot_offsets[cell];
  const int edges = closed ? n : n - 1;
  for (int e = 0; e < edges; ++e)
  {
    const uint4 key = sorted_key((uint)connectivity[begin + e],
      (uint)connectivity[begin + (e + 1) % n], NONE, NONE);
    emit(key, first + e, cell, keys, slot_cell, bucket_counts);
  }
}

// Groups the slots by bucket; the order inside a bucket is arbitrary until match_buckets.
__kernel void fill_buckets(__global const uint4* keys, const int slots,
  __global const uint* bucket_offsets, __global uint* cursors, __global int* sorted_slots)
{
  const int slot = get_global_id(0);
  if (slot >= slots)
    return;
  const uint bucket = keys[slot].x;
  sorted_slots[bucket_offsets[bucket] + atomic_inc(&cursors[bucket])] = slot;
}

// One work-item per bucket: sorts its slots by (key, slot), which makes every later result
// independent of the thread schedule, then records for each slot where its run of equal keys
// starts and how long it is, the first other cell of the run (or -1), and the bucket's number
// of distinct entities.
__kernel void match_buckets(__global const uint4* keys, __global const uint* bucket_offsets,
  const int buckets, __global int* sorted_slots, __global const int* slot_cell,
  __global int2* slot_run, __global int* neighbor, __global uint* runs_per_bucket)
{
  const int b = get_global_id(0);
  if (b >= buckets)
    return;
  const int begin = (int)bucket_offsets[b];
  const int end = (int)bucket_offsets[b + 1];
#if PRIVATE_BUCKET > 0
  if (end - begin <= PRIVATE_BUCKET)
  {
    // Small buckets (nearly all): sort a private copy. Every key of a bucket shares x, so
    // (y, z, w, slot) orders it, and the keys are read from global memory once.
    uint4 entry[PRIVATE_BUCKET]; // (key.y, key.z, key.w, slot)
    for (int i = begin; i < end; ++i)
    {
      const int slot = sorted_slots[i];
      const uint4 key = keys[slot];
      const uint4 e = (uint4)(key.y, key.z, key.w, (uint)slot);
      int j = i - begin - 1;
      while (j >= 0 && key_less(e, entry[j]))
      {
        entry[j + 1] = entry[j];
        --j;
      }
      entry[j + 1] = e;
    }
    for (int i = begin; i < end; ++i)
      sorted_slots[i] = (int)entry[i - begin].w;
  }
  else
#endif
  {
    for (int i = begin + 1; i < end; ++i)
    {
      const int slot = sorted_slots[i];
      const uint4 key = keys[slot];
      int j = i - 1;
      while (j >= begin)
      {
        const int other = sorted_slots[j];
        const uint4 other_key = keys[other];
        if (key_less(key, other_key) || (key_equal(key, other_key) && slot < other))
        {
          sorted_slots[j + 1] = other;
          --j;
        }
        else
          break;
      }
      sorted_slots[j + 1] = slot;
    }
  }
  uint runs = 0;
  for (int start = begin; start < end;)
  {
    const uint4 key = keys[sorted_slots[start]];
    int stop = start + 1;
    while (stop < end && key_equal(keys[sorted_slots[stop]], key))
      ++stop;
    for (int i = start; i < stop; ++i)
    {
      const int slot = sorted_slots[i];
      slot_run[slot] = (int2)(start, stop - start);
      const int first_other = sorted_slots[i == start ? min(start + 1, stop - 1) : start];
      neighbor[slot] = stop - start > 1 ? slot_cell[first_other] : -1;
    }
    ++runs;
    start = stop;
  }
  runs_per_bucket[b] = runs;
}

// Numbers the distinct entities bucket by bucket, in key order: the numbering depends only on
// the mesh, not on the schedule.
__kernel void number_entities(__global const uint4* keys, __global const uint* bucket_offsets,
  const int buckets, __global const int* sorted_slots, __global const int2* slot_run,
  __global const uint* entity_offsets, __global int* slot_entity, __global uint4* entity_keys)
{
  const int b = get_global_id(0);
  if (b >= buckets)
    return;
  int entity = (int)entity_offsets[b];
  const int end = (int)bucket_offsets[b + 1];
  for (int start = (int)bucket_offsets[b]; start < end; ++entity)
  {
    const int length = slot_run[sorted_slots[start]].y;
    entity_keys[entity] = keys[sorted_slots[start]];
    for (int i = start; i < start + length; ++i)
      slot_entity[sorted_slots[i]] = entity;
    start += length;
  }
}
