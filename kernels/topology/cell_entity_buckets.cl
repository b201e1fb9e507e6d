// The slots of each bucket gathered and the small buckets ranked, a step of the matching in
// the program of cell_entities.cl.
#include "entity_keys.cl"
#include "entity_runs.cl"
// Build options: SMALL_BUCKET, the largest bucket ranked in place (larger ones: radix sort);
// KEY_COMPONENTS, the most vertex ids in one key of the mesh (2, 3 or 4).

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
