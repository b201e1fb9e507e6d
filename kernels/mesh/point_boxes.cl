// A mesh's points against boxes (core/gpumesh/mesh/PointBoxes.h): under MPI, a piece's box and
// its points that a neighbour's box holds, found on the device instead of by passes over the
// piece's points on the host. A box is 6 REALs: least x, greatest x, then y and z.

// Per work-group of WG work-items: the least and greatest of each coordinate over the points
// its work-items visit (a grid stride), as partial[6 * group + 2 * c] and [6 * group + 2 * c +
// 1]; +inf and -inf where it visits none.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void point_bounds(__global const REAL* points, const int count, __global REAL* partial)
{
  __local REAL lows[3 * WG];
  __local REAL highs[3 * WG];
  const int lid = get_local_id(0);
  REAL3 lo = (REAL3)(INFINITY);
  REAL3 hi = (REAL3)(-INFINITY);
  for (int i = get_global_id(0); i < count; i += get_global_size(0))
  {
    const REAL3 p = point_at(points, i);
    lo = fmin(lo, p);
    hi = fmax(hi, p);
  }
  lows[3 * lid] = lo.x;
  lows[3 * lid + 1] = lo.y;
  lows[3 * lid + 2] = lo.z;
  highs[3 * lid] = hi.x;
  highs[3 * lid + 1] = hi.y;
  highs[3 * lid + 2] = hi.z;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int stride = 1; stride < WG; stride *= 2)
  {
    if (lid % (2 * stride) == 0 && lid + stride < WG)
    {
      for (int c = 0; c < 3; ++c)
      {
        lows[3 * lid + c] = fmin(lows[3 * lid + c], lows[3 * (lid + stride) + c]);
        highs[3 * lid + c] = fmax(highs[3 * lid + c], highs[3 * (lid + stride) + c]);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
  {
    for (int c = 0; c < 3; ++c)
    {
      partial[6 * get_group_id(0) + 2 * c] = lows[c];
      partial[6 * get_group_id(0) + 2 * c + 1] = highs[c];
    }
  }
}

// 1 for each point inside (borders included) at least one of the `box_count` boxes, else 0.
__kernel void flag_points_in_boxes(__global const REAL* points, const int count, __global const REAL* boxes,
  const int box_count, __global uint* flags)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const REAL3 p = point_at(points, i);
  uint inside = 0;
  for (int b = 0; b < box_count && !inside; ++b)
  {
    __global const REAL* box = boxes + 6 * b;
    inside = box[0] <= p.x && p.x <= box[1] && box[2] <= p.y && p.y <= box[3] && box[4] <= p.z && p.z <= box[5];
  }
  flags[i] = inside;
}

// The flagged points' ids in order (places: the flags' exclusive sums).
__kernel void gather_flagged_points(__global const uint* places, const int count, __global int* out_points)
{
  const int i = get_global_id(0);
  if (i < count && places[i + 1] != places[i])
    out_points[places[i]] = i;
}
