// GPU Mesh Quality of pyramid cells: the measure chosen for the kind (numbered as vtkMeshQuality's
// QualityMeasureTypes) for every cell of a group; cell i writes quality[cell_ids[i]]. The
// formulas live in quality_pyramid.cl, one function per measure, which user kernels can call too. A
// measure the switch does not list gives NaN (the host refuses such measures before launching).
// A program per kind (on GPUs per kind and measure: MEASURE in quality_measures.cl).
#include "quality_pyramid.cl"
#include "quality_measures.cl"

__kernel void pyramid_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  REAL3 p[5];
  for (int k = 0; k < 5; ++k)
    p[k] = point_at(points, v[k]);
  REAL q;
  switch (MEASURE)
  {
    case EQUIANGLE_SKEW: q = quality_pyramid_equiangle_skew(p); break;
    case JACOBIAN: q = quality_pyramid_jacobian(p); break;
    case SCALED_JACOBIAN: q = quality_pyramid_scaled_jacobian(p); break;
    case SHAPE: q = quality_pyramid_shape(p); break;
    case VOLUME: q = quality_pyramid_volume(p); break;
    default: q = NAN;
  }
  quality[cell_ids[i]] = q;
}
