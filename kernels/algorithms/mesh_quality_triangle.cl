// GPU Mesh Quality of triangle cells: the measure chosen for the kind (numbered as vtkMeshQuality's
// QualityMeasureTypes) for every cell of a group; cell i writes quality[cell_ids[i]]. The
// formulas live in quality_triangle.cl, one function per measure, which user kernels can call too. A
// measure the switch does not list gives NaN (the host refuses such measures before launching).
// A program per kind (on GPUs per kind and measure: MEASURE in quality_measures.cl).
#include "quality_triangle.cl"
#include "quality_measures.cl"

__kernel void triangle_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  const REAL3 p0 = point_at(points, v[0]), p1 = point_at(points, v[1]), p2 = point_at(points, v[2]);
  REAL q;
  switch (MEASURE)
  {
    case AREA: q = quality_tri_area(p0, p1, p2); break;
    case ASPECT_RATIO: q = quality_tri_aspect_ratio(p0, p1, p2); break;
    case ASPECT_FROBENIUS: q = quality_tri_aspect_frobenius(p0, p1, p2); break;
    case CONDITION: q = quality_tri_condition(p0, p1, p2); break;
    case DISTORTION: q = quality_tri_distortion(p0, p1, p2); break;
    case EDGE_RATIO: q = quality_tri_edge_ratio(p0, p1, p2); break;
    case EQUIANGLE_SKEW: q = quality_tri_equiangle_skew(p0, p1, p2); break;
    case MAX_ANGLE: q = quality_tri_maximum_angle(p0, p1, p2); break;
    case MIN_ANGLE: q = quality_tri_minimum_angle(p0, p1, p2); break;
    case NORMALIZED_INRADIUS: q = quality_tri_normalized_inradius(p0, p1, p2); break;
    case RADIUS_RATIO: q = quality_tri_radius_ratio(p0, p1, p2); break;
    case RELATIVE_SIZE_SQUARED: q = quality_tri_relative_size_squared(p0, p1, p2, average_size); break;
    case SCALED_JACOBIAN: q = quality_tri_scaled_jacobian(p0, p1, p2); break;
    case SHAPE: q = quality_tri_shape(p0, p1, p2); break;
    case SHAPE_AND_SIZE: q = quality_tri_shape_and_size(p0, p1, p2, average_size); break;
    default: q = NAN;
  }
  quality[cell_ids[i]] = q;
}
