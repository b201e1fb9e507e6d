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
#include "cell_entity_emit.cl"
#include "cell_entity_buckets.cl"
#include "cell_entity_runs.cl"
// Build options: SMALL_BUCKET, the largest bucket ranked in place (larger ones: radix sort);
// KEY_COMPONENTS, the most vertex ids in one key of the mesh (2, 3 or 4); SLOT_ROWS, the slots
// per cell when one fixed-size kind fills the mesh; PER_CELL etc. (cellKindOptions) for the
// kernels that read cells (CELL_ARGS). The steps are one program, not a program per option: a
// compile costs per program more than per kernel (NVIDIA's compiler, truly cold on an H200: the
// four steps took 483 ms as four programs, 290 ms as one, and builds one program at a time
// whatever the threads), and a first use compiles every program it needs.

// Slot e of a cell: entity_vertex (kernels/runtime/common.cl) says which vertices it has. Closed cells
// (polygons) have as many edges as vertices, open ones (polylines) one fewer.
__kernel void count_entities(CELL_ARGS, const int rows, const int open, __global uint* slot_counts)
{
  const int i = get_global_id(0);
  if (i < count)
    slot_counts[cell_ids[i]] = cells_fixed ? rows : cell_size(i) - open;
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

// Each entity's count of slots, from the first slot of its run (SlotNeighbors::EntityCounts).
__kernel void entity_cells_from_runs(__global const int2* slot_run, __global const int* sorted_slots,
  __global const int* slot_entity, const int slots, __global uint* entity_cells)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  const int2 run = slot_run[s];
  if (sorted_slots[run.x] == s)
    entity_cells[slot_entity[s]] = (uint)run.y;
}
