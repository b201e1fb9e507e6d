// Prepended to every kernels/*.cl program: helpers shared by all kernels.

// Points live on the device as float4 (x, y, z, unused) so one load fetches a vertex.
inline float3 vertex_at(__global const float4* points, int id)
{
  return points[id].xyz;
}
