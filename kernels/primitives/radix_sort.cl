// Stable least-significant-digit radix sort of (ulong key, uint value) pairs, BITS bits per
// pass. Each pass: count_digits gives every work-group's histogram of the pass's digit,
// bin-major (counts[bin * groups + group]); an exclusive scan of it gives every (bin, group)
// its first output position; scatter_digits ranks the group's elements stably inside its
// tile and writes them there. Build options: WG (work-group size), ITEMS (elements per
// work-item), BITS (digit width).
#include "work_group_scan.cl"

#define BINS (1u << BITS)
#define TILE (WG * ITEMS)

inline uint digit_of(ulong key, uint shift, uint mask)
{
  return (uint)(key >> shift) & mask;
}

// Counting is order-free, so the reads are coalesced (element k * WG + lid of the tile). Each
// work-item counts in its own column of a local table, whose rows are then summed: no
// atomics, which CPU runtimes make slow.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void count_digits(__global const ulong* keys, const uint shift, const uint mask,
  const uint count, __global uint* counts)
{
  __local uint table[BINS * WG]; // table[bin * WG + lid]
  const uint lid = get_local_id(0);
  const uint group = get_group_id(0);
  for (uint b = 0; b < BINS; ++b)
    table[b * WG + lid] = 0;
  const ulong base = (ulong)group * TILE;
  for (uint k = 0; k < ITEMS; ++k)
  {
    const ulong i = base + (ulong)k * WG + lid;
    if (i < count)
      ++table[digit_of(keys[i], shift, mask) * WG + lid];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += WG)
  {
    uint sum = 0;
    for (uint j = 0; j < WG; ++j)
      sum += table[b * WG + j];
    counts[(size_t)b * get_num_groups(0) + group] = sum;
  }
}

// Work-item lid owns the consecutive elements [lid * ITEMS, (lid + 1) * ITEMS) of the tile,
// so the tile order is (work-item, item). The rank of an element inside the tile is the
// number of the tile's elements with a smaller digit, plus those with its digit owned by
// earlier work-items, plus those before it in its own items: an exclusive scan of the
// (digit, work-item) counts, in that order, gives the first two. The tile is laid out sorted
// in local memory, then written out in order, so that neighbouring work-items write
// neighbouring addresses.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void scatter_digits(__global const ulong* keys, __global const uint* values,
  __global ulong* keys_out, __global uint* values_out, const uint shift, const uint mask,
  const uint count, __global const uint* offsets)
{
  __local uint rank[BINS * WG]; // rank[bin * WG + lid]
  __local uint totals[WG];
  __local uint bin_start[BINS];
  __local ulong tile_keys[TILE];
  __local uint tile_values[TILE];
  const uint lid = get_local_id(0);
  const uint group = get_group_id(0);
  const ulong base = (ulong)group * TILE;
  const uint valid = (uint)min((ulong)TILE, (ulong)count - base);

  ulong key[ITEMS];
  uint value[ITEMS];
  for (uint b = 0; b < BINS; ++b)
    rank[b * WG + lid] = 0;
  for (uint k = 0; k < ITEMS; ++k)
  {
    const uint t = lid * ITEMS + k;
    if (t < valid)
    {
      key[k] = keys[base + t];
      value[k] = values[base + t];
      ++rank[digit_of(key[k], shift, mask) * WG + lid];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  // Exclusive scan of rank[] (BINS * WG entries): work-item lid scans BINS consecutive
  // entries, the work-items' totals are scanned, and each adds its prefix.
  uint sum = 0;
  for (uint j = 0; j < BINS; ++j)
    sum += rank[lid * BINS + j];
  uint running = work_group_exclusive_total(sum, totals);
  for (uint j = 0; j < BINS; ++j)
  {
    const uint c = rank[lid * BINS + j];
    rank[lid * BINS + j] = running;
    running += c;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint b = lid; b < BINS; b += WG)
    bin_start[b] = rank[b * WG];
  barrier(CLK_LOCAL_MEM_FENCE);

  // Each work-item's column of rank[] is its own: no other work-item touches it now.
  for (uint k = 0; k < ITEMS; ++k)
  {
    if (lid * ITEMS + k < valid)
    {
      const uint r = rank[digit_of(key[k], shift, mask) * WG + lid]++;
      tile_keys[r] = key[k];
      tile_values[r] = value[k];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  const uint groups = get_num_groups(0);
  for (uint t = lid; t < valid; t += WG)
  {
    const ulong k = tile_keys[t];
    const uint b = digit_of(k, shift, mask);
    const uint destination = offsets[(size_t)b * groups + group] + (t - bin_start[b]);
    keys_out[destination] = k;
    values_out[destination] = tile_values[t];
  }
}
