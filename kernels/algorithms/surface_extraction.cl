// The boundary faces of 3D cells (core/gpumesh/algorithms/SurfaceExtraction.h): the sides matched
// by core/gpumesh/topology/CellEntities.h whose run has one slot. Cell i's faces are its slots
// slot_offsets[cell] + f, f < rows, in its kind's face table (4 local vertices per face, -1
// padding triangles).

inline int is_boundary_face(__global const int2* slot_run, const int slot)
{
  return slot_run[slot].y == 1;
}

// How many boundary faces each cell of the group has (0 for cells at or beyond cell_limit, when
// it is not negative: ghosts whose faces only serve to match their neighbours').
__kernel void count_boundary_faces(CELL_ARGS, const int rows, __global const uint* slot_offsets,
  __global const int2* slot_run, const int cell_limit, __global uint* face_counts)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int cell = cell_ids[i];
  uint found = 0;
  if (cell_limit < 0 || cell < cell_limit)
  {
    const int first = (int)slot_offsets[cell];
    for (int f = 0; f < rows; ++f)
      found += is_boundary_face(slot_run, first + f);
  }
  face_counts[i] = found;
}

// Each cell's boundary faces from base + places[i] on: its id and the face's vertices in the
// cell's own order (outward), as count_boundary_faces counted them.
__kernel void write_boundary_faces(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, __global const int2* slot_run, __global const uint* places,
  const int base, __global int* face_cells, __global int4* face_vertices)
{
  const int i = get_global_id(0);
  if (i >= count || places[i + 1] == places[i])
    return;
  __global const int* v = connectivity + cell_start(i);
  const int cell = cell_ids[i];
  const int first = (int)slot_offsets[cell];
  int out = base + (int)places[i];
  for (int f = 0; f < rows; ++f)
  {
    if (!is_boundary_face(slot_run, first + f))
      continue;
    __global const int* corner = table + 4 * f;
    face_cells[out] = cell;
    face_vertices[out] = (int4)(v[corner[0]], v[corner[1]], v[corner[2]], corner[3] < 0 ? -1 : v[corner[3]]);
    ++out;
  }
}
