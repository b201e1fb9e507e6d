// Exclusive prefix sums, two ways, each in three steps: add up each piece, scan the pieces'
// sums (piece_offsets, one work-group), scan each piece from its offset. The middle step is in
// the same program, so that a scan builds one program, not a second one for its ulong sums (a
// cold GPU driver spends 150-200 ms on each). Build options: IN_T (input element), SUM_T
// (accumulator and piece sums, ulong), OUT_T (output element).
//
// GPUs: tiles of WG * ITEMS elements, one work-group each, through local memory so that loads
// and stores are coalesced (tile_sums, tile_scan; build options WG, ITEMS).
// CPUs: chunks of consecutive elements, one work-item each, with no local memory and no
// barriers, which CPU runtimes execute far faster (chunk_sums, chunk_scan).
#ifdef WG
#define TILE (WG * ITEMS)
#define WORK_GROUP_SCAN_T SUM_T
#include "work_group_scan.cl"

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

// The tile staged in local memory becomes its exclusive scan from `offset`, each work-item
// scanning its ITEMS consecutive elements; returns the tile's total. Every work-item calls it.
inline SUM_T scan_staged_tile(__local SUM_T* tile, __local SUM_T* scratch, const SUM_T offset)
{
  const size_t lid = get_local_id(0);
  SUM_T total = 0;
  for (int k = 0; k < ITEMS; ++k)
    total += tile[lid * ITEMS + k];
  SUM_T running = offset + work_group_exclusive_total(total, scratch);
  const SUM_T tile_total = scratch[WG - 1]; // the inclusive totals, after its last barrier
  for (int k = 0; k < ITEMS; ++k)
  {
    const SUM_T value = tile[lid * ITEMS + k];
    tile[lid * ITEMS + k] = running;
    running += value;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  return tile_total;
}

// Each work-item scans ITEMS consecutive elements of the tile, staged in local memory.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void tile_scan(__global const IN_T* values, const ulong count, __global const SUM_T* tile_offsets,
  __global OUT_T* out)
{
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
  scan_staged_tile(tile, scratch, tile_offsets[get_group_id(0)]);
  for (int k = 0; k < ITEMS; ++k)
  {
    const size_t local_index = (size_t)k * WG + lid;
    const ulong i = base + local_index;
    if (i < count)
      out[i] = (OUT_T)tile[local_index];
  }
}

// The pieces' offsets and, after them, their total: one work-group walks the sums a tile at a
// time, carrying the total of the tiles before (a tile of sums per 2048 values: 180 tiles for 750M values).
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void piece_offsets(__global const SUM_T* sums, const ulong count, __global SUM_T* offsets)
{
  __local SUM_T tile[TILE];
  __local SUM_T scratch[WG];
  const size_t lid = get_local_id(0);
  SUM_T carry = 0;
  for (ulong base = 0; base < count; base += TILE)
  {
    for (int k = 0; k < ITEMS; ++k)
    {
      const size_t local_index = (size_t)k * WG + lid;
      const ulong i = base + local_index;
      tile[local_index] = i < count ? sums[i] : (SUM_T)0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    carry += scan_staged_tile(tile, scratch, carry);
    for (int k = 0; k < ITEMS; ++k)
    {
      const size_t local_index = (size_t)k * WG + lid;
      const ulong i = base + local_index;
      if (i < count)
        offsets[i] = tile[local_index];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    offsets[count] = carry; // the total
}
#else

// The chunks' offsets and, after them, their total, on one work-item: a chunk is 16384 values, so there are few.
__kernel void chunk_offsets(__global const SUM_T* sums, const ulong count, __global SUM_T* offsets)
{
  if (get_global_id(0) != 0)
    return;
  SUM_T running = 0;
  for (ulong i = 0; i < count; ++i)
  {
    offsets[i] = running;
    running += sums[i];
  }
  offsets[count] = running; // the total
}
#endif

// Chunk i: elements [i * chunk, min((i + 1) * chunk, count)).
__kernel void chunk_sums(__global const IN_T* values, const ulong count, const ulong chunk,
  const ulong chunks, __global SUM_T* sums)
{
  const ulong i = get_global_id(0);
  if (i >= chunks)
    return;
  const ulong end = min(count, (i + 1) * chunk);
  SUM_T sum = 0;
  for (ulong k = i * chunk; k < end; ++k)
    sum += values[k];
  sums[i] = sum;
}

__kernel void chunk_scan(__global const IN_T* values, const ulong count, const ulong chunk,
  const ulong chunks, __global const SUM_T* chunk_offsets, __global OUT_T* out)
{
  const ulong i = get_global_id(0);
  if (i >= chunks)
    return;
  const ulong end = min(count, (i + 1) * chunk);
  SUM_T running = chunk_offsets[i];
  for (ulong k = i * chunk; k < end; ++k)
  {
    const SUM_T value = values[k];
    out[k] = (OUT_T)running;
    running += value;
  }
}
