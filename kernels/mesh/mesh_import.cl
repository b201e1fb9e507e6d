// Cells in VTK's layout (offsets + connectivity, 32- or 64-bit) classified on the device and
// gathered into one group per kind, with 32-bit ids (the points are checked in point_checks.cl,
// which needs no INDEX). See core/gpumesh/mesh/MeshView.h.
// INDEX (build option): int or long, the type of the section's offsets and point ids.
#ifndef INDEX
#define INDEX int
#endif
// UNIFORM_SIZE (build option): every cell has this many point ids, and the offsets argument is
// never read (core/gpumesh/mesh/UniformCellSize.h).
#ifdef UNIFORM_SIZE
#define offset_at(i) ((long)(i) * UNIFORM_SIZE)
#else
#define offset_at(i) ((long)offsets[(i)])
#endif

// SectionLayout values.
#define BY_TYPE_CODE 0
#define POLYGONS 1
#define LINES 2
#define STRIPS 3
// CellTypeTable entries.
#define LEFT_OUT 0xff
#define UNSUPPORTED 0xfe
#define RASTER_ORDER 0x100
// CellKind values and their vertex counts (core/gpumesh/mesh/CellKind.cxx).
#define KIND_COUNT 10
#define LINE 0
#define POLYLINE 1
#define TRIANGLE 2
#define TRIANGLE_STRIP 3
#define QUAD 4
#define POLYGON 5
__constant int fixed_vertices[KIND_COUNT] = { 2, -1, 3, -1, 4, -1, 4, 8, 6, 5 };
__constant int minimum_vertices[KIND_COUNT] = { 2, 2, 3, 3, 4, 3, 4, 8, 6, 5 };

// One work-item per cell: its kind (LEFT_OUT for cells that take part in nothing), counted per
// kind through a work-group histogram (one global atomic per group and kind). The smallest
// offending cell of each error is kept: first_bad[0] a type that is not handled, [1] a vertex
// count that does not fit the kind, [2] a point id outside the mesh.
__kernel void classify_cells(__global const INDEX* offsets, __global const INDEX* connectivity,
  __global const uchar* codes, __global const int* table, const int layout, const int count,
  const long point_count, const long id_count, __global uchar* kinds, __global uint* kind_counts,
  __global int* first_bad)
{
  __local uint local_counts[KIND_COUNT];
  const int lid = get_local_id(0);
  if (lid < KIND_COUNT)
    local_counts[lid] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int i = get_global_id(0);
  if (i < count)
  {
    const long begin = offset_at(i);
    const long end = offset_at(i + 1);
    // Offsets that decrease or leave the connectivity would read outside it: refused first.
    const int out_of_order = begin < 0 || end < begin || end > id_count;
    if (out_of_order)
      atomic_min(&first_bad[3], i);
    const int n = out_of_order ? 0 : (int)(end - begin);
    int entry;
    if (layout == BY_TYPE_CODE)
      entry = table[codes[i]];
    else if (layout == POLYGONS)
      entry = n == 3 ? TRIANGLE : n == 4 ? QUAD : POLYGON;
    else if (layout == LINES)
      entry = n == 2 ? LINE : POLYLINE;
    else
      entry = TRIANGLE_STRIP;
    const int kind = entry & 0xff;
    if (kind == UNSUPPORTED)
      atomic_min(&first_bad[0], i);
    if (kind >= KIND_COUNT || out_of_order)
      kinds[i] = LEFT_OUT;
    else
    {
      if ((fixed_vertices[kind] > 0 && n != fixed_vertices[kind]) || n < minimum_vertices[kind])
        atomic_min(&first_bad[1], i);
      for (long k = begin; k < begin + n; ++k)
      {
        const long id = (long)connectivity[k];
        if (id < 0 || id >= point_count)
        {
          atomic_min(&first_bad[2], i);
          break;
        }
      }
      kinds[i] = (uchar)(kind | ((entry & RASTER_ORDER) ? 0x80 : 0));
      atomic_inc(&local_counts[kind]);
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid < KIND_COUNT && local_counts[lid])
    atomic_add(&kind_counts[lid], local_counts[lid]);
}

// membership[i] = 1 when cell i is of `kind`; sizes[i] = its vertex count then (else 0).
__kernel void kind_membership(__global const INDEX* offsets, __global const uchar* kinds,
  const int kind, const int count, __global uint* membership, __global uint* sizes)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int member = (kinds[i] & 0x7f) == kind;
  membership[i] = member;
  sizes[i] = member ? (uint)(offset_at(i + 1) - offset_at(i)) : 0u;
}

