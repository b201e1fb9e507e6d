// The edges of a mesh selected (core/gpumesh/algorithms/EdgeExtraction.h), from the edges matched by
// core/gpumesh/topology/CellEntities.h: each edge is decided once, by the first slot of its run.

// Selections, as EdgeSelection numbers them.
#define SELECT_ALL 0
#define SELECT_BOUNDARY 1
#define SELECT_FEATURE 2
#define SELECT_BOUNDARY_AND_FEATURE 3

// The normal of each 2D cell, as vtkPolygon::ComputeNormal gives it (Newell's vector area,
// normalised; zero for a degenerate cell), relative to its first point for accuracy.
__kernel void cell_normals(CELL_ARGS, __global const REAL* points, __global REAL* normals)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  const REAL3 origin = point_at(points, v[0]);
  REAL3 area = (REAL3)(0, 0, 0);
  REAL3 previous = (REAL3)(0, 0, 0);
  for (int k = 1; k <= n; ++k)
  {
    const REAL3 p = k < n ? point_at(points, v[k]) - origin : (REAL3)(0, 0, 0);
    area += cross(previous, p);
    previous = p;
  }
  const REAL length = sqrt(dot(area, area));
  vstore3(length > 0 ? area / length : area, cell_ids[i], normals);
}

// Per edge (entity), from its run's first slot: whether it is selected (and, with owners, owned
// by `self`: the lowest owner of its cells), and its first cell. The first slot of a run is its
// lowest, so its cell is the lowest cell id using the edge.
__kernel void select_edges(__global const int* sorted_slots, __global const int2* slot_run,
  __global const int* slot_cell, __global const int* slot_entity, const int slots, const int selection,
  __global const REAL* normals, const REAL cos_angle, __global const int* owner, const int has_owners,
  const int self, __global uint* selected, __global int* first_cell)
{
  const int s = get_global_id(0);
  if (s >= slots)
    return;
  const int2 run = slot_run[s];
  if (sorted_slots[run.x] != s)
    return;
  int keep = selection == SELECT_ALL;
  if (!keep && run.y == 1)
    keep = selection == SELECT_BOUNDARY || selection == SELECT_BOUNDARY_AND_FEATURE;
  if (!keep && run.y == 2 && (selection == SELECT_FEATURE || selection == SELECT_BOUNDARY_AND_FEATURE))
  {
    const REAL3 a = vload3(slot_cell[sorted_slots[run.x]], normals);
    const REAL3 b = vload3(slot_cell[sorted_slots[run.x + 1]], normals);
    keep = dot(a, b) <= cos_angle;
  }
  if (keep && has_owners)
  {
    int lowest = owner[slot_cell[s]];
    for (int k = 1; k < run.y; ++k)
      lowest = min(lowest, owner[slot_cell[sorted_slots[run.x + k]]]);
    keep = lowest == self;
  }
  const int e = slot_entity[s];
  selected[e] = keep;
  first_cell[e] = slot_cell[s];
}

// The selected edges, in entity order, with their first cells and end points.
__kernel void gather_edges(__global const uint* places, const int entities, __global const int* first_cell,
  __global const uint4* entity_vertices, __global int* out_cells, __global int2* out_ends)
{
  const int e = get_global_id(0);
  if (e >= entities || places[e + 1] == places[e])
    return;
  const uint4 key = entity_vertices[e];
  out_cells[places[e]] = first_cell[e];
  out_ends[places[e]] = (int2)((int)key.x, (int)key.y);
}
