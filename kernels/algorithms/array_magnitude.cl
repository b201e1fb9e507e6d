// Euclidean norm of each tuple of a multi-component array (a NaN component gives NaN),
// computed as m * sqrt(sum (c / m)^2) with m the largest |c|, so that 1e30 or 1e-30 components
// give their true norm instead of infinity or 0.
__kernel void tuple_magnitude(__global const REAL* components, const int component_count,
  const ulong tuple_count, __global REAL* magnitude)
{
  const size_t i = get_global_id(0);
  if (i >= tuple_count)
    return;
  __global const REAL* tuple = components + i * (size_t)component_count;
  REAL largest = 0;
  int nan = 0;
  for (int c = 0; c < component_count; ++c)
  {
    largest = fmax(largest, fabs(tuple[c]));
    nan |= isnan(tuple[c]);
  }
  if (nan || largest == (REAL)0 || isinf(largest))
  {
    magnitude[i] = nan ? (REAL)NAN : largest;
    return;
  }
  REAL sum = 0;
  for (int c = 0; c < component_count; ++c)
  {
    const REAL r = tuple[c] / largest;
    sum += r * r;
  }
  magnitude[i] = largest * sqrt(sum);
}
