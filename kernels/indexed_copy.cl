// Copies through an index list: the few elements a distributed run exchanges (interface
// points) or masks (ghost cells), without moving whole buffers through the host.

__kernel void gather_float4(__global const float4* values, __global const int* indices,
  const int count, __global float4* gathered)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  gathered[i] = values[indices[i]];
}

__kernel void scatter_float4(__global float4* values, __global const int* indices,
  const int count, __global const float4* scattered)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  values[indices[i]] = scattered[i];
}

__kernel void fill_float_at(__global float* values, __global const int* indices, const int count,
  const float value)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  values[indices[i]] = value;
}
