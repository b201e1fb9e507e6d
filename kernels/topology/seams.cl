// Unmerged duplicate points cut a mesh along a seam: each side of the seam becomes boundary,
// and its points coincide with the other side's. The boundary's points (of sides used by one
// cell: edges of triangles, faces of tetrahedra) are listed here; the host looks for two that
// coincide (gpumesh::rejectSeams).
#define NONE 0xffffffffu

// The vertices of every boundary side (slot_run y == 1), appended to a list of `capacity`
// entries. list_size counts every entry, also those beyond the capacity, so the caller can
// retry with enough room.
__kernel void boundary_points(__global const int2* slot_run, __global const int* slot_entity,
  __global const uint4* entity_vertices, const int slots, const int capacity, __global int* list,
  __global int* list_size)
{
  const int s = get_global_id(0);
  if (s >= slots || slot_run[s].y != 1)
    return;
  const uint4 v = entity_vertices[slot_entity[s]];
  const uint ids[4] = { v.x, v.y, v.z, v.w };
  const int n = v.w != NONE ? 4 : v.z != NONE ? 3 : 2;
  const int k = atomic_add(list_size, n);
  for (int j = 0; j < n; ++j)
    if (k + j < capacity)
      list[k + j] = (int)ids[j];
}

// The coordinates of the listed points (the seam check reads only these).
__kernel void gather_points(__global const REAL* points, __global const int* ids,
  const int count, __global REAL* out)
{
  const int i = get_global_id(0);
  if (i < count)
    vstore3(point_at(points, ids[i]), i, out);
}
