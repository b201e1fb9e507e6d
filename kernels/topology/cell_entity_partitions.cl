// The sides (or edges) of every cell, matched the way CPUs run fast (CellEntities with
// AccessPattern::Contiguous): the same entities, numbering, runs and neighbours as
// cell_entities.cl, found by few work-items that each own a range -- of cells, or of vertices
// -- so that no two of them write one counter (no atomics), and every sort runs in cache on
// (key, slot) pairs that travel together (no reads through the slot indirection).
//
// The vertices are cut into `partitions` ranges of 2^shift ids; an entity belongs to the
// partition of its smallest vertex (key.x), its bucket. In order:
//   count_partition_entries   each chunk of cells counts its entities per partition;
//   partition_totals,         where the pairs of each (partition, chunk) go: partitions in
//   chunk_cursors             vertex order, chunks in cell order within each;
//   scatter_partition_entries each chunk moves its (key, slot) pairs there;
//   sort_partitions           each partition sorts its pairs in place by (key, slot) and
//                             counts its entities (runs of equal keys);
//   number_partition_entities where each partition's entity numbers start;
//   record_partition_entities entity numbers, runs and neighbours of each partition's slots.
// The last four run over a batch of partitions [first_partition, end_partition) at a time,
// whose pairs start at pair_base of the whole order: the pairs' arrays hold one batch.
// Build options: SMALL_BUCKET, the largest bucket sorted by insertion; RANK_SORT, the largest
// sorted by ranks (a heap sort above); STAGED_PAIRS, the largest partition moved into its
// buckets through private memory (by swaps above); KEY_COMPONENTS, the most vertices of one
// entity (2, or 4 for any more); PRIVATE_BUCKETS, when not 0, the most vertices of a partition,
// whose buckets' bounds are then kept in private memory; PER_CELL for the per-cell kernels (cellKindOptions);
// WITH_NEIGHBORS 0 leaves the slots' cells and neighbours out (SlotNeighbors::LeftOut);
// SLOT_CELLS 0 does not store the slots' cells (found as slot / SLOT_ROWS, cell_of_slot in
// entity_keys.cl, when one fixed-size kind fills the mesh); WITH_RUNS 0 leaves the runs and the
// entities' vertices out (SlotNeighbors::Only); ENTITY_CELLS 1 records each entity's count of
// slots instead of anything per slot (SlotNeighbors::EntityCounts).
#include "entity_keys.cl"

// A pair's slot, read and written through these: with ENTITY_CELLS no slot is read after the
// sort, so only the keys move (the slots' array is never touched, and equal keys need no
// order among themselves).
#if ENTITY_CELLS
#define SLOT_AT(slots, i) 0
#define SET_SLOT(slots, i, value) ((void)0)
#else
#define SLOT_AT(slots, i) ((slots)[i])
#define SET_SLOT(slots, i, value) ((slots)[i] = (value))
#endif

// The pairs' keys: only (x, y) when no entity of the mesh has more than 2 vertices (edges,
// sides of 2D cells), which halves the bytes every pass moves.
#if KEY_COMPONENTS == 2
typedef uint2 pair_key;
#define PAIR_KEY(key) ((key).xy)
#define FULL_KEY(key) ((uint4)((key), NONE, NONE))
#else
typedef uint4 pair_key;
#define PAIR_KEY(key) (key)
#define FULL_KEY(key) (key)
#endif

// entity_key, with the sorting network cut to one comparison when every entity is an edge.
inline uint4 pair_source_key(__global const int* v, int n, __global const int* table, int rows, int fixed, int e)
{
#if KEY_COMPONENTS == 2
  __global const int* row = table + 4 * (fixed ? e : e % rows);
  const int turn = fixed ? 0 : e / rows;
  const uint a = key_vertex(v, n, row[0], turn);
  const uint b = key_vertex(v, n, row[1], turn);
  return (uint4)(min(a, b), max(a, b), NONE, NONE);
#else
  return entity_key(v, n, table, rows, fixed, e);
#endif
}

// Chunk k of a group: its cells [k * chunk_cells, min((k + 1) * chunk_cells, count)).
// Its counts are row first_chunk + k of chunk_counts (`partitions` entries each).
__kernel void count_partition_entries(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, const int chunk_cells, const int first_chunk,
  const uint shift, const int partitions, __global int* slot_cell, __global uint* chunk_counts)
{
  const int chunk = get_global_id(0);
  __global uint* counts = chunk_counts + (size_t)(first_chunk + chunk) * partitions;
  for (int p = 0; p < partitions; ++p)
    counts[p] = 0;
  const int end = (int)min((long)count, (long)(chunk + 1) * chunk_cells);
  for (int i = chunk * chunk_cells; i < end; ++i)
  {
    __global const int* v = connectivity + cell_start(i);
    const int n = cell_size(i);
    const int cell = cell_ids[i];
    const uint first = slot_offsets[cell];
    const int entities = (int)(slot_offsets[cell + 1] - first);
    for (int e = 0; e < entities; ++e)
    {
#if SLOT_CELLS
      slot_cell[first + e] = cell;
#endif
      ++counts[pair_source_key(v, n, table, rows, cells_fixed, e).x >> shift];
    }
  }
}

