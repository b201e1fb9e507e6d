// The loop over cells of a GPU Mesh Kernel (core/gpumesh/algorithms/MeshKernel.h): one work-item per cell
// of one group (CELL_ARGS, kernels/runtime/common.cl; built with -DPER_CELL=n for a fixed-size kind, so
// point_count is a constant) runs the user's text with the cell's variables filled in. The generator defines before this text:
//   STEP_ARGUMENTS     the arguments that change between iterations: the previous iterate of a
//                      fed-back result (`previous`), then `result_out`
//   USES_NEIGHBOURS    whether the text uses the cells across the sides (1) or not (0)
//   INPUT_VARIABLES    the cell's own chosen arrays as variables
//   PARAMETER_VARIABLES   `const REAL <name> = mk_parameters[i];` per parameter
//   RESULT_DECLARATION, RESULT_STORE   the result variable and how it is written
// and one accessor macro per (link, array): points_<Name>(k), neighbours_<Name>(k), plus the
// CELL_<KIND> constants `kind` compares with, and MK_CHECKED, MK_VAR_<name> for the index
// checks (kernels/algorithms/mesh_kernel_access.cl). A k outside the cell's points reads its
// first point; outside its neighbours, the cell itself.
#define POINTS points

#define MK_POINT(k, variable) MK_LINK(connectivity, first, point_count, k, connectivity[first], variable)
#define MK_NEIGHBOUR(k, variable) MK_LINK(neighbour_ids, neighbour_first, neighbour_count, k, id, variable)
#define point_id(k) MK_POINT(k, MK_VAR_point_id)
#define points_x(k) point_at(POINTS, MK_POINT(k, MK_VAR_points_x))
#define neighbour_id(k) MK_NEIGHBOUR(k, MK_VAR_neighbour_id)

__kernel void mesh_kernel(STEP_ARGUMENTS, CELL_ARGS, const int kind, __global const REAL* points,
  const int point_total, const int cell_total, __global const REAL* point_arrays,
  __global const REAL* cell_arrays, __global int* mk_error, __global const REAL* mk_parameters
#if USES_NEIGHBOURS
  , __global const uint* neighbour_offsets, __global const int* neighbour_ids
#endif
)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int id = cell_ids[i];
  const size_t first = cell_start(i);
  const int point_count = cell_size(i);
#if USES_NEIGHBOURS
  const uint neighbour_first = neighbour_offsets[id];
  const int neighbour_count = (int)(neighbour_offsets[id + 1] - neighbour_first);
#endif
  INPUT_VARIABLES
  PARAMETER_VARIABLES
  RESULT_DECLARATION
  {
//@USER_KERNEL@
  }
  RESULT_STORE
}
