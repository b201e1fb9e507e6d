// Conversions between the host's types and REAL, done on the device after the smaller upload.

__kernel void float_to_real(__global const float* in, const ulong count, __global REAL* out)
{
  const size_t i = get_global_id(0);
  if (i < count)
    out[i] = (REAL)in[i];
}
