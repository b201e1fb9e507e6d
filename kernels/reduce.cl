// Statistics of a float array in one pass: minimum, maximum, sum and sum of squares (each kept
// as an unevaluated float pair hi + lo, so rounding errors are carried, not lost) and the count
// of values that are not NaN. NaN values are skipped.
//
// A grid-stride loop reads every element exactly once whatever the array length and the number
// of work-groups, so no partial work-group is ever dropped. Each work-group writes one partial;
// the host adds the partials in double precision. WG (the work-group size, a power of two) is
// set at build time.

// Contracting a*b+c into fma would change the rounding that the error terms below rely on.
#pragma OPENCL FP_CONTRACT OFF

// acc.x + acc.y + x, keeping the rounding error of acc.x + x exactly (Knuth's TwoSum).
inline float2 add_compensated(float2 acc, float x)
{
  const float s = acc.x + x;
  const float v = s - acc.x;
  const float error = (acc.x - (s - v)) + (x - v);
  return (float2)(s, acc.y + error);
}

inline float2 merge_compensated(float2 a, float2 b)
{
  float2 r = add_compensated(a, b.x);
  r.y += b.y;
  return r;
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_statistics(__global const float* values, const ulong count,
  __global float2* partial_min_max, __global float4* partial_sums, __global ulong* partial_counts)
{
  __local float local_min[WG];
  __local float local_max[WG];
  __local float4 local_sums[WG]; // (sum hi, sum lo, squares hi, squares lo)
  __local ulong local_counts[WG];

  float lo = INFINITY;
  float hi = -INFINITY;
  float2 sum = (float2)(0.0f, 0.0f);
  float2 squares = (float2)(0.0f, 0.0f);
  ulong n = 0;
  for (ulong i = get_global_id(0); i < count; i += get_global_size(0))
  {
    const float x = values[i];
    if (!isnan(x))
    {
      lo = fmin(lo, x);
      hi = fmax(hi, x);
      sum = add_compensated(sum, x);
      const float square = x * x;
      squares = add_compensated(squares, square);
      squares.y += fma(x, x, -square); // the exact rounding error of the product
      ++n;
    }
  }

  const size_t lid = get_local_id(0);
  local_min[lid] = lo;
  local_max[lid] = hi;
  local_sums[lid] = (float4)(sum, squares);
  local_counts[lid] = n;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = WG / 2; stride > 0; stride >>= 1)
  {
    if (lid < stride)
    {
      local_min[lid] = fmin(local_min[lid], local_min[lid + stride]);
      local_max[lid] = fmax(local_max[lid], local_max[lid + stride]);
      const float4 a = local_sums[lid];
      const float4 b = local_sums[lid + stride];
      local_sums[lid] = (float4)(merge_compensated(a.xy, b.xy), merge_compensated(a.zw, b.zw));
      local_counts[lid] += local_counts[lid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
  {
    const size_t group = get_group_id(0);
    partial_min_max[group] = (float2)(local_min[0], local_max[0]);
    partial_sums[group] = local_sums[0];
    partial_counts[group] = local_counts[0];
  }
}
