// GPU Mesh Quality's PointQuality: for every point, the minimum, maximum or mean of the values
// of the cells around it (its row of the cells-around-points VertexTable, read to its true
// length whatever table holds it). NaN values (cells of kinds without a measure) are left out;
// a point without a measured cell gets NaN.
//
// The mean adds the values as an unevaluated pair hi + lo (TwoSum), so the rounding errors are
// carried and the result is, but for ties, the correctly rounded sum over the count: it does
// not depend on the order of the cells in the row, which differs between a serial run and a
// process's ghosted piece.

// Contracting a*b+c into fma would change the rounding that the error term relies on.
#pragma OPENCL FP_CONTRACT OFF

#define POINT_MINIMUM 1
#define POINT_MAXIMUM 2
#define POINT_MEAN 3

__kernel void point_quality(const int point_count, __global const int* entries,
  __global const uint* rows, __global const int* degree, __global const REAL* cell_values,
  const int reduction, __global REAL* point_values)
{
  const int v = get_global_id(0);
  if (v >= point_count)
    return;
  const uint row = rows[v];
  const int n = degree[v];
  REAL lowest = INFINITY, highest = -INFINITY, hi = 0, lo = 0;
  int measured = 0;
  for (int k = 0; k < n; ++k)
  {
    const REAL q = cell_values[entries[row + k]];
    if (isnan(q))
      continue;
    ++measured;
    lowest = fmin(lowest, q);
    highest = fmax(highest, q);
    const REAL s = hi + q;
    const REAL t = s - hi;
    lo += (hi - (s - t)) + (q - t);
    hi = s;
  }
  REAL value = NAN;
  if (measured > 0)
  {
    if (reduction == POINT_MINIMUM)
      value = lowest;
    else if (reduction == POINT_MAXIMUM)
      value = highest;
    else
      value = (isfinite(hi) ? hi + lo : hi) / (REAL)measured;
  }
  point_values[v] = value;
}
