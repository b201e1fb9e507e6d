// Per-cell measures: length of lines, area of 2D cells, signed volume of 3D cells, in REAL.
// One kernel per kind of geometry, all with the same arguments (MEASURE_ARGS); cell i of a
// group writes measure[cell_ids[i]], the id of the cell in the input mesh. Every cell id appears once, so no two work-items write the same element.
//
// Geometry is computed relative to the cell's first point (its local origin): differences of
// nearby points are exact, so a small cell far from the mesh centre keeps its accuracy. A cell
// whose measure (its extent to the power 1, 2 or 3) leaves REAL's normal range would come out
// as 0 or infinity: its id goes to out_of_range (the smallest such id) instead.
#include "geometry.cl" // the formulas: the device toolkit's, as user kernels call them

// The largest coordinate difference of the cell's points from its local origin.
inline REAL extent_of(REAL3 d, REAL e)
{
  return fmax(e, fmax(fabs(d.x), fmax(fabs(d.y), fabs(d.z))));
}

inline void store(__global REAL* measure, __global int* out_of_range, int cell, REAL value,
  REAL extent, int power)
{
  REAL scaled = extent;
  for (int p = 1; p < power; ++p)
    scaled *= extent;
  // A cell of nonzero extent whose measure scale underflows (to 0 too) or overflows.
  if ((extent != (REAL)0 && (scaled == (REAL)0 || !representable(scaled))) || !isfinite(value))
    atomic_min(out_of_range, cell);
  measure[cell] = value;
}

// Area of a polygon as the length of its vector area (about its centre, from its first point):
// exact for planar polygons, convex or not; for a non-planar one, the area of its projection on
// the plane that maximises it. Quads use quad_area (geometry.cl), the same quantity.
inline REAL polygon_area(__global const REAL* points, __global const int* ids, int n, REAL* extent)
{
  const REAL3 origin = point_at(points, ids[0]);
  REAL3 centre = (REAL3)(0);
  REAL e = 0;
  for (int k = 0; k < n; ++k)
  {
    const REAL3 d = point_at(points, ids[k]) - origin;
    centre += d;
    e = extent_of(d, e);
  }
  centre /= (REAL)n;
  REAL3 vector_area = (REAL3)(0);
  for (int k = 0; k < n; ++k)
  {
    const REAL3 a = point_at(points, ids[k]) - origin - centre;
    const REAL3 b = point_at(points, ids[(k + 1) % n]) - origin - centre;
    vector_area += v_cross(a, b);
  }
  *extent = e;
  return (REAL)0.5 * v_length(vector_area);
}

// Every measure kernel takes the same arguments; v is cell i's vertex ids, n their number.
#define MEASURE_ARGS                                                                           \
  CELL_ARGS, __global const REAL *points, __global REAL *measure, __global int *out_of_range
#define MEASURED_CELL                                                                          \
  const int i = get_global_id(0);                                                              \
  if (i >= count)                                                                              \
    return;                                                                                    \
  __global const int* v = connectivity + cell_start(i);                                        \
  const int n = cell_size(i)

__kernel void line_length(MEASURE_ARGS)
{
  MEASURED_CELL;
  const REAL3 a = point_at(points, v[0]), b = point_at(points, v[1]);
  store(measure, out_of_range, cell_ids[i], edge_length(a, b), extent_of(b - a, 0), 1);
}

__kernel void polyline_length(MEASURE_ARGS)
{
  MEASURED_CELL;
  REAL total = 0, e = 0;
  for (int k = 0; k + 1 < n; ++k)
  {
    const REAL3 a = point_at(points, v[k]), b = point_at(points, v[k + 1]);
    total += edge_length(a, b);
    e = extent_of(b - a, e);
  }
  store(measure, out_of_range, cell_ids[i], total, e, 1);
}

__kernel void triangle_area_kernel(MEASURE_ARGS)
{
  MEASURED_CELL;
  const REAL3 a = point_at(points, v[0]), b = point_at(points, v[1]), c = point_at(points, v[2]);
  store(measure, out_of_range, cell_ids[i], triangle_area(a, b, c), extent_of(c - a, extent_of(b - a, 0)), 2);
}

__kernel void triangle_strip_area(MEASURE_ARGS)
{
  MEASURED_CELL;
  REAL total = 0, e = 0;
  for (int k = 0; k + 2 < n; ++k)
  {
    const REAL3 a = point_at(points, v[k]), b = point_at(points, v[k + 1]), c = point_at(points, v[k + 2]);
    total += triangle_area(a, b, c);
    e = extent_of(c - a, extent_of(b - a, e));
  }
  store(measure, out_of_range, cell_ids[i], total, e, 2);
}

__kernel void quad_area_kernel(MEASURE_ARGS)
{
  MEASURED_CELL;
  REAL3 p[4];
  REAL e = 0;
  for (int k = 0; k < 4; ++k)
  {
    p[k] = point_at(points, v[k]);
    e = extent_of(p[k] - p[0], e);
  }
  store(measure, out_of_range, cell_ids[i], quad_area(p[0], p[1], p[2], p[3]), e, 2);
}

__kernel void polygon_area_kernel(MEASURE_ARGS)
{
  MEASURED_CELL;
  REAL e;
  const REAL area = polygon_area(points, v, n, &e);
  store(measure, out_of_range, cell_ids[i], area, e, 2);
}

__kernel void tetra_volume_kernel(MEASURE_ARGS)
{
  MEASURED_CELL;
  const REAL3 a = point_at(points, v[0]), b = point_at(points, v[1]);
  const REAL3 c = point_at(points, v[2]), d = point_at(points, v[3]);
  store(measure, out_of_range, cell_ids[i], tet_volume(a, b, c, d),
    extent_of(d - a, extent_of(c - a, extent_of(b - a, 0))), 3);
}

// corner[k] names which cell vertex is corner k of the (possibly degenerate) hexahedron:
// hex_volume on those corners is wedge_volume and pyramid_volume (geometry.cl).
inline void volume_as_hexahedron(__global const REAL* points, __global const int* v,
  const int corner[8], int cell, __global REAL* measure, __global int* out_of_range)
{
  REAL3 p[8];
  REAL e = 0;
  for (int k = 0; k < 8; ++k)
  {
    p[k] = point_at(points, v[corner[k]]);
    e = extent_of(p[k] - p[0], e);
  }
  store(measure, out_of_range, cell, hex_volume(p), e, 3);
}

__kernel void hexahedron_volume_kernel(MEASURE_ARGS)
{
  MEASURED_CELL;
  const int corner[8] = HEXAHEDRON_CORNERS;
  volume_as_hexahedron(points, v, corner, cell_ids[i], measure, out_of_range);
}

__kernel void wedge_volume_kernel(MEASURE_ARGS)
{
  MEASURED_CELL;
  const int corner[8] = WEDGE_CORNERS;
  volume_as_hexahedron(points, v, corner, cell_ids[i], measure, out_of_range);
}

__kernel void pyramid_volume_kernel(MEASURE_ARGS)
{
  MEASURED_CELL;
  const int corner[8] = PYRAMID_CORNERS;
  volume_as_hexahedron(points, v, corner, cell_ids[i], measure, out_of_range);
}
