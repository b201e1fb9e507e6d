// Feature edges of vertex smoothing (VertexSmoother, core/gpumesh/algorithms/Smoothing.h), as
// vtkSmoothPolyDataFilter and vtkWindowedSincPolyDataFilter define them, found once on the
// device before the iterations:
//  - the surface: the 2D cells of a surface mesh, or the boundary faces of a volume mesh
//    (boundary_face_counts and boundary_faces extract them as a mesh of triangles and quads);
//  - an edge of the surface is a constraint edge when it is a feature (shared by two faces whose
//    normals make an angle of FeatureAngle or more: VTK's dot(n1, n2) <= cos(FeatureAngle)),
//    non-manifold (more than two faces; not with NonManifoldSmoothing, `non_manifold_edges` 0),
//    or, with `boundary_edges`, a boundary edge of the surface (one face); feature_pairs writes
//    both directions of each (without `features`, only non-manifold and boundary edges count:
//    WindowedSinc's boundary rule);
//  - classify_features: a vertex free to move with constraint edges moves along them only
//    (ON_FEATURE: the umbrella step over its two constraint neighbours) when it has exactly
//    two and the chain turns by at most EdgeAngle there (VTK: dot(l1, l2) >= cos(EdgeAngle),
//    l1 and l2 the unit edges in along the chain); otherwise (an end, a corner where features
//    meet, a sharp turn) it does not move; nor does a non-manifold vertex left free by
//    NonManifoldSmoothing (ON_NON_MANIFOLD) that has constraint edges (VTK fixes a point with
//    feature and non-manifold edges).
// The dihedral test needs no consistent orientation: with w1, w2 the directions from the edge
// into its two faces (each face's centroid minus the edge, perpendicular to the edge), the
// angle between consistently oriented normals is pi minus the angle between w1 and w2, so the
// edge is a feature when dot(w1, w2) >= -cos(FeatureAngle) |w1| |w2|.
#include "edge_run_heads.cl"
#define PINNED 0
#define ON_FEATURE 3
#define INTERIOR 2
#define ON_NON_MANIFOLD 4

// The corners of side f of a cell (its row of the local side table; entity_vertex in
// kernels/runtime/common.cl): 3 or 4.
inline int side_corners(__global const int* row)
{
  return row[3] >= 0 ? 4 : 3;
}

// Per side slot of a 3D cell: 1 in `triangles` or `quads` when the side is on the boundary
// (a run of one slot), so that scans place the faces.
__kernel void boundary_face_counts(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, __global const int2* slot_run, __global uint* triangles,
  __global uint* quads)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const uint first = slot_offsets[cell_ids[i]];
  const int sides = (int)(slot_offsets[cell_ids[i] + 1] - first);
  for (int f = 0; f < sides; ++f)
  {
    const int corners = side_corners(table + 4 * (f % rows));
    const int boundary = slot_run[first + f].y == 1;
    triangles[first + f] = boundary && corners == 3;
    quads[first + f] = boundary && corners == 4;
  }
}

// The boundary faces, in the cell's local order of the side (VTK's), at the scanned places;
// face ids: triangles first, then quads.
__kernel void boundary_faces(CELL_ARGS, __global const int* table, const int rows,
  __global const uint* slot_offsets, __global const int2* slot_run, __global const uint* triangle_at,
  __global const uint* quad_at, const int triangle_count, __global int* triangles,
  __global int* triangle_ids, __global int* quads, __global int* quad_ids)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  const uint first = slot_offsets[cell_ids[i]];
  const int sides = (int)(slot_offsets[cell_ids[i] + 1] - first);
  for (int f = 0; f < sides; ++f)
  {
    if (slot_run[first + f].y != 1)
      continue;
    __global const int* row = table + 4 * (cells_fixed ? f : f % rows);
    const int turn = cells_fixed ? 0 : f / rows;
    const int corners = side_corners(row);
    if (corners == 3)
    {
      const uint at = triangle_at[first + f];
      for (int k = 0; k < 3; ++k)
        triangles[3 * at + k] = entity_vertex(v, n, row[k], turn);
      triangle_ids[at] = (int)at;
    }
    else
    {
      const uint at = quad_at[first + f];
      for (int k = 0; k < 4; ++k)
        quads[4 * at + k] = entity_vertex(v, n, row[k], turn);
      quad_ids[at] = triangle_count + (int)at;
    }
  }
}

