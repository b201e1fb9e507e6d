// Prepended to every kernels/*.cl program: the REAL type and helpers shared by all kernels.

// REAL is the precision of the run (core/gpumesh/runtime/Precision.h): double when the program is
// built with -DREAL_DOUBLE=1, float otherwise. One source serves both.
#if REAL_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
typedef double REAL;
typedef double2 REAL2;
typedef double3 REAL3;
typedef double4 REAL4;
#define REAL_MIN_NORMAL DBL_MIN
#define REAL_MAX DBL_MAX
#define REAL_EPSILON DBL_EPSILON
#else
typedef float REAL;
typedef float2 REAL2;
typedef float3 REAL3;
typedef float4 REAL4;
#define REAL_MIN_NORMAL FLT_MIN
#define REAL_MAX FLT_MAX
#define REAL_EPSILON FLT_EPSILON
#endif

// Points live on the device as VTK keeps them: x, y, z packed, 3 REALs per point.
inline REAL3 point_at(__global const REAL* points, int id)
{
  return vload3(id, points);
}

// Whether a quantity of the given magnitude keeps full precision in REAL: above the subnormal
// range (with room for the rounding of its terms) and below overflow. Zero is fine: it is exact.
inline int representable(REAL magnitude)
{
  return magnitude == (REAL)0 ||
    (magnitude >= REAL_MIN_NORMAL / REAL_EPSILON && magnitude <= REAL_MAX * REAL_EPSILON);
}

// The cells of one group, as every per-cell kernel receives them (CellArgs in
// core/gpumesh/mesh/DeviceCellGroup.h): the group's connectivity, its offsets (variable-size kinds),
// per_cell (the fixed vertex count, 0 for variable-size kinds), the cells' ids in the mesh and
// their number. cell_start/cell_size give cell i's first entry in connectivity and its length.
#define CELL_ARGS                                                                              \
  __global const int *connectivity, __global const int *offsets, const int per_cell,          \
    __global const int *cell_ids, const int count

// Hot kernels may be built for one fixed-size kind (cellKindOptions in DeviceCellGroup.h:
// -DPER_CELL=n), which makes the strides compile-time constants; cells_fixed says whether the
// group's kind has a fixed size.
#ifdef PER_CELL
#define cells_fixed 1
#define cell_start(i) ((size_t)(i) * PER_CELL)
#define cell_size(i) (PER_CELL)
#else
#define cells_fixed (per_cell > 0)
#define cell_start(i) (per_cell > 0 ? (size_t)(i) * per_cell : (size_t)offsets[(i)])
#define cell_size(i) (per_cell > 0 ? per_cell : offsets[(i) + 1] - offsets[(i)])
#endif

// Entity (side or edge) e of a cell is row e % rows of its kind's table (4 local vertex
// indices, -1 padding edges and triangles; localEntityTable in core/gpumesh/topology/CellEntities.h)
// turned e / rows places around the cell: fixed-size kinds have a row per entity and no turn;
// polygons and polylines one row, the edge (0, 1), turned to each of their edges (e, e + 1).
// The vertex id at `corner` of such a row of cell v (n vertices), or -1 for padding.
inline int entity_vertex(__global const int* v, int n, int corner, int turn)
{
  return corner < 0 ? -1 : v[(corner + turn) % n];
}
