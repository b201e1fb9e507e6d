// Exclusive prefix sum in tiles of WG * ITEMS elements: tile_sums adds up each tile, the tile
// sums are scanned (recursively, by the same kernels), and tile_scan scans each tile and adds
// its tile's offset. Build options: WG, ITEMS, IN_T (input element), SUM_T (accumulator and
// tile sums), OUT_T (output element), STAGED (1: through local memory).
#define TILE (WG * ITEMS)

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void tile_sums(__global const IN_T* values, const ulong count, __global SUM_T* sums)
{
  __local SUM_T scratch[WG];
  const size_t lid = get_local_id(0);
  const ulong base = (ulong)get_group_id(0) * TILE;
  SUM_T sum = 0;
  for (int k = 0; k < ITEMS; ++k)
  {
    const ulong i = base + (ulong)k * WG + lid; // coalesced
    if (i < count)
      sum += values[i];
  }
  scratch[lid] = sum;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = WG / 2; stride > 0; stride >>= 1)
  {
    if (lid < stride)
      scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    sums[get_group_id(0)] = scratch[0];
}

// Each work-item scans ITEMS consecutive elements of the tile. With STAGED (GPUs) loads and
// stores go through local memory so that both are coalesced; without (CPUs, where a
// work-item's consecutive elements share cache lines) they go straight to global memory.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void tile_scan(__global const IN_T* values, const ulong count, __global const SUM_T* tile_offsets,
  __global OUT_T* out)
{
#if STAGED
  __local SUM_T tile[TILE];
  __local SUM_T scratch[WG];
  const size_t lid = get_local_id(0);
  const ulong base = (ulong)get_group_id(0) * TILE;
  for (int k = 0; k < ITEMS; ++k)
  {
    const size_t local_index = (size_t)k * WG + lid;
    const ulong i = base + local_index;
    tile[local_index] = i < count ? (SUM_T)values[i] : (SUM_T)0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#define ELEMENT(k) tile[lid * ITEMS + (k)]
#else
  __local SUM_T scratch[WG];
  const size_t lid = get_local_id(0);
  const ulong first = (ulong)get_group_id(0) * TILE + (ulong)lid * ITEMS;
  SUM_T mine[ITEMS];
  for (int k = 0; k < ITEMS; ++k)
    mine[k] = first + k < count ? (SUM_T)values[first + k] : (SUM_T)0;
#define ELEMENT(k) mine[k]
#endif
  SUM_T total = 0;
  for (int k = 0; k < ITEMS; ++k)
    total += ELEMENT(k);
  // Inclusive scan of the work-items' totals (Hillis-Steele).
  scratch[lid] = total;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t offset = 1; offset < WG; offset <<= 1)
  {
    const SUM_T before = lid >= offset ? scratch[lid - offset] : (SUM_T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  SUM_T running = tile_offsets[get_group_id(0)] + scratch[lid] - total;
  for (int k = 0; k < ITEMS; ++k)
  {
    const SUM_T value = ELEMENT(k);
    ELEMENT(k) = running;
    running += value;
  }
#if STAGED
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int k = 0; k < ITEMS; ++k)
  {
    const size_t local_index = (size_t)k * WG + lid;
    const ulong i = base + local_index;
    if (i < count)
      out[i] = (OUT_T)tile[local_index];
  }
#else
  for (int k = 0; k < ITEMS; ++k)
    if (first + k < count)
      out[first + k] = (OUT_T)mine[k];
#endif
#undef ELEMENT
}
