// GMlib-style vertex tables (see core/gpumesh/topology/VertexTable.h): per-vertex sets of ints built
// from (vertex, value) pairs. Rows are counted with integer atomics, placed by exclusive
// scans (fixed-width tables by row length, the overflow table at exact length), filled in
// any order, then sorted: the final contents never depend on the thread schedule.
//
// The pairs of VertexLinks come in the same program: every filter that builds a vertex table
// builds vertex links too, and one program compiles faster than two (NVIDIA's compiler, truly
// cold on an H200: 457 ms for both as one, 537 ms as two).
#include "vertex_links.cl"

__kernel void count_pairs(__global const int2* pairs, const int count, __global uint* row_counts)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int v = pairs[i].x;
  if (v >= 0)
    atomic_inc(&row_counts[v]);
}

// 1 for each vertex whose row length lies in [low, high]: scanned, it numbers a table's rows.
__kernel void select_rows(__global const uint* row_counts, const int vertices, const uint low,
  const uint high, __global uint* selected)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  const uint n = row_counts[v];
  selected[v] = n >= low && n <= high ? 1u : 0u;
}

// Row r of the table holds vertex row_vertex[r]. Fixed width: its row starts at base + r * width.
// Overflow (width 0): only the row's capacity is known here; place_overflow finishes.
__kernel void place_rows(__global const uint* row_counts, const int vertices, const uint low,
  const uint high, __global const uint* positions, const uint base, const uint width,
  __global int* row_vertex, __global uint* row_start, __global uint* capacity)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  const uint n = row_counts[v];
  if (n < low || n > high)
    return;
  const uint r = positions[v];
  row_vertex[r] = v;
  if (width)
    row_start[v] = base + r * width;
  else
    capacity[r] = n;
}

__kernel void place_overflow(__global const int* row_vertex, const int rows,
  __global const uint* offsets, const uint base, __global uint* row_start)
{
  const int r = get_global_id(0);
  if (r < rows)
    row_start[row_vertex[r]] = base + offsets[r];
}

// The order within a row depends on the schedule here; sort_rows removes that.
__kernel void fill_rows(__global const int2* pairs, const int count, __global const uint* row_start,
  __global uint* cursors, __global int* entries)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int2 p = pairs[i];
  if (p.x >= 0)
    entries[row_start[p.x] + atomic_inc(&cursors[p.x])] = p.y;
}

inline void sift_down(__global int* a, uint root, const uint end)
{
  for (uint child = 2 * root + 1; child < end; child = 2 * root + 1)
  {
    if (child + 1 < end && a[child] < a[child + 1])
      ++child;
    if (a[root] >= a[child])
      return;
    const int t = a[root];
    a[root] = a[child];
    a[child] = t;
    root = child;
  }
}

// One work-item per vertex: sorts its row ascending (insertion sort for the short rows of
// most vertices, heapsort for long ones so a vertex of degree 10^5 stays O(n log n)), keeps
// one copy of each value, pads the freed places with -1 and records the distinct count.
__kernel void sort_rows(__global const uint* row_start, __global const uint* row_counts,
  const int vertices, __global int* entries, __global int* degree)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  const uint n = row_counts[v];
  __global int* row = entries + row_start[v];
  if (n <= 32)
  {
    for (uint i = 1; i < n; ++i)
    {
      const int value = row[i];
      uint j = i;
      for (; j > 0 && row[j - 1] > value; --j)
        row[j] = row[j - 1];
      row[j] = value;
    }
  }
  else
  {
    for (uint start = n / 2; start-- > 0;)
      sift_down(row, start, n);
    for (uint end = n - 1; end > 0; --end)
    {
      const int t = row[0];
      row[0] = row[end];
      row[end] = t;
      sift_down(row, 0, end);
    }
  }
  uint m = 0;
  for (uint i = 0; i < n; ++i)
    if (m == 0 || row[i] != row[m - 1])
      row[m++] = row[i];
  for (uint i = m; i < n; ++i)
    row[i] = -1;
  degree[v] = (int)m;
}

// 1 for each vertex of more than `threshold` distinct values: scanned, it numbers the long rows.
__kernel void select_long_rows(__global const int* degree, const int vertices, const int threshold,
  __global uint* selected)
{
  const int v = get_global_id(0);
  if (v < vertices)
    selected[v] = degree[v] > threshold ? 1u : 0u;
}

__kernel void list_long_rows(__global const uint* selected, const int vertices, __global const uint* positions,
  __global int* long_rows)
{
  const int v = get_global_id(0);
  if (v < vertices && selected[v])
    long_rows[positions[v]] = v;
}

inline void sift_down_by_key(__global int* a, __global const uint* keys, uint root, const uint end)
{
  for (uint child = 2 * root + 1; child < end; child = 2 * root + 1)
  {
    if (child + 1 < end && keys[a[child]] < keys[a[child + 1]])
      ++child;
    if (keys[a[root]] >= keys[a[child]])
      return;
    const int t = a[root];
    a[root] = a[child];
    a[child] = t;
    root = child;
  }
}

// One work-item per vertex: its row's values ordered by keys[value] ascending (insertion sort
// for short rows, heapsort for long ones, as sort_rows).
__kernel void sort_rows_by_key(__global const uint* row_start, __global const int* degree,
  const int vertices, __global const uint* keys, __global int* entries)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  const uint n = (uint)degree[v];
  __global int* row = entries + row_start[v];
  if (n <= 32)
  {
    // Short rows: sorted in private memory, each key read once.
    int value[32];
    uint key[32];
    for (uint i = 0; i < n; ++i)
    {
      value[i] = row[i];
      key[i] = keys[value[i]];
    }
    for (uint i = 1; i < n; ++i)
    {
      const int v = value[i];
      const uint k = key[i];
      uint j = i;
      for (; j > 0 && key[j - 1] > k; --j)
      {
        value[j] = value[j - 1];
        key[j] = key[j - 1];
      }
      value[j] = v;
      key[j] = k;
    }
    for (uint i = 0; i < n; ++i)
      row[i] = value[i];
    return;
  }
  for (uint start = n / 2; start-- > 0;)
    sift_down_by_key(row, keys, start, n);
  for (uint end = n - 1; end > 0; --end)
  {
    const int t = row[0];
    row[0] = row[end];
    row[end] = t;
    sift_down_by_key(row, keys, 0, end);
  }
}
