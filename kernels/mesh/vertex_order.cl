// Renumbering of points (and cells) for locality (core/gpumesh/mesh/VertexOrder.h): keys of the
// points' cells on a grid over their bounding box (a Morton curve over blocks, rows inside),
// sorted by the device radix sort, give `order` (new id -> old id) and `new_ids` (old id ->
// new id); the kernels below measure how scattered a numbering is, carry per-vertex data and
// cells over to the new numbering and bring results back.

// Work-item c's share of the points' bounding box: lo.xyz in bounds[2 * c], hi.xyz in
// bounds[2 * c + 1], over the points c, c + workers, c + 2 workers... (neighbouring
// work-items read neighbouring points). The host combines the shares.
__kernel void partial_bounds(__global const REAL* points, const int count, const int workers,
  __global REAL4* bounds)
{
  const int c = get_global_id(0);
  if (c >= workers || c >= count)
    return;
  REAL3 lo = point_at(points, c);
  REAL3 hi = lo;
  for (int i = c + workers; i < count; i += workers)
  {
    const REAL3 p = point_at(points, i);
    lo = fmin(lo, p);
    hi = fmax(hi, p);
  }
  bounds[2 * c] = (REAL4)(lo, 0);
  bounds[2 * c + 1] = (REAL4)(hi, 0);
}

// Point i's key on a grid of 2^bits cells per axis over the bounding box (scale: cells per
// unit length), made of the axes with an extent (scale > 0) only: the bits above row_bits
// interleaved (a Morton curve over blocks of 2^row_bits cells per axis), then each axis's low
// row_bits bits, z, y, x (rows inside a block); and the value i it is sorted with. A flat mesh
// thus sorts 2 x bits bits, not 3 x bits.
__kernel void grid_keys(__global const REAL* points, const int count, const REAL lo_x,
  const REAL lo_y, const REAL lo_z, const REAL scale_x, const REAL scale_y, const REAL scale_z,
  const int bits, const int row_bits, __global ulong* keys, __global uint* values)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const REAL3 p = point_at(points, i);
  const REAL3 scale = (REAL3)(scale_x, scale_y, scale_z);
  const REAL top = (REAL)((1u << bits) - 1u);
  const REAL3 cell = fmin(fmax((p - (REAL3)(lo_x, lo_y, lo_z)) * scale, (REAL3)(0)), (REAL3)(top));
  const uint x = (uint)cell.x, y = (uint)cell.y, z = (uint)cell.z;
  ulong key = 0;
  for (int b = bits - 1; b >= row_bits; --b)
  {
    if (scale.x > 0)
      key = key << 1 | ((x >> b) & 1u);
    if (scale.y > 0)
      key = key << 1 | ((y >> b) & 1u);
    if (scale.z > 0)
      key = key << 1 | ((z >> b) & 1u);
  }
  const uint mask = (1u << row_bits) - 1u;
  if (scale.z > 0)
    key = key << row_bits | (z & mask);
  if (scale.y > 0)
    key = key << row_bits | (y & mask);
  if (scale.x > 0)
    key = key << row_bits | (x & mask);
  keys[i] = key;
  values[i] = (uint)i;
}

// new_ids[order[i]] = i.
__kernel void invert_order(__global const uint* order, const int count, __global int* new_ids)
{
  const int i = get_global_id(0);
  if (i < count)
    new_ids[order[i]] = i;
}

// How scattered a numbering is: 1 for each cell of the group whose point ids span more than
// `window` ids, else 0, at far[first + i].
__kernel void far_cells(CELL_ARGS, const int window, const uint first, __global uint* far)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  int low = v[0];
  int high = v[0];
  for (int k = 1; k < n; ++k)
  {
    low = min(low, v[k]);
    high = max(high, v[k]);
  }
  far[first + i] = high - low > window ? 1u : 0u;
}

// out[i] = in[order[i]]: per-vertex data into the new numbering.
__kernel void gather_uchar(__global const uint* order, __global const uchar* in, const int count,
  __global uchar* out)
{
  const int i = get_global_id(0);
  if (i < count)
    out[i] = in[order[i]];
}

__kernel void gather_real4(__global const uint* order, __global const REAL4* in, const int count,
  __global REAL4* out)
{
  const int i = get_global_id(0);
  if (i < count)
    out[i] = in[order[i]];
}

__kernel void gather_points(__global const uint* order, __global const REAL* in, const int count,
  __global REAL* out)
{
  const int i = get_global_id(0);
  if (i < count)
    vstore3(point_at(in, order[i]), i, out);
}

// out[order[i]] = in[i]: results back to the old numbering.
__kernel void scatter_real4(__global const uint* order, __global const REAL4* in, const int count,
  __global REAL4* out)
{
  const int i = get_global_id(0);
  if (i < count)
    out[order[i]] = in[i];
}

// Cells of one group: the sort key of cell i is the new id of its first point, so cells follow
// the points' order.
__kernel void cell_keys(CELL_ARGS, __global const int* new_ids, __global ulong* keys,
  __global uint* values)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  keys[i] = (ulong)new_ids[connectivity[cell_start(i)]];
  values[i] = (uint)i;
}

// Cell r of the renumbered group is cell order[r] of the old one: its size (scanned into the
// new offsets), and its new id first + r, recorded by its old id and the other way round.
__kernel void place_cells(CELL_ARGS, __global const uint* order, const int first,
  __global uint* sizes, __global int* new_cell_ids, __global uint* old_cell_ids)
{
  const int r = get_global_id(0);
  if (r >= count)
    return;
  const int old = order[r];
  sizes[r] = (uint)cell_size(old);
  new_cell_ids[cell_ids[old]] = first + r;
  old_cell_ids[first + r] = (uint)cell_ids[old];
}

// ... and its points, by their new ids; for a kind of variable size, its offset as an int
// (new_int_offsets, count + 1 of them; not written for a fixed-size kind).
__kernel void permute_cells(CELL_ARGS, __global const uint* order, __global const uint* new_offsets,
  __global const int* new_ids, __global int* new_connectivity, __global int* new_int_offsets)
{
  const int r = get_global_id(0);
  if (r >= count)
    return;
  const int old = order[r];
  if (!cells_fixed)
  {
    new_int_offsets[r] = (int)new_offsets[r];
    if (r == count - 1)
      new_int_offsets[count] = (int)new_offsets[count];
  }
  __global const int* from = connectivity + cell_start(old);
  __global int* to = new_connectivity + new_offsets[r];
  const int n = cell_size(old);
  for (int k = 0; k < n; ++k)
    to[k] = new_ids[from[k]];
}