// Partition p's pairs over all chunks.
__kernel void partition_totals(__global const uint* chunk_counts, const int chunks,
  const int partitions, __global uint* totals)
{
  const int p = get_global_id(0);
  if (p >= partitions)
    return;
  uint total = 0;
  for (int c = 0; c < chunks; ++c)
    total += chunk_counts[(size_t)c * partitions + p];
  totals[p] = total;
}

// Each chunk's counts become where its pairs of each partition go (partition_starts: the
// scanned totals).
__kernel void chunk_cursors(__global uint* chunk_counts, const int chunks, const int partitions,
  __global const uint* partition_starts)
{
  const int p = get_global_id(0);
  if (p >= partitions)
    return;
  uint next = partition_starts[p];
  for (int c = 0; c < chunks; ++c)
  {
    const size_t at = (size_t)c * partitions + p;
    const uint n = chunk_counts[at];
    chunk_counts[at] = next;
    next += n;
  }
}

// The same chunks as count_partition_entries, whose keys are computed again (cheaper than
// storing and reading them) and moved with their slots to their partitions' places.
__kernel void scatter_partition_entries(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, const int chunk_cells, const int first_chunk,
  const uint shift, const int partitions, __global uint* chunk_cursors, const uint first_partition,
  const uint end_partition, const uint pair_base, __global pair_key* pair_keys, __global int* pair_slots)
{
  const int chunk = get_global_id(0);
  __global uint* cursors = chunk_cursors + (size_t)(first_chunk + chunk) * partitions;
  const int end = (int)min((long)count, (long)(chunk + 1) * chunk_cells);
  for (int i = chunk * chunk_cells; i < end; ++i)
  {
    __global const int* v = connectivity + cell_start(i);
    const int n = cell_size(i);
    const uint first = slot_offsets[cell_ids[i]];
    const int entities = (int)(slot_offsets[cell_ids[i] + 1] - first);
    for (int e = 0; e < entities; ++e)
    {
      const uint4 key = pair_source_key(v, n, table, rows, cells_fixed, e);
      const uint partition = key.x >> shift;
      if (partition < first_partition || partition >= end_partition)
        continue;
      const uint at = cursors[partition]++ - pair_base;
      pair_keys[at] = PAIR_KEY(key);
      SET_SLOT(pair_slots, at, (int)(first + e));
    }
  }
}

// Orders pairs of one bucket (equal x) by (key, slot).
inline int pair_less(pair_key a, int slot_a, pair_key b, int slot_b)
{
  if (a.y != b.y) return a.y < b.y;
#if KEY_COMPONENTS > 2
  if (a.z != b.z) return a.z < b.z;
  if (a.w != b.w) return a.w < b.w;
#endif
  return slot_a < slot_b;
}

inline void insertion_sort(__global pair_key* keys, __global int* slots, uint size)
{
  for (uint i = 1; i < size; ++i)
  {
    const pair_key key = keys[i];
    const int slot = SLOT_AT(slots, i);
    uint j = i;
    for (; j > 0 && pair_less(key, slot, keys[j - 1], SLOT_AT(slots, j - 1)); --j)
    {
      keys[j] = keys[j - 1];
      SET_SLOT(slots, j, SLOT_AT(slots, j - 1));
    }
    keys[j] = key;
    SET_SLOT(slots, j, slot);
  }
}

// Each pair goes straight to its rank among the bucket's keys (ties by position): n^2 / 2
// comparisons without a branch, which the compiler vectorises, for buckets of up to RANK_SORT
// pairs (those of ordinary vertices of a tetrahedral mesh: tens of edge slots, which an
// insertion sort spends most of its time mispredicting). Then each run of equal keys, a few
// slots, is ordered by slot.
#if KEY_COMPONENTS == 2
#define RANK_KEY uint
#define RANK_KEY_OF(key) ((key).y)
#define RANK_LESS(a, b) ((a) < (b))
#else
#define RANK_KEY ulong2
#define RANK_KEY_OF(key) ((ulong2)((ulong)(key).y << 32 | (key).z, (key).w))
#define RANK_LESS(a, b) (((a).x < (b).x) | (((a).x == (b).x) & ((a).y < (b).y)))
#endif

