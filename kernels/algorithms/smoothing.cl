// Jacobi vertex smoothing (core/gpumesh/algorithms/Smoothing.h). The state is each vertex's displacement
// d from its input position x0 (REAL4 per vertex), so a small move of a point far from the
// mesh origin is not lost to rounding: x = x0 + d. A step reads the previous iterate `in` and
// writes `out`: d_v += factor * mean over the row's sources s of (s - x_v). The sources are
// the neighbour vertices (umbrella operator) or, with CELL_SOURCES, the barycentres of the
// vertex's cells. So that a step reads only the sources' current values, the mean splits into
// a part fixed by the input positions, found once per vertex (source_offsets, into fixed_part:
// the mean of x0_s - x0_v, or of the cell's input barycentre - x0_v, as its anchor point (first
// point) minus x0_v plus the barycentre's offset from the anchor), and the mean of the
// sources' state: mean(s - x_v) = fixed_part_v + mean(d_s) - d_v, where a barycentre's state is
// the mean displacement of its cell's points (the per-cell scatter writes it at every step:
// 3 to 8 reads and one write, GMlib's bytes). Every term is a difference of nearby values. Rows
// are sorted (by the input's ids, also when the smoother renumbers the mesh:
// VertexTable::sortRowsBy), so each vertex sums in one fixed order: results are identical run
// to run, renumbered or not. A vertex whose role differs from `role` is not written; it keeps,
// in both ping-pong buffers, its displacement.
//
// One work-item per vertex: its row of sources is entries[row_start[v] ...], degree[v] of them
// (core/gpumesh/topology/VertexTable.h). A long row (degree above long_row, listed in the table's
// long_rows) is left to the *_long kernels, one work-group per row, so that a hub costs what
// its entries cost rather than one work-item's walk over all of them. Build option:
// CELL_SOURCES: 0 (vertices), 1 (cells, their state written by the per-cell scatter) or 2
// (cells, their state computed in the gather).
#ifndef CELL_SOURCES
#define CELL_SOURCES 0
#endif

// Vertex roles (VertexRole in core/gpumesh/algorithms/Smoothing.h).
#define PINNED 0
#define ON_BOUNDARY 1
#define INTERIOR 2
#define NONE_ID 0xffffffffu

// Where source s sits in the input relative to x0 (a cell's: its input barycentre), and its
// state at this step.
#if CELL_SOURCES
#define ANCHOR_ARGUMENTS , __global const int *anchors, __global const REAL4 *barycentre_offsets
#define ANCHORS , anchors, barycentre_offsets
inline REAL3 source_position_from(__global const REAL* points, int s, REAL3 x0, __global const int* anchors,
  __global const REAL4* barycentre_offsets)
{
  return (point_at(points, anchors[s]) - x0) + barycentre_offsets[s].xyz;
}
#else
#define ANCHOR_ARGUMENTS
#define ANCHORS
inline REAL3 source_position_from(__global const REAL* points, int s, REAL3 x0)
{
  return point_at(points, s) - x0;
}
#endif

#if CELL_SOURCES == 1
#define STATE_ARGUMENTS , __global const REAL4 *sources
#define STATE , sources
inline REAL3 source_state(__global const REAL4* in, int s, __global const REAL4* sources)
{
  return sources[s].xyz;
}
#elif CELL_SOURCES == 2
// A cell's state found where it is read, from its points' displacements as the per-cell scatter
// (barycentre, below) sums them: when one fixed-size 2D kind fills the mesh (PER_CELL, cell s's
// ids at s * PER_CELL), the gather reads the cells' ids and its neighbours' displacements,
// which neighbouring vertices share in cache, instead of a barycentre written and read back
// per cell at every step. The same values up to the rounding of the division, which a
// compiler may contract into the row's sum.
#define STATE_ARGUMENTS , __global const int *cell_points
#define STATE , cell_points
inline REAL3 source_state(__global const REAL4* in, int s, __global const int* cell_points)
{
  __global const int* v = cell_points + (size_t)s * PER_CELL;
  REAL3 sum = (REAL3)(0);
  for (int k = 0; k < PER_CELL; ++k)
    sum += in[v[k]].xyz;
  return sum / (REAL)PER_CELL;
}
#else
#define STATE_ARGUMENTS
#define STATE
inline REAL3 source_state(__global const REAL4* in, int s)
{
  return in[s].xyz;
}
#endif

