// values[i] = first + i: identity maps (cell ids of a mesh made on the device, first parents).
__kernel void iota(const int first, const int count, __global int* values)
{
  const int i = get_global_id(0);
  if (i < count)
    values[i] = first + i;
}

// values[i] = i * step: where each cell's slots start when every cell has `step` (CellEntities).
__kernel void multiples(const int count, const uint step, __global uint* values)
{
  const int i = get_global_id(0);
  if (i < count)
    values[i] = (uint)i * step;
}
