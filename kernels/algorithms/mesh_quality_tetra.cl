// GPU Mesh Quality of tetra cells: the measure chosen for the kind (numbered as vtkMeshQuality's
// QualityMeasureTypes) for every cell of a group; cell i writes quality[cell_ids[i]]. The
// formulas live in quality_tetra.cl, one function per measure, which user kernels can call too. A
// measure the switch does not list gives NaN (the host refuses such measures before launching).
// A program per kind (on GPUs per kind and measure: MEASURE in quality_measures.cl).
#include "quality_tetra.cl"
#include "quality_measures.cl"

__kernel void tetra_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  const REAL3 p0 = point_at(points, v[0]), p1 = point_at(points, v[1]);
  const REAL3 p2 = point_at(points, v[2]), p3 = point_at(points, v[3]);
  REAL q;
  switch (MEASURE)
  {
    case ASPECT_GAMMA: q = quality_tet_aspect_gamma(p0, p1, p2, p3); break;
    case ASPECT_FROBENIUS: q = quality_tet_aspect_frobenius(p0, p1, p2, p3); break;
    case ASPECT_RATIO: q = quality_tet_aspect_ratio(p0, p1, p2, p3); break;
    case COLLAPSE_RATIO: q = quality_tet_collapse_ratio(p0, p1, p2, p3); break;
    case CONDITION: q = quality_tet_condition(p0, p1, p2, p3); break;
    case DISTORTION: q = quality_tet_distortion(p0, p1, p2, p3); break;
    case EDGE_RATIO: q = quality_tet_edge_ratio(p0, p1, p2, p3); break;
    case EQUIANGLE_SKEW: q = quality_tet_equiangle_skew(p0, p1, p2, p3); break;
    case EQUIVOLUME_SKEW: q = quality_tet_equivolume_skew(p0, p1, p2, p3); break;
    case JACOBIAN: q = quality_tet_jacobian(p0, p1, p2, p3); break;
    case MEAN_RATIO: q = quality_tet_mean_ratio(p0, p1, p2, p3); break;
    case MIN_ANGLE: q = quality_tet_minimum_angle(p0, p1, p2, p3); break;
    case NORMALIZED_INRADIUS: q = quality_tet_normalized_inradius(p0, p1, p2, p3); break;
    case RADIUS_RATIO: q = quality_tet_radius_ratio(p0, p1, p2, p3); break;
    case RELATIVE_SIZE_SQUARED: q = quality_tet_relative_size_squared(p0, p1, p2, p3, average_size); break;
    case SCALED_JACOBIAN: q = quality_tet_scaled_jacobian(p0, p1, p2, p3); break;
    case SHAPE: q = quality_tet_shape(p0, p1, p2, p3); break;
    case SHAPE_AND_SIZE: q = quality_tet_shape_and_size(p0, p1, p2, p3, average_size); break;
    case SQUISH_INDEX: q = quality_tet_squish_index(p0, p1, p2, p3); break;
    case VOLUME: q = quality_tet_volume(p0, p1, p2, p3); break;
    default: q = NAN;
  }
  quality[cell_ids[i]] = q;
}
