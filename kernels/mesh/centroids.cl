// Cell centroids: the mean of each cell's vertices.
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
