// Marks from a cell array: a cell is marked when its value (the magnitude of its tuple) is
// greater than the threshold; NaN never marks. Build options: VALUE, the array's type, and
// COMPARE_DOUBLE (1 where the device has fp64: values and threshold compared in double).
#if COMPARE_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double COMPARE;
#else
typedef float COMPARE;
#endif

__kernel void mark_flags(__global const VALUE* values, const int components, const int tuples,
  const COMPARE threshold, __global uint* flags)
{
  const int i = get_global_id(0);
  if (i >= tuples)
    return;
  __global const VALUE* tuple = values + (size_t)i * components;
  COMPARE value;
  if (components == 1)
    value = (COMPARE)tuple[0];
  else
  {
    // Scaled by the largest component, so no square leaves the range of COMPARE.
    COMPARE largest = 0, sum = 0;
    for (int c = 0; c < components; ++c)
      largest = fmax(largest, fabs((COMPARE)tuple[c]));
    for (int c = 0; c < components; ++c)
    {
      const COMPARE r = largest > 0 ? (COMPARE)tuple[c] / largest : 0;
      sum += r * r;
    }
    value = largest * sqrt(sum);
    for (int c = 0; c < components; ++c)
      value = isnan((COMPARE)tuple[c]) ? (COMPARE)NAN : value;
  }
  flags[i] = value > threshold; // false for NaN
}

// The marked cells in increasing order, from the prefix sums of the flags.
__kernel void compact_marks(__global const uint* flags, __global const uint* positions,
  const int tuples, __global int* marked)
{
  const int i = get_global_id(0);
  if (i < tuples && flags[i])
    marked[positions[i]] = i;
}
