// The cells holding a listed point (core/gpumesh/topology/CellsTouching.h): under MPI, the cells
// of a piece around the points it shares with its neighbours.
#include "listed_points.cl"

// The group's cells holding at least one flagged point, appended in any order by their ids in
// the mesh (the caller sorts them): up to `capacity`; `found` counts them all.
__kernel void append_cells_touching(CELL_ARGS, __global const uint* bits, const int capacity,
  __global int* found, __global int* out_cells)
{
  const int c = get_global_id(0);
  if (c >= count)
    return;
  const size_t start = cell_start(c);
  const int n = cell_size(c);
  for (int k = 0; k < n; ++k)
  {
    const int p = connectivity[start + k];
    if ((bits[p >> 5] >> (p & 31)) & 1u)
    {
      const int at = atomic_inc(found);
      if (at < capacity)
        out_cells[at] = cell_ids[c];
      return;
    }
  }
}
