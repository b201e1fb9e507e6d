// GPU Mesh Quality's per-kind statistics read one group's values. The measures themselves are
// computed by a program per kind of cell, mesh_quality_<kind>.cl, so that a mesh compiles only
// the formulas of the kinds it holds (all of them in one program took an NVIDIA H200 14-17 s to
// build).

// The values of one group's cells, in group order: out[i] = values[cell_ids[i]] (what the
// per-kind statistics reduce).
__kernel void group_values(CELL_ARGS, __global const REAL* values, __global REAL* out)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  out[i] = values[cell_ids[i]];
}