// Where centroid c of the surface lies relative to x (its anchor point plus its offset).
inline REAL3 centroid_from(__global const REAL* points, __global const int* anchors,
  __global const REAL4* offsets, int c, REAL3 x)
{
  return (point_at(points, anchors[c]) - x) + offsets[c].xyz;
}

// One work-item per side slot of the surface (its edges); the first slot of each edge's run
// counts a constraint edge in `found` and, with `write`, puts both of its directions at the
// next two places of `pairs` (a VertexTable sorts its rows: their order does not matter).
// Counted first, the pairs take the memory of the constraint edges alone (none on most
// closed surfaces), not two places per slot.
__kernel void feature_pairs(__global const int2* slot_run, __global const int* sorted_slots,
  __global const int* slot_cell, __global const int* slot_entity, __global const uint4* entity_vertices,
  const int slots, __global const REAL* points, __global const int* anchors, __global const REAL4* offsets,
  const REAL cos_feature, const int features, const int boundary_edges, const int non_manifold_edges,
  const int write, __global int* found, __global int2* pairs)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  int2 run;
  int a, b;
  if (!edge_run_head(s, slot_run, sorted_slots, slot_entity, entity_vertices, &run, &a, &b))
    return;
  int constraint = (run.y > 2 && non_manifold_edges) || (run.y == 1 && boundary_edges);
  if (run.y == 2 && features)
  {
    const REAL3 xa = point_at(points, a);
    const REAL3 e = point_at(points, b) - xa;
    REAL3 w1 = centroid_from(points, anchors, offsets, slot_cell[sorted_slots[run.x]], xa);
    REAL3 w2 = centroid_from(points, anchors, offsets, slot_cell[sorted_slots[run.x + 1]], xa);
    const REAL ee = dot(e, e);
    w1 -= e * (dot(w1, e) / ee);
    w2 -= e * (dot(w2, e) / ee);
    constraint = dot(w1, w2) >= -cos_feature * length(w1) * length(w2);
  }
  if (constraint)
  {
    const int at = atomic_inc(found);
    if (write)
    {
      pairs[2 * at] = (int2)(a, b);
      pairs[2 * at + 1] = (int2)(b, a);
    }
  }
}

// feature_pairs without the dihedral test, from each edge once (CellEntities with
// SlotNeighbors::EntityCounts): one work-item per edge, `entity_cells` the faces that share it.
__kernel void outline_pairs(__global const uint* entity_cells, __global const uint4* entity_vertices,
  const int edges, const int boundary_edges, const int non_manifold_edges, const int write,
  __global int* found, __global int2* pairs)
{
  const int e = get_global_id(0);
  if (e >= edges)
    return;
  const uint cells = entity_cells[e];
  const int a = (int)entity_vertices[e].x;
  const int b = (int)entity_vertices[e].y;
  if (a == b || !((cells > 2 && non_manifold_edges) || (cells == 1 && boundary_edges)))
    return;
  const int at = atomic_inc(found);
  if (write)
  {
    pairs[2 * at] = (int2)(a, b);
    pairs[2 * at + 1] = (int2)(b, a);
  }
}

// Per vertex, from its constraint neighbours (a vertex table's row).
__kernel void classify_features(__global const REAL* points, __global const int* entries,
  __global const uint* row_start, __global const int* degree, const int vertices, const REAL cos_edge,
  __global int* roles)
{
  const int v = get_global_id(0);
  if (v >= vertices || roles[v] == PINNED || degree[v] == 0)
    return;
  if (degree[v] != 2 || roles[v] == ON_NON_MANIFOLD)
  {
    roles[v] = PINNED;
    return;
  }
  const REAL3 x = point_at(points, v);
  const REAL3 l1 = normalize(x - point_at(points, entries[row_start[v]]));
  const REAL3 l2 = normalize(point_at(points, entries[row_start[v] + 1]) - x);
  roles[v] = dot(l1, l2) < cos_edge ? PINNED : ON_FEATURE;
}
