// Keys of sides and edges, shared by the two ways of matching them (cell_entities.cl for GPUs,
// cell_entity_partitions.cl for CPUs; `#include "entity_keys.cl"`). A key is a uint4 of the
// entity's sorted vertex ids padded with NONE, so an edge, a triangle face and a quad face never
// compare equal; its x, the smallest vertex, is the entity's bucket.
#define NONE 0xffffffffu

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

// An entity_vertex as a key component (padding: NONE).
inline uint key_vertex(__global const int* v, int n, int corner, int turn)
{
  return corner < 0 ? NONE : (uint)entity_vertex(v, n, corner, turn);
}

// The key of entity e of a cell with vertices v[0..n): row e of the kind's `table` (fixed-size
// kinds), or its one row turned e places (polygons, polylines; entity_vertex in common.cl).
inline uint4 entity_key(__global const int* v, int n, __global const int* table, int rows, int fixed, int e)
{
  __global const int* row = table + 4 * (fixed ? e : e % rows);
  const int turn = fixed ? 0 : e / rows;
  return sorted_key(key_vertex(v, n, row[0], turn), key_vertex(v, n, row[1], turn),
    key_vertex(v, n, row[2], turn), key_vertex(v, n, row[3], turn));
}

// A slot's cell: a multiple of the rows when one fixed-size kind fills the mesh and the build
// says so (option SLOT_ROWS, the slots per cell), else looked up in slot_cell.
#ifdef SLOT_ROWS
#define cell_of_slot(slot_cell, slot) ((slot) / SLOT_ROWS)
#else
#define cell_of_slot(slot_cell, slot) ((slot_cell)[slot])
#endif

// The sort entry of a slot's key in its bucket (key.x): (key.y, key.z, key.w, slot), or, when no
// key has a fourth vertex (KEY_COMPONENTS < 4, a build option of the kernels that call this),
// the bucket in the third place instead of key.w (always NONE then), so that a bucket's entries
// say which bucket they are in. Every key of a bucket shares x, so the entries order the bucket
// as the keys do either way.
inline uint4 bucket_entry(uint4 key, uint slot)
{
#if KEY_COMPONENTS < 4
  return (uint4)(key.y, key.z, key.x, slot);
#else
  return (uint4)(key.y, key.z, key.w, slot);
#endif
}

// The bucket of entry i of an array of bucket entries (and, with four-vertex keys, of their
// buckets beside them).
inline uint bucket_of_entry(__global const uint4* entries, __global const uint* entry_bucket, size_t i)
{
#if KEY_COMPONENTS < 4
  return entries[i].z;
#else
  return entry_bucket[i];
#endif
}

// One step of ranking entry e in its bucket: `other`, another entry of the bucket (or e
// itself), counts when it comes before e in the bucket sorted by (key, slot) (slot last: equal
// keys keep slot order, so every later result is independent of the thread schedule), and
// e stops being the head of its run of equal keys when `other` has its key and a smaller slot.
inline void rank_against(const uint4 other, const uint4 e, int* rank, int* head)
{
#if KEY_COMPONENTS == 2 // entries (other vertex, NONE, bucket, slot)
  const int same_key = other.x == e.x;
  const int key_before = other.x < e.x;
#elif KEY_COMPONENTS == 3 // entries (second vertex, third vertex or NONE, bucket, slot)
  const int same_key = other.x == e.x && other.y == e.y;
  const int key_before = other.x < e.x || (other.x == e.x && other.y < e.y);
#else
  const int same_key = all(other.xyz == e.xyz);
  const int key_before = key_less((uint4)(other.xyz, 0), (uint4)(e.xyz, 0));
#endif
  const int slot_before = same_key && other.w < e.w;
  *rank += key_before || slot_before;
  *head &= !slot_before;
}

// The key of a bucket entry in `bucket` (bucket_entry undone).
inline uint4 key_of_entry(const uint4 entry, const uint bucket)
{
#if KEY_COMPONENTS < 4
  return (uint4)(bucket, entry.x, entry.y, NONE);
#else
  return (uint4)(bucket, entry.x, entry.y, entry.z);
#endif
}

// Entry i of the bucket [begin, end) of `entries` to its place in the bucket's sorted order,
// with whether it heads a run (rank_against); a head's key goes to head_keys at its place too
// unless head_keys is 0. Linear in the bucket's size per entry; the entries of a bucket
// are read together by neighbouring work-items, so they come from cache.
inline void rank_bucket_entry(__global const uint4* entries, const int i, const int begin,
  const int end, const uint bucket, __global int* sorted_slots, __global uint* heads,
  __global uint4* head_keys)
{
  const uint4 e = entries[i];
  int rank = 0;
  int head = 1;
  for (int j = begin; j < end; ++j)
    rank_against(entries[j], e, &rank, &head);
  sorted_slots[begin + rank] = (int)e.w;
  heads[begin + rank] = head;
  if (head_keys && head)
    head_keys[begin + rank] = key_of_entry(e, bucket);
}