// Copies the cells of `kind` into their group: 32-bit ids (pixels and voxels reordered into
// quads and hexahedra), cell ids, and for variable-size kinds the group's offsets.
__kernel void gather_kind(__global const INDEX* offsets, __global const INDEX* connectivity,
  __global const uchar* kinds, const int kind, const int count, const int first_cell_id,
  __global const uint* positions, __global const uint* size_offsets, const int group_count,
  __global int* group_connectivity, __global int* group_offsets, __global int* cell_ids)
{
  const int i = get_global_id(0);
  if (i >= count || (kinds[i] & 0x7f) != kind)
    return;
  const int raster = (kinds[i] & 0x80) != 0;
  const uint p = positions[i];
  const long begin = offset_at(i);
  const int n = (int)(offset_at(i + 1) - begin);
  const uint out = size_offsets[i];
  for (int k = 0; k < n; ++k)
  {
    const int from = raster && (k & 2) ? k ^ 1 : k; // 0 1 3 2 (4 5 7 6)
    group_connectivity[out + k] = (int)connectivity[begin + from];
  }
  if (fixed_vertices[kind] < 0)
  {
    group_offsets[p] = (int)out;
    if (p + 1 == (uint)group_count)
      group_offsets[p + 1] = (int)(out + n);
  }
  cell_ids[p] = first_cell_id + i;
}

// A section of one fixed-size kind: its ids as they are, narrowed to 32 bits.
__kernel void narrow_ids(__global const INDEX* connectivity, const ulong count, __global int* out)
{
  const size_t i = get_global_id(0);
  if (i < count)
    out[i] = (int)connectivity[i];
}

// Single precision on double points rounded to float relative to the mesh's centre: the
// smallest cell (of minimum_dimension or more) whose extent, the largest side of its bounding
// box, is below 2^-13 of its largest coordinate there. A candidate only: the host decides on
// the double points (DeviceMesh.cxx, rejectRoundedCells), so that a cell degenerate in the
// input is not taken for one lost to rounding.
__constant int kind_dimensions[KIND_COUNT] = { 1, 1, 2, 2, 2, 2, 3, 3, 3, 3 };
__kernel void find_rounded_cells(__global const INDEX* offsets, __global const INDEX* connectivity,
  __global const uchar* kinds, __global const REAL* points, const int count, const int minimum_dimension,
  __global int* first_candidate)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int kind = kinds[i] & 0x7f;
  if (kind >= KIND_COUNT || kind_dimensions[kind] < minimum_dimension)
    return;
  const long begin = offset_at(i);
  const long end = offset_at(i + 1);
  REAL3 lo = point_at(points, (int)connectivity[begin]);
  REAL3 hi = lo;
  for (long k = begin + 1; k < end; ++k)
  {
    const REAL3 p = point_at(points, (int)connectivity[k]);
    lo = fmin(lo, p);
    hi = fmax(hi, p);
  }
  const REAL3 size = hi - lo;
  const REAL3 far = fmax(fabs(lo), fabs(hi));
  if (fmax(size.x, fmax(size.y, size.z)) < fmax(far.x, fmax(far.y, far.z)) * (REAL)0x1p-13)
    atomic_min(first_candidate, i);
}
