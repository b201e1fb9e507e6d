// Copies through an index list: the few elements a distributed run exchanges (interface
// points) or masks (ghost cells), without moving whole buffers through the host.

// Elements of `width` REALs.
__kernel void gather_real(__global const REAL* values, const int width, __global const int* indices,
  const int count, __global REAL* gathered)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  for (int k = 0; k < width; ++k)
    gathered[(long)width * i + k] = values[(long)width * indices[i] + k];
}

__kernel void scatter_real(__global REAL* values, const int width, __global const int* indices,
  const int count, __global const REAL* scattered)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  for (int k = 0; k < width; ++k)
    values[(long)width * indices[i] + k] = scattered[(long)width * i + k];
}

__kernel void fill_real_at(__global REAL* values, __global const int* indices, const int count,
  const REAL value)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  values[indices[i]] = value;
}

// Elements of `width` ints (the corners of selected cells).
__kernel void gather_int(__global const int* values, const int width, __global const int* indices,
  const int count, __global int* gathered)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  for (int k = 0; k < width; ++k)
    gathered[(long)width * i + k] = values[(long)width * indices[i] + k];
}
