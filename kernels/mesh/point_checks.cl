// The points of a mesh checked on the device as they arrive. A file of its own: the cells'
// kernels (mesh_import.cl) are built once per index type, this one once per precision.

// The smallest point with a NaN or infinite coordinate.
__kernel void check_points(__global const REAL* points, const int count, __global int* first_bad)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const REAL3 p = point_at(points, i);
  if (!isfinite(p.x) || !isfinite(p.y) || !isfinite(p.z))
    atomic_min(first_bad, i);
}
