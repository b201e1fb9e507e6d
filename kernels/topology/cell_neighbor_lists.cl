// Cell -> the cells across its sides, as one list per cell (offsets + ids), for the GPU Mesh
// Kernel's neighbour_* variables (core/gpumesh/topology/CellNeighborLists.h): the other cells of each of
// its sides' runs (core/gpumesh/topology/CellEntities.h), so a side shared by more than two cells gives
// all of them. Counted, then filled in the same order, so lists do not depend on the schedule.
__kernel void count_cell_neighbours(const int cells, __global const uint* slot_offsets,
  __global const int2* slot_run, __global const int* sorted_slots, __global const int* slot_cell,
  __global uint* counts)
{
  const int c = get_global_id(0);
  if (c >= cells)
    return;
  uint n = 0;
  for (uint slot = slot_offsets[c]; slot < slot_offsets[c + 1]; ++slot)
  {
    const int2 run = slot_run[slot];
    for (int k = run.x; k < run.x + run.y; ++k)
      n += slot_cell[sorted_slots[k]] != c;
  }
  counts[c] = n;
}

__kernel void fill_cell_neighbours(const int cells, __global const uint* slot_offsets,
  __global const int2* slot_run, __global const int* sorted_slots, __global const int* slot_cell,
  __global const uint* offsets, __global int* neighbours)
{
  const int c = get_global_id(0);
  if (c >= cells)
    return;
  uint at = offsets[c];
  for (uint slot = slot_offsets[c]; slot < slot_offsets[c + 1]; ++slot)
  {
    const int2 run = slot_run[slot];
    for (int k = run.x; k < run.x + run.y; ++k)
    {
      const int other = slot_cell[sorted_slots[k]];
      if (other != c)
        neighbours[at++] = other;
    }
  }
}
