// Cells that list a point more than once (a triangle (5, 5, 7), a quad (a, b, c, c)). One
// work-item per cell: found[0] receives the smallest id of such a cell (atomic_min, so the
// answer does not depend on the schedule), found[1] the repeated point of cell `named_cell`
// (a second launch names the cell the first one found; -1 names none).

inline int repeated_point(__global const int* v, const int n)
{
  for (int a = 1; a < n; ++a)
    for (int b = 0; b < a; ++b)
      if (v[a] == v[b])
        return v[a];
  return -1;
}

inline void report(const int cell, const int point, const int named_cell, __global int* found)
{
  if (point < 0)
    return;
  atomic_min(&found[0], cell);
  if (cell == named_cell)
    found[1] = point;
}

__kernel void repeated_points(CELL_ARGS, const int named_cell, __global int* found)
{
  const int i = get_global_id(0);
  if (i < count)
    report(cell_ids[i], repeated_point(connectivity + cell_start(i), cell_size(i)), named_cell, found);
}
