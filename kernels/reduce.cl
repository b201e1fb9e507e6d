// Statistics of a float array in one pass: minimum, maximum, sum and sum of squares (each kept
// as an unevaluated float pair hi + lo, so rounding errors are carried, not lost) and the count
// of values that are not NaN. NaN values are skipped.
//
// Every element is read exactly once whatever the array length and the number of work-groups
// (a grid-stride loop, or contiguous chunks on CPUs), so no partial work-group is dropped. Each work-group writes one partial;
// the host adds the partials in double precision. WG (the work-group size, a power of two) and
// CONTIGUOUS (1 on CPU devices) are set at build time.

// Contracting a*b+c into fma would change the rounding that the error terms below rely on.
#pragma OPENCL FP_CONTRACT OFF

// Four independent lanes per work-item: four dependency chains in flight, SIMD on CPUs.
// hi + lo is each lane's sum; TwoSum (Knuth) keeps the rounding error of hi + x exactly.
inline void add_compensated(float4* hi, float4* lo, float4 x)
{
  const float4 s = *hi + x;
  const float4 v = s - *hi;
  *lo += (*hi - (s - v)) + (x - v);
  *hi = s;
}

inline float2 merge_compensated(float2 a, float2 b)
{
  const float s = a.x + b.x;
  const float v = s - a.x;
  return (float2)(s, a.y + b.y + ((a.x - (s - v)) + (b.x - v)));
}

inline float load_or_nan(__global const float* values, ulong i, ulong end)
{
  return i < end ? values[i] : NAN; // NaN padding is skipped like any NaN
}

// Running statistics of one work-item, four lanes wide.
typedef struct
{
  float4 lo, hi;
  float4 sum_hi, sum_lo, sq_hi, sq_lo;
  ulong n;
} Accumulator;

inline void accumulate(Accumulator* a, float4 x)
{
  const int4 valid = isnan(x) + 1; // isnan gives -1 for true on vectors
  a->lo = fmin(a->lo, x);          // fmin/fmax ignore a NaN operand
  a->hi = fmax(a->hi, x);
  const float4 y = select(x, (float4)(0.0f), isnan(x));
  add_compensated(&a->sum_hi, &a->sum_lo, y);
  const float4 square = y * y;
  add_compensated(&a->sq_hi, &a->sq_lo, square);
  a->sq_lo += fma(y, y, -square); // the exact rounding error of the product
  a->n += (ulong)(valid.x + valid.y + valid.z + valid.w);
}

// Vector v of the array: whole, or the last partial one padded with NaN.
inline float4 load_vector(__global const float* values, ulong v, ulong vectors, ulong count)
{
  if (v < vectors)
    return ((__global const float4*)values)[v];
  const ulong i = 4 * v;
  return (float4)(load_or_nan(values, i, count), load_or_nan(values, i + 1, count),
    load_or_nan(values, i + 2, count), load_or_nan(values, i + 3, count));
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_statistics(__global const float* values, const ulong count,
  __global float2* partial_min_max, __global float4* partial_sums, __global ulong* partial_counts)
{
  __local float local_min[WG];
  __local float local_max[WG];
  __local float4 local_sums[WG]; // (sum hi, sum lo, squares hi, squares lo)
  __local ulong local_counts[WG];

  Accumulator a;
  a.lo = (float4)(INFINITY);
  a.hi = (float4)(-INFINITY);
  a.sum_hi = a.sum_lo = a.sq_hi = a.sq_lo = (float4)(0.0f);
  a.n = 0;
  const ulong items = get_global_size(0);
#if CONTIGUOUS
  // CPU devices: each work-item walks its own contiguous chunk (cache lines stay local).
  const ulong chunk = (((count + items - 1) / items) + 3) & ~(ulong)3;
  const ulong first = get_global_id(0) * chunk;
  const ulong end = min(first + chunk, count);
  for (ulong i = first; i < end; i += 4)
  {
    accumulate(&a, (float4)(load_or_nan(values, i, end), load_or_nan(values, i + 1, end),
                     load_or_nan(values, i + 2, end), load_or_nan(values, i + 3, end)));
  }
#else
  // GPUs: neighbouring work-items read neighbouring 16-byte vectors (coalesced, wide loads),
  // two per iteration so that more loads are in flight; vector index `vectors` is the
  // partial last one.
  const ulong vectors = count / 4;
  for (ulong v = get_global_id(0); v <= vectors; v += 2 * items)
  {
    const float4 x0 = load_vector(values, v, vectors, count);
    const float4 x1 = v + items <= vectors ? load_vector(values, v + items, vectors, count) : (float4)(NAN);
    accumulate(&a, x0);
    accumulate(&a, x1);
  }
#endif
  const float4 lo = a.lo, hi = a.hi;
  const float4 sum_hi = a.sum_hi, sum_lo = a.sum_lo, sq_hi = a.sq_hi, sq_lo = a.sq_lo;
  const ulong n = a.n;

  const size_t lid = get_local_id(0);
  local_min[lid] = fmin(fmin(lo.x, lo.y), fmin(lo.z, lo.w));
  local_max[lid] = fmax(fmax(hi.x, hi.y), fmax(hi.z, hi.w));
  const float2 sum = merge_compensated(merge_compensated((float2)(sum_hi.x, sum_lo.x), (float2)(sum_hi.y, sum_lo.y)),
    merge_compensated((float2)(sum_hi.z, sum_lo.z), (float2)(sum_hi.w, sum_lo.w)));
  const float2 squares = merge_compensated(merge_compensated((float2)(sq_hi.x, sq_lo.x), (float2)(sq_hi.y, sq_lo.y)),
    merge_compensated((float2)(sq_hi.z, sq_lo.z), (float2)(sq_hi.w, sq_lo.w)));
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
