// Per cell, the distances from its centroid (kernels/mesh/centroids.cl: an anchor point plus an
// offset) to the centroids of the cells across its sides ("lien transverse" of GMlib v3).

// One work-item per cell: every other cell of every side's run is a neighbour (two cells on a
// manifold side, all of them on a non-manifold one). A cell with no neighbour gets NaN
// distances and a count of 0.
__kernel void neighbor_distance(__global const REAL* points, __global const int* anchors,
  __global const REAL4* offsets, const int cells, __global const uint* slot_offsets,
  __global const int2* slot_run, __global const int* sorted_slots, __global const int* slot_cell,
  __global REAL* minimum, __global REAL* maximum, __global REAL* mean, __global int* neighbor_count)
{
  const int c = get_global_id(0);
  if (c >= cells)
    return;
  const REAL3 anchor = anchors[c] < 0 ? (REAL3)(0) : point_at(points, anchors[c]);
  const REAL3 here = offsets[c].xyz;
  REAL lo = INFINITY, hi = -INFINITY, sum = 0;
  int n = 0;
  for (uint slot = slot_offsets[c]; slot < slot_offsets[c + 1]; ++slot)
  {
    const int2 run = slot_run[slot];
    for (int k = run.x; k < run.x + run.y; ++k)
    {
      const int other = slot_cell[sorted_slots[k]];
      if (other == c)
        continue;
      const REAL3 between = (point_at(points, anchors[other]) - anchor) + (offsets[other].xyz - here);
      const REAL d = length(between);
      lo = fmin(lo, d);
      hi = fmax(hi, d);
      sum += d;
      ++n;
    }
  }
  minimum[c] = n ? lo : (REAL)NAN;
  maximum[c] = n ? hi : (REAL)NAN;
  mean[c] = n ? sum / (REAL)n : (REAL)NAN;
  neighbor_count[c] = n;
}
