// A list of points as bits, one per point of the mesh (included by boundary_edges.cl and
// cells_touching.cl).

// The listed points' bits set (atomic: points share words).
__kernel void flag_listed_points(__global const int* points, const int count, __global uint* bits)
{
  const int i = get_global_id(0);
  if (i < count)
    atomic_or(&bits[points[i] >> 5], 1u << (points[i] & 31));
}
