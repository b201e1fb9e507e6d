// Per-cell measures: length of lines, area of 2D cells, signed volume of 3D cells.
// One kernel per cell kind; cell i of a kind writes measure[cell_ids[i]], the id of the cell in
// the input mesh. Every cell id appears once, so no two work-items write the same element.
// Points are relative to the mesh origin (the centre of its bounds), which keeps the
// differences below accurate in single precision.

inline float triangle_area(float3 a, float3 b, float3 c)
{
  return 0.5f * length(cross(b - a, c - a));
}

// Signed volume: positive when (b - a, c - a, d - a) is right-handed, as VTK orders tetrahedra.
inline float tetra_volume(float3 a, float3 b, float3 c, float3 d)
{
  return dot(b - a, cross(c - a, d - a)) / 6.0f;
}

// Exact volume of the trilinear hexahedron p[0..7] (VTK order: 0-1-2-3 the bottom face, its
// right-hand normal towards 4-5-6-7). The Jacobian determinant is of degree at most 2 in each
// parametric direction, so 2x2x2 Gauss points integrate it exactly. Wedges and pyramids are
// degenerate hexahedra and use this too.
inline float hexahedron_volume(const float3 p[8])
{
  const float g[2] = { 0.21132486540518713f, 0.78867513459481287f }; // 1/2 -+ 1/(2 sqrt 3)
  float volume = 0.0f;
  for (int i = 0; i < 2; ++i)
  {
    for (int j = 0; j < 2; ++j)
    {
      for (int k = 0; k < 2; ++k)
      {
        const float r = g[i], s = g[j], t = g[k];
        const float3 dr = (1 - s) * (1 - t) * (p[1] - p[0]) + s * (1 - t) * (p[2] - p[3]) +
          (1 - s) * t * (p[5] - p[4]) + s * t * (p[6] - p[7]);
        const float3 ds = (1 - r) * (1 - t) * (p[3] - p[0]) + r * (1 - t) * (p[2] - p[1]) +
          (1 - r) * t * (p[7] - p[4]) + r * t * (p[6] - p[5]);
        const float3 dt = (1 - r) * (1 - s) * (p[4] - p[0]) + r * (1 - s) * (p[5] - p[1]) +
          r * s * (p[6] - p[2]) + (1 - r) * s * (p[7] - p[3]);
        volume += dot(dr, cross(ds, dt));
      }
    }
  }
  return volume / 8.0f;
}

// Area of a polygon as the length of its vector area: exact for planar polygons, convex or
// not; for a non-planar one, the area of its projection on the plane that maximises it.
inline float polygon_area(__global const float4* points, __global const int* ids, int n)
{
  float3 centre = (float3)(0.0f);
  for (int k = 0; k < n; ++k)
  {
    centre += vertex_at(points, ids[k]);
  }
  centre /= (float)n;
  float3 vector_area = (float3)(0.0f);
  for (int k = 0; k < n; ++k)
  {
    const float3 a = vertex_at(points, ids[k]) - centre;
    const float3 b = vertex_at(points, ids[(k + 1) % n]) - centre;
    vector_area += cross(a, b);
  }
  return 0.5f * length(vector_area);
}

__kernel void line_length(__global const float4* points, __global const int* connectivity,
  __global const int* cell_ids, const int count, __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + 2 * i;
  measure[cell_ids[i]] = distance(vertex_at(points, v[0]), vertex_at(points, v[1]));
}

__kernel void polyline_length(__global const float4* points, __global const int* offsets,
  __global const int* connectivity, __global const int* cell_ids, const int count,
  __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  float total = 0.0f;
  for (int k = offsets[i]; k + 1 < offsets[i + 1]; ++k)
  {
    total += distance(vertex_at(points, connectivity[k]), vertex_at(points, connectivity[k + 1]));
  }
  measure[cell_ids[i]] = total;
}

__kernel void triangle_area_kernel(__global const float4* points, __global const int* connectivity,
  __global const int* cell_ids, const int count, __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + 3 * i;
  measure[cell_ids[i]] =
    triangle_area(vertex_at(points, v[0]), vertex_at(points, v[1]), vertex_at(points, v[2]));
}

__kernel void triangle_strip_area(__global const float4* points, __global const int* offsets,
  __global const int* connectivity, __global const int* cell_ids, const int count,
  __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  float total = 0.0f;
  for (int k = offsets[i]; k + 2 < offsets[i + 1]; ++k)
  {
    total += triangle_area(vertex_at(points, connectivity[k]), vertex_at(points, connectivity[k + 1]),
      vertex_at(points, connectivity[k + 2]));
  }
  measure[cell_ids[i]] = total;
}

__kernel void quad_area(__global const float4* points, __global const int* connectivity,
  __global const int* cell_ids, const int count, __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  measure[cell_ids[i]] = polygon_area(points, connectivity + 4 * i, 4);
}

__kernel void polygon_area_kernel(__global const float4* points, __global const int* offsets,
  __global const int* connectivity, __global const int* cell_ids, const int count,
  __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  measure[cell_ids[i]] = polygon_area(points, connectivity + offsets[i], offsets[i + 1] - offsets[i]);
}

__kernel void tetra_volume_kernel(__global const float4* points, __global const int* connectivity,
  __global const int* cell_ids, const int count, __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + 4 * i;
  measure[cell_ids[i]] = tetra_volume(vertex_at(points, v[0]), vertex_at(points, v[1]),
    vertex_at(points, v[2]), vertex_at(points, v[3]));
}

// corner[k] names which cell vertex is corner k of the (possibly degenerate) hexahedron.
inline float volume_as_hexahedron(__global const float4* points, __global const int* v,
  const int corner[8])
{
  const float3 origin = vertex_at(points, v[0]); // differences to a nearby vertex stay accurate
  float3 p[8];
  for (int k = 0; k < 8; ++k)
  {
    p[k] = vertex_at(points, v[corner[k]]) - origin;
  }
  return hexahedron_volume(p);
}

__kernel void hexahedron_volume_kernel(__global const float4* points,
  __global const int* connectivity, __global const int* cell_ids, const int count,
  __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int corner[8] = { 0, 1, 2, 3, 4, 5, 6, 7 };
  measure[cell_ids[i]] = volume_as_hexahedron(points, connectivity + 8 * i, corner);
}

// A VTK wedge's base 0-1-2 has its right-hand normal pointing away from 3-4-5: as a hexahedron
// with collapsed edges it is 0-2-1-1 / 3-5-4-4.
__kernel void wedge_volume(__global const float4* points, __global const int* connectivity,
  __global const int* cell_ids, const int count, __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int corner[8] = { 0, 2, 1, 1, 3, 5, 4, 4 };
  measure[cell_ids[i]] = volume_as_hexahedron(points, connectivity + 6 * i, corner);
}

// A VTK pyramid's base 0-1-2-3 has its right-hand normal pointing to the apex 4: a hexahedron
// whose top face collapsed to the apex (the cone over the bilinear base).
__kernel void pyramid_volume(__global const float4* points, __global const int* connectivity,
  __global const int* cell_ids, const int count, __global float* measure)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int corner[8] = { 0, 1, 2, 3, 4, 4, 4, 4 };
  measure[cell_ids[i]] = volume_as_hexahedron(points, connectivity + 5 * i, corner);
}
