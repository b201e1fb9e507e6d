// Statistics of a REAL array in one pass: minimum, maximum, sum and sum of absolute values (the
// L1 norm), each an unevaluated pair hi + lo (so rounding errors are carried, not lost), the
// count of non-zero values (the L0 "norm"), the L2 norm as a scaled sum of squares (as BLAS
// nrm2 keeps it: scale * sqrt(ssq), so no square leaves the range of the type), and the count
// of values that are not NaN. NaN values are skipped.
//
// Every element is read exactly once whatever the array length and the number of work-groups
// (a grid-stride loop, or contiguous chunks on CPUs), so no partial work-group is dropped.
// Each work-group writes one partial; the host combines the partials in double precision.
// Build options: WG (the work-group size, a power of two), CONTIGUOUS (1 on CPU devices),
// ACC_DOUBLE (1 where the device has fp64: sums and squares accumulate in double).

// Contracting a*b+c into fma would change the rounding that the error terms below rely on.
#pragma OPENCL FP_CONTRACT OFF

#if ACC_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double ACC;
typedef double2 ACC2;
typedef double4 ACC4;
typedef long4 MASK4; // what vector comparisons of ACC4 give: -1 for true
#else
typedef float ACC;
typedef float2 ACC2;
typedef float4 ACC4;
typedef int4 MASK4;
#endif

// hi + lo is each lane's sum; TwoSum (Knuth) keeps the rounding error of hi + x exactly.
inline void add_compensated(ACC4* hi, ACC4* lo, ACC4 x)
{
  const ACC4 s = *hi + x;
  const ACC4 v = s - *hi;
  *lo += (*hi - (s - v)) + (x - v);
  *hi = s;
}

inline ACC2 merge_compensated(ACC2 a, ACC2 b)
{
  const ACC s = a.x + b.x;
  const ACC v = s - a.x;
  return (ACC2)(s, a.y + b.y + ((a.x - (s - v)) + (b.x - v)));
}

// (scale, ssq) of two parts combined: the larger scale wins, the other ssq is rescaled.
inline ACC2 merge_norm(ACC2 a, ACC2 b)
{
  if (a.x < b.x)
  {
    const ACC2 t = a;
    a = b;
    b = t;
  }
  if (b.x == (ACC)0)
    return a;
  const ACC r = b.x == a.x ? (ACC)1 : b.x / a.x; // two infinite scales: 1, not inf / inf
  return (ACC2)(a.x, a.y + b.y * r * r);
}

inline REAL load_or_nan(__global const REAL* values, ulong i, ulong end)
{
  return i < end ? values[i] : (REAL)NAN; // NaN padding is skipped like any NaN
}

// Running statistics of one work-item, four lanes wide (four chains in flight, SIMD on CPUs).
typedef struct
{
  ACC4 lo, hi;
  ACC4 sum_hi, sum_lo;
  ACC4 abs_hi, abs_lo;
  ACC4 scale, ssq;
  ulong n;
  ulong nonzero;
} Accumulator;

inline void accumulate(Accumulator* a, REAL4 value)
{
#if ACC_DOUBLE && !REAL_DOUBLE
  const ACC4 x = convert_double4(value);
#else
  const ACC4 x = value;
#endif
  const ACC4 zero = (ACC4)(0);
  const MASK4 nan = isnan(x);
  a->lo = fmin(a->lo, x); // fmin/fmax ignore a NaN operand
  a->hi = fmax(a->hi, x);
  const ACC4 y = select(x, zero, nan);
  add_compensated(&a->sum_hi, &a->sum_lo, y);
  const ACC4 m = fabs(y);
  add_compensated(&a->abs_hi, &a->abs_lo, m); // no cancellation: only the rounding is carried
  const MASK4 nz = m != zero; // NaN became 0 above, so it is not counted
  a->nonzero += (ulong)(-(int)(nz.x + nz.y + nz.z + nz.w));
  // nrm2's update: a larger |y| becomes the scale and the old sum is rescaled to it; a smaller
  // one adds its square relative to the scale (nothing for 0, where scale may still be 0).
  const MASK4 up = m > a->scale;
  const ACC4 r_up = a->scale / m; // taken only where m > scale >= 0
  // Taken only where 0 < m <= scale; 1 where m == scale, so that a second infinity adds 1, not
  // inf / inf.
  const ACC4 r_in = select(m / a->scale, (ACC4)(1), m == a->scale);
  const ACC4 grown = (ACC4)(1) + a->ssq * r_up * r_up;
  const ACC4 added = a->ssq + select(r_in * r_in, zero, m == zero);
  a->ssq = select(added, grown, up);
  a->scale = select(a->scale, m, up);
  a->n += (ulong)(4 + (int)(nan.x + nan.y + nan.z + nan.w));
}

