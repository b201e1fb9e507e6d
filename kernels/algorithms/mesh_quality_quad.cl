// GPU Mesh Quality of quad cells: the measure chosen for the kind (numbered as vtkMeshQuality's
// QualityMeasureTypes) for every cell of a group; cell i writes quality[cell_ids[i]]. The
// formulas live in quality_quad.cl, one function per measure, which user kernels can call too. A
// measure the switch does not list gives NaN (the host refuses such measures before launching).
// A program per kind (on GPUs per kind and measure: MEASURE in quality_measures.cl).
#include "quality_quad.cl"
#include "quality_measures.cl"

__kernel void quad_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  const REAL3 p0 = point_at(points, v[0]), p1 = point_at(points, v[1]);
  const REAL3 p2 = point_at(points, v[2]), p3 = point_at(points, v[3]);
  REAL q;
  switch (MEASURE)
  {
    case AREA: q = quality_quad_area(p0, p1, p2, p3); break;
    case ASPECT_RATIO: q = quality_quad_aspect_ratio(p0, p1, p2, p3); break;
    case CONDITION: q = quality_quad_condition(p0, p1, p2, p3); break;
    case DISTORTION: q = quality_quad_distortion(p0, p1, p2, p3); break;
    case EDGE_RATIO: q = quality_quad_edge_ratio(p0, p1, p2, p3); break;
    case EQUIANGLE_SKEW: q = quality_quad_equiangle_skew(p0, p1, p2, p3); break;
    case JACOBIAN: q = quality_quad_jacobian(p0, p1, p2, p3); break;
    case MAX_ASPECT_FROBENIUS: q = quality_quad_max_aspect_frobenius(p0, p1, p2, p3); break;
    case MAX_EDGE_RATIO: q = quality_quad_max_edge_ratio(p0, p1, p2, p3); break;
    case MED_ASPECT_FROBENIUS: q = quality_quad_med_aspect_frobenius(p0, p1, p2, p3); break;
    case MIN_ANGLE: q = quality_quad_minimum_angle(p0, p1, p2, p3); break;
    case ODDY: q = quality_quad_oddy(p0, p1, p2, p3); break;
    case RADIUS_RATIO: q = quality_quad_radius_ratio(p0, p1, p2, p3); break;
    case RELATIVE_SIZE_SQUARED: q = quality_quad_relative_size_squared(p0, p1, p2, p3, average_size); break;
    case SCALED_JACOBIAN: q = quality_quad_scaled_jacobian(p0, p1, p2, p3); break;
    case SHAPE: q = quality_quad_shape(p0, p1, p2, p3); break;
    case SHAPE_AND_SIZE: q = quality_quad_shape_and_size(p0, p1, p2, p3, average_size); break;
    case SHEAR: q = quality_quad_shear(p0, p1, p2, p3); break;
    case SHEAR_AND_SIZE: q = quality_quad_shear_and_size(p0, p1, p2, p3, average_size); break;
    case SKEW: q = quality_quad_skew(p0, p1, p2, p3); break;
    case STRETCH: q = quality_quad_stretch(p0, p1, p2, p3); break;
    case TAPER: q = quality_quad_taper(p0, p1, p2, p3); break;
    case WARPAGE: q = quality_quad_warpage(p0, p1, p2, p3); break;
    // Verdict has quad_maximum_angle too, which Mesh Quality does not offer.
    case MAX_ANGLE: q = quality_quad_maximum_angle(p0, p1, p2, p3); break;
    default: q = NAN;
  }
  quality[cell_ids[i]] = q;
}
