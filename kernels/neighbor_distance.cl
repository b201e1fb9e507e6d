// Cell centroids (the mean of the vertices) and, per cell, the distances from its centroid to
// the centroids of the cells across its sides ("lien transverse" of GMlib v3).

__kernel void centroid_fixed(__global const float4* points, __global const int* connectivity,
  const int vertices_per_cell, __global const int* cell_ids, const int count,
  __global float4* centroids)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + (size_t)i * vertices_per_cell;
  float3 sum = (float3)(0.0f);
  for (int k = 0; k < vertices_per_cell; ++k)
    sum += vertex_at(points, v[k]);
  centroids[cell_ids[i]] = (float4)(sum / (float)vertices_per_cell, 0.0f);
}

__kernel void centroid_variable(__global const float4* points, __global const int* offsets,
  __global const int* connectivity, __global const int* cell_ids, const int count,
  __global float4* centroids)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int n = offsets[i + 1] - offsets[i];
  float3 sum = (float3)(0.0f);
  for (int k = offsets[i]; k < offsets[i + 1]; ++k)
    sum += vertex_at(points, connectivity[k]);
  centroids[cell_ids[i]] = (float4)(sum / (float)n, 0.0f);
}

// One work-item per cell: every other cell of every side's run is a neighbour (two cells on a
// manifold side, all of them on a non-manifold one). A cell with no neighbour gets NaN
// distances and a count of 0.
__kernel void neighbor_distance(__global const float4* centroids, const int cells,
  __global const uint* slot_offsets, __global const int2* slot_run,
  __global const int* sorted_slots, __global const int* slot_cell, __global float* minimum,
  __global float* maximum, __global float* mean, __global int* neighbor_count)
{
  const int c = get_global_id(0);
  if (c >= cells)
    return;
  const float3 here = centroids[c].xyz;
  float lo = INFINITY, hi = -INFINITY, sum = 0.0f;
  int n = 0;
  for (uint slot = slot_offsets[c]; slot < slot_offsets[c + 1]; ++slot)
  {
    const int2 run = slot_run[slot];
    for (int k = run.x; k < run.x + run.y; ++k)
    {
      const int other = slot_cell[sorted_slots[k]];
      if (other == c)
        continue;
      const float d = distance(here, centroids[other].xyz);
      lo = fmin(lo, d);
      hi = fmax(hi, d);
      sum += d;
      ++n;
    }
  }
  minimum[c] = n ? lo : NAN;
  maximum[c] = n ? hi : NAN;
  mean[c] = n ? sum / (float)n : NAN;
  neighbor_count[c] = n;
}