// Vector v of the array: whole, or the last partial one padded with NaN.
inline REAL4 load_vector(__global const REAL* values, ulong v, ulong vectors, ulong count)
{
  if (v < vectors)
    return vload4(v, values);
  const ulong i = 4 * v;
  return (REAL4)(load_or_nan(values, i, count), load_or_nan(values, i + 1, count),
    load_or_nan(values, i + 2, count), load_or_nan(values, i + 3, count));
}

__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void reduce_statistics(__global const REAL* values, const ulong count,
  __global ACC2* partial_min_max, __global ACC2* partial_sums, __global ACC2* partial_norms,
  __global ulong* partial_counts, __global ACC2* partial_abs_sums, __global ulong* partial_nonzeros)
{
  __local ACC local_min[WG];
  __local ACC local_max[WG];
  __local ACC2 local_sums[WG];  // (sum hi, sum lo)
  __local ACC2 local_norms[WG]; // (scale, ssq)
  __local ulong local_counts[WG];
  __local ACC2 local_abs_sums[WG]; // (sum hi, sum lo) of |x|
  __local ulong local_nonzeros[WG];

  Accumulator a;
  a.lo = (ACC4)(INFINITY);
  a.hi = (ACC4)(-INFINITY);
  a.sum_hi = a.sum_lo = a.abs_hi = a.abs_lo = a.scale = a.ssq = (ACC4)(0);
  a.n = 0;
  a.nonzero = 0;
  const ulong items = get_global_size(0);
#if CONTIGUOUS
  // CPU devices: each work-item walks its own contiguous chunk (cache lines stay local).
  const ulong chunk = (((count + items - 1) / items) + 3) & ~(ulong)3;
  const ulong first = get_global_id(0) * chunk;
  const ulong end = min(first + chunk, count);
  for (ulong i = first; i < end; i += 4)
  {
    accumulate(&a, (REAL4)(load_or_nan(values, i, end), load_or_nan(values, i + 1, end),
                     load_or_nan(values, i + 2, end), load_or_nan(values, i + 3, end)));
  }
#else
  // GPUs: neighbouring work-items read neighbouring vectors (coalesced, wide loads), two per
  // iteration so that more loads are in flight; vector index `vectors` is the partial last one.
  const ulong vectors = count / 4;
  for (ulong v = get_global_id(0); v <= vectors; v += 2 * items)
  {
    const REAL4 x0 = load_vector(values, v, vectors, count);
    const REAL4 x1 = v + items <= vectors ? load_vector(values, v + items, vectors, count) : (REAL4)(NAN);
    accumulate(&a, x0);
    accumulate(&a, x1);
  }
#endif
  const size_t lid = get_local_id(0);
  local_min[lid] = fmin(fmin(a.lo.x, a.lo.y), fmin(a.lo.z, a.lo.w));
  local_max[lid] = fmax(fmax(a.hi.x, a.hi.y), fmax(a.hi.z, a.hi.w));
  local_sums[lid] = merge_compensated(
    merge_compensated((ACC2)(a.sum_hi.x, a.sum_lo.x), (ACC2)(a.sum_hi.y, a.sum_lo.y)),
    merge_compensated((ACC2)(a.sum_hi.z, a.sum_lo.z), (ACC2)(a.sum_hi.w, a.sum_lo.w)));
  local_norms[lid] = merge_norm(merge_norm((ACC2)(a.scale.x, a.ssq.x), (ACC2)(a.scale.y, a.ssq.y)),
    merge_norm((ACC2)(a.scale.z, a.ssq.z), (ACC2)(a.scale.w, a.ssq.w)));
  local_counts[lid] = a.n;
  local_abs_sums[lid] = merge_compensated(
    merge_compensated((ACC2)(a.abs_hi.x, a.abs_lo.x), (ACC2)(a.abs_hi.y, a.abs_lo.y)),
    merge_compensated((ACC2)(a.abs_hi.z, a.abs_lo.z), (ACC2)(a.abs_hi.w, a.abs_lo.w)));
  local_nonzeros[lid] = a.nonzero;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = WG / 2; stride > 0; stride >>= 1)
  {
    if (lid < stride)
    {
      local_min[lid] = fmin(local_min[lid], local_min[lid + stride]);
      local_max[lid] = fmax(local_max[lid], local_max[lid + stride]);
      local_sums[lid] = merge_compensated(local_sums[lid], local_sums[lid + stride]);
      local_norms[lid] = merge_norm(local_norms[lid], local_norms[lid + stride]);
      local_counts[lid] += local_counts[lid + stride];
      local_abs_sums[lid] = merge_compensated(local_abs_sums[lid], local_abs_sums[lid + stride]);
      local_nonzeros[lid] += local_nonzeros[lid + stride];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
  {
    const size_t group = get_group_id(0);
    partial_min_max[group] = (ACC2)(local_min[0], local_max[0]);
    partial_sums[group] = local_sums[0];
    partial_norms[group] = local_norms[0];
    partial_counts[group] = local_counts[0];
    partial_abs_sums[group] = local_abs_sums[0];
    partial_nonzeros[group] = local_nonzeros[0];
  }
}
