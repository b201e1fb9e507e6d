// The cells holding a listed point (core/gpumesh/topology/CellsTouching.h): under MPI, the cells
// of a piece around the points it shares with its neighbours.
#include "listed_points.cl"

// 1 for each cell of the group holding at least one flagged point, else 0.
__kernel void flag_cells_touching(CELL_ARGS, __global const uint* bits, __global uint* flags)
{
  const int c = get_global_id(0);
  if (c >= count)
    return;
  const size_t start = cell_start(c);
  const int n = cell_size(c);
  uint touches = 0;
  for (int k = 0; k < n && !touches; ++k)
  {
    const int p = connectivity[start + k];
    touches = (bits[p >> 5] >> (p & 31)) & 1u;
  }
  flags[c] = touches;
}

// The flagged cells' ids in the mesh, in the group's order (places: the flags' exclusive sums).
__kernel void gather_flagged_cells(__global const uint* places, const int count, __global const int* cell_ids,
  __global int* out_cells)
{
  const int c = get_global_id(0);
  if (c < count && places[c + 1] != places[c])
    out_cells[places[c]] = cell_ids[c];
}