inline void rank_sort(__global pair_key* keys, __global int* slots, uint size)
{
  RANK_KEY order[RANK_SORT];
  pair_key key[RANK_SORT];
  int slot[RANK_SORT];
  for (uint i = 0; i < size; ++i)
  {
    key[i] = keys[i];
    slot[i] = SLOT_AT(slots, i);
    order[i] = RANK_KEY_OF(key[i]);
  }
  // Each pair (i, j > i) compared once: the larger (j on a tie, which keeps positions) gains a
  // rank.
  uint rank[RANK_SORT];
  for (uint i = 0; i < size; ++i)
    rank[i] = 0;
  for (uint i = 0; i < size; ++i)
  {
    const RANK_KEY mine = order[i];
    uint below = 0;
    for (uint j = i + 1; j < size; ++j)
    {
      const uint less = RANK_LESS(order[j], mine);
      below += less;
      rank[j] += 1 - less;
    }
    rank[i] += below;
  }
  for (uint i = 0; i < size; ++i)
  {
    keys[rank[i]] = key[i];
    SET_SLOT(slots, rank[i], slot[i]);
  }
  for (uint start = 0; start < size;)
  {
    uint stop = start + 1;
    while (stop < size && all(keys[stop] == keys[start]))
      ++stop;
    for (uint i = start + 1; i < stop; ++i)
    {
      const int moving = SLOT_AT(slots, i);
      uint j = i;
      for (; j > start && SLOT_AT(slots, j - 1) > moving; --j)
        SET_SLOT(slots, j, SLOT_AT(slots, j - 1));
      SET_SLOT(slots, j, moving);
    }
    start = stop;
  }
}

// Restores the max-heap order below `root` of the heap keys/slots[0, size).
inline void sift_down(__global pair_key* keys, __global int* slots, uint root, uint size)
{
  const pair_key key = keys[root];
  const int slot = SLOT_AT(slots, root);
  for (uint child = 2 * root + 1; child < size; child = 2 * root + 1)
  {
    if (child + 1 < size && pair_less(keys[child], SLOT_AT(slots, child), keys[child + 1], SLOT_AT(slots, child + 1)))
      ++child;
    if (!pair_less(key, slot, keys[child], SLOT_AT(slots, child)))
      break;
    keys[root] = keys[child];
    SET_SLOT(slots, root, SLOT_AT(slots, child));
    root = child;
  }
  keys[root] = key;
  SET_SLOT(slots, root, slot);
}

// In place, n log n whatever the bucket's size (a pole, a fan); no two pairs are equal, so
// the order is fully determined.
inline void heap_sort(__global pair_key* keys, __global int* slots, uint size)
{
  for (uint root = size / 2; root-- > 0;)
    sift_down(keys, slots, root, size);
  for (uint last = size; last-- > 1;)
  {
    const pair_key key = keys[0];
    const int slot = SLOT_AT(slots, 0);
    keys[0] = keys[last];
    SET_SLOT(slots, 0, SLOT_AT(slots, last));
    keys[last] = key;
    SET_SLOT(slots, last, slot);
    sift_down(keys, slots, 0, last);
  }
}

