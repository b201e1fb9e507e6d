// Cell centroids (the mean of the vertices) and, per cell, the distances from its centroid to
// the centroids of the cells across its sides ("lien transverse" of GMlib v3).
//
// A centroid is kept as its cell's first point (the anchor) plus an offset from it: the
// distance between two nearby centroids is then (anchor_a - anchor_b) + (offset_a - offset_b),
// differences of nearby values that lose nothing to the distance from the mesh origin.

__kernel void centroid(CELL_ARGS, __global const REAL* points, __global int* anchors,
  __global REAL4* centroid_offsets)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  const REAL3 origin = point_at(points, v[0]);
  REAL3 sum = (REAL3)(0);
  for (int k = 1; k < n; ++k)
    sum += point_at(points, v[k]) - origin;
  anchors[cell_ids[i]] = v[0];
  centroid_offsets[cell_ids[i]] = (REAL4)(sum / (REAL)n, 0);
}

// The centroids as coordinates (3 per cell; NaN for cells without one).
__kernel void centroid_coordinates(__global const REAL* points, __global const int* anchors,
  __global const REAL4* offsets, const int cells, __global REAL* xyz)
{
  const int c = get_global_id(0);
  if (c >= cells)
    return;
  const int a = anchors[c];
  const REAL3 p = a < 0 ? (REAL3)(NAN) : point_at(points, a) + offsets[c].xyz;
  vstore3(p, c, xyz);
}

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