// WEIGHTED (the rows of non-manifold vertices with NonManifoldSmoothing, as vtkWindowedSinc-
// PolyDataFilter weights them): entry e of the table counts weights[e] times (the faces of the
// edge to that neighbour). Unweighted, every entry counts once: w is the constant 1, and the
// sums are those of the plain mean, bit for bit.
#if WEIGHTED
#define WEIGHT_ARGUMENTS , __global const int *weights
#define ENTRY_WEIGHT(e) ((REAL)weights[(e)])
#else
#define WEIGHT_ARGUMENTS
#define ENTRY_WEIGHT(e) ((REAL)1)
#endif

#define ROW_TABLE                                                                              \
  __global const int *entries, __global const uint *row_start, __global const int *degree,     \
    const int vertices, const int long_row

// Whether work-item v has a row to sum: a vertex of `role`, of 1 to long_row sources.
#define ORDINARY_ROW(v) ((v) < vertices && roles[v] == role && degree[v] > 0 && degree[v] <= long_row)

// Once per vertex of `role`: the mean over its row of (source position - x0_v).
__kernel void source_offsets(__global const REAL* points, ROW_TABLE, __global const int* roles,
  const int role, __global REAL4* fixed_part ANCHOR_ARGUMENTS WEIGHT_ARGUMENTS)
{
  const int v = get_global_id(0);
  if (!ORDINARY_ROW(v))
    return;
  __global const int* row = entries + row_start[v];
  const int n = degree[v];
  const REAL3 x0 = point_at(points, v);
  REAL3 sum = (REAL3)(0);
  REAL total = 0;
  for (int k = 0; k < n; ++k)
  {
    const REAL w = ENTRY_WEIGHT(row_start[v] + k);
    sum += w * source_position_from(points, row[k], x0 ANCHORS);
    total += w;
  }
  fixed_part[v] = (REAL4)(sum / total, 0);
}

// Per step: in, out, factor; the rest is bound once. A vertex without sources keeps its state.
__kernel void relax(__global const REAL4* in, __global REAL4* out, const REAL factor, ROW_TABLE,
  __global const int* roles, const int role, __global const REAL4* fixed_part STATE_ARGUMENTS WEIGHT_ARGUMENTS)
{
  const int v = get_global_id(0);
  if (!ORDINARY_ROW(v))
    return;
  __global const int* row = entries + row_start[v];
  const int n = degree[v];
  REAL3 sum = (REAL3)(0);
  REAL total = 0;
  for (int k = 0; k < n; ++k)
  {
    const REAL w = ENTRY_WEIGHT(row_start[v] + k);
    sum += w * source_state(in, row[k] STATE);
    total += w;
  }
  const REAL3 d = in[v].xyz;
  out[v] = (REAL4)(d + factor * (fixed_part[v].xyz + (sum / total - d)), 0);
}

// Long rows: one work-group per row of long_rows (the table's), of any power-of-two size with
// `partial` one REAL4 per work-item. Work-item l adds entries l, l + size, l + 2 size... in
// order, then a fixed tree in local memory adds the partial sums: the same order at every run,
// without atomics. Every work-item returns the row's sum.
#define LONG_ROW_TABLE                                                                         \
  __global const int *entries, __global const uint *row_start, __global const int *degree,     \
    __global const int *long_rows

