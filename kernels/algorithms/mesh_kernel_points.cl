// The loop over points of a GPU Mesh Kernel (core/gpumesh/algorithms/MeshKernel.h): one work-item per
// point runs the user's text with the point's variables filled in. The generator defines
// before this text:
//   STEP_ARGUMENTS     the arguments that change between iterations: the previous iterate of a
//                      fed-back result (`previous`), then `result_out`
//   POINTS             the coordinates `x` reads: `points`, or `previous` when the result is
//                      the coordinates themselves
//   USES_CELLS, USES_NEIGHBOURS   which upward links the text uses (1) or not (0)
//   INPUT_VARIABLES    the point's own chosen arrays as variables
//   PARAMETER_VARIABLES   `const REAL <name> = mk_parameters[i];` per parameter
//   RESULT_DECLARATION, RESULT_STORE   the result variable and how it is written
//   MK_CHECKED, MK_VAR_<name>   index checks (kernels/algorithms/mesh_kernel_access.cl)
// and one accessor macro per (link, array): cells_<Name>(k), neighbours_<Name>(k).
// Links are VertexTables (core/gpumesh/topology/VertexTable.h): row of point v at rows[v] in entries,
// degree[v] values, so every row is read to its true length whatever table holds it. A k
// outside the row reads the first cell, or the point itself.

#define MK_CELL(k, variable) MK_LINK(cell_entries, cell_row, cell_count, k, 0, variable)
#define MK_NEIGHBOUR(k, variable) MK_LINK(neighbour_entries, neighbour_row, neighbour_count, k, id, variable)
#define cell_id(k) MK_CELL(k, MK_VAR_cell_id)
#define neighbour_id(k) MK_NEIGHBOUR(k, MK_VAR_neighbour_id)
#define neighbours_x(k) point_at(POINTS, MK_NEIGHBOUR(k, MK_VAR_neighbours_x))

__kernel void mesh_kernel(STEP_ARGUMENTS, __global const REAL* points, const int point_total,
  const int cell_total, __global const REAL* point_arrays, __global const REAL* cell_arrays,
  __global int* mk_error, __global const REAL* mk_parameters
#if USES_CELLS
  , __global const int* cell_entries, __global const uint* cell_rows, __global const int* cell_degree
#endif
#if USES_NEIGHBOURS
  , __global const int* neighbour_entries, __global const uint* neighbour_rows,
  __global const int* neighbour_degree
#endif
)
{
  const int id = get_global_id(0);
  if (id >= point_total)
    return;
  const REAL3 x = point_at(POINTS, id);
#if USES_CELLS
  const uint cell_row = cell_rows[id];
  const int cell_count = cell_degree[id];
#endif
#if USES_NEIGHBOURS
  const uint neighbour_row = neighbour_rows[id];
  const int neighbour_count = neighbour_degree[id];
#endif
  INPUT_VARIABLES
  PARAMETER_VARIABLES
  RESULT_DECLARATION
  {
//@USER_KERNEL@
  }
  RESULT_STORE
}
