// Tiles of records moved to windows, shared by the GPUs' two window steps of matching
// (bucket_windows.cl, run_windows.cl; `#include "window_tiles.cl"`). A tile is WG * ITEMS
// records, one work-group; WINDOWS, the most windows; TILE_OVERFLOW, below (build options).
#include "work_group_scan.cl"

#define TILE (WG * ITEMS)
#ifdef TILE_OVERFLOW
#define IN_TILE_WINDOWS(w) ((w) < WINDOWS)
#else
#define IN_TILE_WINDOWS(w) 1
#endif

// The local memory of a kernel that moves its tile with scatter_tile: OpenCL declares local
// memory at kernel scope, so each such kernel starts with this.
#define SCATTER_TILE_LOCALS                                                                        \
  __local uint count[WINDOWS];                                                                     \
  __local uint start[WINDOWS];                                                                     \
  __local uint totals[WG];                                                                         \
  __local uint4 staged[TILE];                                                                      \
  __local ushort staged_window[TILE]

// The tile's records counted by window in local memory (`count`, zeroed here): rank[k], record
// k's place among its window's records of the tile. Work-item lid holds window[k] for tile
// element k * WG + lid, when that is below `valid`. With the build option TILE_OVERFLOW,
// records of window WINDOWS or above are left out (their caller moves them); without it, the
// kernels run as fast as if there were no such check (it cost the first grouping of runs a
// quarter of its time on an H200).
inline void count_tile(const uint valid, const uint* window, __local uint* count, uint* rank)
{
  const uint lid = get_local_id(0);
  for (uint w = lid; w < WINDOWS; w += WG)
    count[w] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint k = 0; k < ITEMS; ++k)
    if (k * WG + lid < valid && IN_TILE_WINDOWS(window[k]))
      rank[k] = atomic_inc(&count[window[k]]);
  barrier(CLK_LOCAL_MEM_FENCE);
}

// Regrouping (TILE_OVERFLOW): a tile of records grouped by window (id >> shift) moves to
// sub-windows (id >> sub_shift). Its records lie in its first record's window or the next
// ones, so its local windows are the sub-windows from the first one of its first record's
// window on; a record beyond them (a tile over more than one or two small windows) gets
// WINDOWS, and its caller moves it on its own.
inline uint first_tile_subwindow(const uint first_id, const uint shift, const uint sub_shift)
{
  return (first_id >> shift) << (shift - sub_shift);
}

inline uint tile_subwindow(const uint sub, const uint first_sub)
{
  return min(sub - first_sub, (uint)WINDOWS);
}

// Moves the work-group's tile to the windows: the tile is grouped by window in local memory,
// one atomic per window and tile on the window's cursor reserves its places, and neighbouring
// work-items write neighbouring places. Work-item lid holds record[k], extra[k] (moved only
// `with_extra`) and window[k] for tile element k * WG + lid, when that is below `valid`.
inline void scatter_tile(const uint valid, const uint4* record, const uint* extra,
  const uint* window, const int with_extra, __global uint* cursors, __global uint4* out,
  __global uint* out_extra, __local uint* count, __local uint* start, __local uint* totals,
  __local uint4* staged, __local uint* staged_extra, __local ushort* staged_window)
{
  const uint lid = get_local_id(0);
  uint rank[ITEMS];
  count_tile(valid, window, count, rank);

  // Exclusive scan of the counts: work-item lid scans its consecutive windows, the work-items'
  // totals are scanned, and each adds its prefix. Each then reserves its
  // windows' places; count[w] becomes where window w's run of this tile goes.
  const uint per = (WINDOWS + WG - 1) / WG;
  const uint first = min(lid * per, (uint)WINDOWS);
  const uint last = min(first + per, (uint)WINDOWS);
  uint sum = 0;
  for (uint w = first; w < last; ++w)
    sum += count[w];
  uint running = work_group_exclusive_total(sum, totals);
#ifdef TILE_OVERFLOW
  const uint staged_count = totals[WG - 1]; // the records of the tile's windows
#else
  const uint staged_count = valid;
#endif
  for (uint w = first; w < last; ++w)
  {
    const uint n = count[w];
    start[w] = running;
    running += n;
    count[w] = n > 0 ? atomic_add(&cursors[w], n) : 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);

  for (uint k = 0; k < ITEMS; ++k)
  {
    if (k * WG + lid < valid && IN_TILE_WINDOWS(window[k]))
    {
      const uint place = start[window[k]] + rank[k];
      staged[place] = record[k];
      staged_window[place] = (ushort)window[k];
      if (with_extra)
        staged_extra[place] = extra[k];
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (uint t = lid; t < staged_count; t += WG)
  {
    const uint w = staged_window[t];
    const uint destination = count[w] + (t - start[w]);
    out[destination] = staged[t];
    if (with_extra)
      out_extra[destination] = staged_extra[t];
  }
}