// The work-group's sum of its work-items' `own` (the row's sum in xyz, its total weight in w).
inline REAL4 work_group_sum(REAL4 own, __local REAL4* partial)
{
  const int l = get_local_id(0);
  partial[l] = own;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int width = get_local_size(0) / 2; width > 0; width /= 2)
  {
    if (l < width)
      partial[l] += partial[l + width];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return partial[0];
}

__kernel void source_offsets_long(__global const REAL* points, LONG_ROW_TABLE, __global const int* roles,
  const int role, __global REAL4* fixed_part, __local REAL4* partial ANCHOR_ARGUMENTS WEIGHT_ARGUMENTS)
{
  const int v = long_rows[get_group_id(0)];
  if (roles[v] != role) // the whole work-group leaves, before any barrier
    return;
  __global const int* row = entries + row_start[v];
  const int n = degree[v];
  const REAL3 x0 = point_at(points, v);
  REAL4 sum = (REAL4)(0);
  for (int k = get_local_id(0); k < n; k += get_local_size(0))
  {
    const REAL w = ENTRY_WEIGHT(row_start[v] + k);
    sum += (REAL4)(w * source_position_from(points, row[k], x0 ANCHORS), w);
  }
  sum = work_group_sum(sum, partial);
  if (get_local_id(0) == 0)
    fixed_part[v] = (REAL4)(sum.xyz / sum.w, 0);
}

__kernel void relax_long(__global const REAL4* in, __global REAL4* out, const REAL factor, LONG_ROW_TABLE,
  __global const int* roles, const int role, __global const REAL4* fixed_part,
  __local REAL4* partial STATE_ARGUMENTS WEIGHT_ARGUMENTS)
{
  const int v = long_rows[get_group_id(0)];
  if (roles[v] != role)
    return;
  __global const int* row = entries + row_start[v];
  const int n = degree[v];
  REAL4 sum = (REAL4)(0);
  for (int k = get_local_id(0); k < n; k += get_local_size(0))
  {
    const REAL w = ENTRY_WEIGHT(row_start[v] + k);
    sum += (REAL4)(w * source_state(in, row[k] STATE), w);
  }
  sum = work_group_sum(sum, partial);
  if (get_local_id(0) == 0)
  {
    const REAL3 d = in[v].xyz;
    out[v] = (REAL4)(d + factor * (fixed_part[v].xyz + (sum.xyz / sum.w - d)), 0);
  }
}

// The scatter half of barycentric smoothing: each cell's state, the mean displacement of its
// points (its input barycentre is in the vertices' fixed parts).
// Per step: in; the rest is bound once.
__kernel void barycentre(__global const REAL4* in, CELL_ARGS, __global REAL4* barycentres)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  REAL3 sum = (REAL3)(0);
  for (int k = 0; k < n; ++k)
    sum += in[v[k]].xyz;
  barycentres[cell_ids[i]] = (REAL4)(sum / (REAL)n, 0);
}

// The result: moved points x0 + d and the displacement as it lands, (x0 + d) - x0, 3 REALs
// per point each (VTK's layout).
__kernel void moved_points(__global const REAL* points, __global const REAL4* displacement,
  const int count, __global REAL* moved, __global REAL* moved_by)
{
  const int v = get_global_id(0);
  if (v >= count)
    return;
  const REAL3 x0 = point_at(points, v);
  const REAL3 x = x0 + displacement[v].xyz;
  vstore3(x, v, moved);
  vstore3(x - x0, v, moved_by);
}

// A side of `cells` cells with vertices v: unless shared by exactly two, its vertices get flag 1
// (one cell: boundary) or 2 (more: non-manifold), and `unshared` counts it.
inline void flag_side(int cells, uint4 v, __global int* flags, __global int* unshared)
{
  if (cells == 2)
    return;
  atomic_inc(unshared);
  const int flag = cells == 1 ? 1 : 2;
  atomic_or(&flags[v.x], flag);
  atomic_or(&flags[v.y], flag);
  if (v.z != NONE_ID)
    atomic_or(&flags[v.z], flag);
  if (v.w != NONE_ID)
    atomic_or(&flags[v.w], flag);
}