// Partition p: its pairs [partition_starts[p], partition_starts[p + 1]) are sorted in place by
// (key, slot) -- moved to their buckets (through private memory, or by swaps when there are
// more than STAGED_PAIRS), then each bucket sorted -- and the runs of equal keys (its
// entities) counted. The partition's vertices' ranges of
// bucket_starts and bucket_cursors, which no other partition touches, hold the buckets' bounds.
__kernel void sort_partitions(__global pair_key* keys, __global int* slots,
  __global const uint* partition_starts, const int first_partition, const int end_partition,
  const uint pair_base, const uint shift, const uint points, __global uint* bucket_starts,
  __global uint* bucket_cursors, __global uint* entity_counts)
{
  const int p = first_partition + get_global_id(0);
  if (p >= end_partition)
    return;
  const uint begin = partition_starts[p] - pair_base;
  const uint end = partition_starts[p + 1] - pair_base;
  const uint first_vertex = (uint)p << shift;
  const uint vertices = min(points - first_vertex, 1u << shift);
#if PRIVATE_BUCKETS
  // Partitions of up to PRIVATE_BUCKETS vertices keep their buckets' bounds in private memory
  // (bucket_starts and bucket_cursors are not read).
  uint start[PRIVATE_BUCKETS], next[PRIVATE_BUCKETS];
#else
  __global uint* start = bucket_starts + first_vertex;
  __global uint* next = bucket_cursors + first_vertex;
#endif
  for (uint v = 0; v < vertices; ++v)
    next[v] = 0;
  for (uint i = begin; i < end; ++i)
    ++next[keys[i].x - first_vertex];
  uint sum = begin;
  for (uint v = 0; v < vertices; ++v)
  {
    start[v] = sum;
    sum += next[v];
    next[v] = start[v];
  }
  if (end - begin <= STAGED_PAIRS)
  {
    // Counting sort through private memory: independent moves, where the swaps below wait for
    // each other.
    pair_key staged_keys[STAGED_PAIRS];
    int staged_slots[STAGED_PAIRS];
    for (uint i = begin; i < end; ++i)
    {
      const pair_key key = keys[i];
      const uint at = next[key.x - first_vertex]++ - begin;
      staged_keys[at] = key;
      staged_slots[at] = SLOT_AT(slots, i);
    }
    for (uint i = begin; i < end; ++i)
    {
      keys[i] = staged_keys[i - begin];
      SET_SLOT(slots, i, staged_slots[i - begin]);
    }
  }
  else
  {
    for (uint v = 0; v < vertices; ++v)
    {
      const uint stop = v + 1 < vertices ? start[v + 1] : end;
      while (next[v] < stop)
      {
        // Carry the pair at bucket v's cursor to its own bucket, taking the one found there
        // on, until a pair of bucket v comes back (American flag sort, in place).
        pair_key key = keys[next[v]];
        int slot = SLOT_AT(slots, next[v]);
        for (uint bucket = key.x - first_vertex; bucket != v; bucket = key.x - first_vertex)
        {
          const uint at = next[bucket]++;
          const pair_key displaced_key = keys[at];
          const int displaced_slot = SLOT_AT(slots, at);
          keys[at] = key;
          SET_SLOT(slots, at, slot);
          key = displaced_key;
          slot = displaced_slot;
        }
        keys[next[v]] = key;
        SET_SLOT(slots, next[v], slot);
        ++next[v];
      }
    }
  }
  uint entities = 0;
  for (uint v = 0; v < vertices; ++v)
  {
    const uint first = start[v];
    const uint size = (v + 1 < vertices ? start[v + 1] : end) - first;
    if (size <= SMALL_BUCKET)
      insertion_sort(keys + first, slots + first, size);
    else if (size <= RANK_SORT)
      rank_sort(keys + first, slots + first, size);
    else
      heap_sort(keys + first, slots + first, size);
    for (uint i = first; i < first + size; ++i)
      entities += i == first || any(keys[i] != keys[i - 1]);
  }
  entity_counts[p] = entities;
}

// One work-item: entity_starts of the batch's partitions, from the entities of the batches
// before (entity_total, which it then advances by the batch's).
__kernel void number_partition_entities(__global const uint* entity_counts,
  const int first_partition, const int end_partition, __global uint* entity_starts,
  __global uint* entity_total)
{
  if (get_global_id(0) != 0)
    return;
  uint next = *entity_total;
  for (int p = first_partition; p < end_partition; ++p)
  {
    entity_starts[p] = next;
    next += entity_counts[p];
  }
  *entity_total = next;
}

// Partition p's runs of equal keys: entity numbers from entity_starts[p] on, each entity's
// vertices, and for each slot its run (start in the sorted slots, length), its entity and the
// first other cell of its run (-1 for none).
__kernel void record_partition_entities(__global const pair_key* keys,
  __global const int* sorted_slots, __global const uint* partition_starts,
  __global const uint* entity_starts, const int first_partition, const int end_partition,
  const uint pair_base, __global const int* slot_cell, __global int2* slot_run,
  __global int* neighbor, __global int* slot_entity, __global uint4* entity_vertices,
  __global uint* entity_cells)
{
  const int p = first_partition + get_global_id(0);
  if (p >= end_partition)
    return;
  // Positions in the batch's pairs; the runs record them in the whole order.
  const uint end = partition_starts[p + 1] - pair_base;
  int entity = (int)entity_starts[p];
  for (uint start = partition_starts[p] - pair_base; start < end; ++entity)
  {
    const pair_key key = keys[start];
    uint stop = start + 1;
    while (stop < end && all(keys[stop] == key))
      ++stop;
    const int length = (int)(stop - start);
#if WITH_RUNS
    entity_vertices[entity] = FULL_KEY(key);
#endif
#if ENTITY_CELLS
    entity_cells[entity] = (uint)length;
    start = stop;
    continue;
#endif
#if WITH_NEIGHBORS
    const int first_cell = cell_of_slot(slot_cell, sorted_slots[start]);
    const int second_cell = length > 1 ? cell_of_slot(slot_cell, sorted_slots[start + 1]) : -1;
#endif
    for (uint i = start; i < stop; ++i)
    {
      const int slot = sorted_slots[i];
#if WITH_RUNS
      slot_run[slot] = (int2)((int)(pair_base + start), length);
#endif
      slot_entity[slot] = entity;
#if WITH_NEIGHBORS
      neighbor[slot] = i == start ? second_cell : first_cell;
#endif
    }
    start = stop;
  }
}
