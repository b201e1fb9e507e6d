// Euclidean norm of each tuple of a multi-component array (a NaN component gives NaN).
__kernel void tuple_magnitude(__global const float* components, const int component_count,
  const ulong tuple_count, __global float* magnitude)
{
  const size_t i = get_global_id(0);
  if (i >= tuple_count)
    return;
  __global const float* tuple = components + i * (size_t)component_count;
  float sum = 0.0f;
  for (int c = 0; c < component_count; ++c)
  {
    sum += tuple[c] * tuple[c];
  }
  magnitude[i] = sqrt(sum);
}