// One work-item per side slot: the vertices of a side of one cell (boundary) get flag 1, of a
// side of more than two cells (non-manifold) flag 2 (atomic_or into `flags`, zeroed before:
// any order gives the same flags). `unshared` counts those slots: none on a closed manifold
// surface, which then has no boundary or non-manifold edge to look for.
__kernel void mark_sides(__global const int2* slot_run, __global const int* slot_entity,
  __global const uint4* entity_vertices, const int slots, __global int* flags, __global int* unshared)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  flag_side(slot_run[s].y, entity_vertices[slot_entity[s]], flags, unshared);
}

// mark_sides from each side once (CellEntities with SlotNeighbors::EntityCounts): one
// work-item per side, `entity_cells` the cells that share it; `unshared` counts those sides.
__kernel void mark_entity_sides(__global const uint* entity_cells, __global const uint4* entity_vertices,
  const int entities, __global int* flags, __global int* unshared)
{
  const int e = get_global_id(0);
  if (e >= entities)
    return;
  flag_side((int)entity_cells[e], entity_vertices[e], flags, unshared);
}

// Per vertex, in place, its role from its sides' flags (mark_sides wrote them in `roles`):
// INTERIOR without any, boundary_role on the boundary, non_manifold_role on non-manifold sides
// (PINNED unless NonManifoldSmoothing), PINNED on both (as vtkWindowedSincPolyDataFilter fixes
// a point with boundary and non-manifold edges).
__kernel void roles_from_sides(const int vertices, const int boundary_role, const int non_manifold_role,
  __global int* roles)
{
  const int v = get_global_id(0);
  if (v >= vertices)
    return;
  const int f = roles[v];
  roles[v] = f == 0 ? INTERIOR : f == 1 ? boundary_role : f == 2 ? non_manifold_role : PINNED;
}

__kernel void pin_vertices(__global const uchar* pinned, const int vertices, __global int* roles)
{
  const int v = get_global_id(0);
  if (v < vertices && pinned[v])
    roles[v] = PINNED;
}

// WindowedSinc (Taubin's windowed-sinc filter as a Chebyshev recurrence on the displacements
// D_k of its states): `next` holds the relax step of factor 1 from `current` (1/2 for the
// first), i.e. D_{k-1} + L(x0 + D_{k-1}); with `recur` it becomes D_k = that + D_{k-1} - D_{k-2}
// (the state x_k = 2 x_{k-1} - x_{k-2} + L(x_{k-1})). The weighted sum gains c_k D_k. A vertex
// no relax step writes stays 0 in all three states: its position does not change in the
// recursion, as VTK keeps a fixed point's.
__kernel void windowed_sinc_step(__global REAL4* next, __global const REAL4* current,
  __global const REAL4* older, const int recur, const REAL c, const int count, __global REAL4* sum)
{
  const int v = get_global_id(0);
  if (v >= count)
    return;
  REAL3 d = next[v].xyz;
  if (recur)
  {
    d += current[v].xyz - older[v].xyz;
    next[v] = (REAL4)(d, 0);
  }
  sum[v] = (REAL4)(sum[v].xyz + c * d, 0);
}

// The filter's result as a displacement: the weighted sum of the states' displacements plus
// (gain - 1) times the input position about the filter's centre (`to_centre`: the mesh origin
// minus that centre), gain being the sum of the coefficients, the filter's value at zero
// frequency, which VTK applies to every point, fixed ones included.
__kernel void windowed_sinc_result(__global const REAL* points, __global const REAL4* sum,
  const REAL gain_minus_one, const REAL cx, const REAL cy, const REAL cz, const int count,
  __global REAL4* displacement)
{
  const int v = get_global_id(0);
  if (v >= count)
    return;
  const REAL3 about_centre = point_at(points, v) + (REAL3)(cx, cy, cz);
  displacement[v] = (REAL4)(sum[v].xyz + gain_minus_one * about_centre, 0);
}
