// GPU Mesh Quality: one kernel per cell kind computes the measure chosen for that kind (numbered
// as vtkMeshQuality's QualityMeasureTypes) for every cell of a group; cell i writes
// quality[cell_ids[i]]. The formulas live in quality_<kind>.cl, one function per measure, which
// user kernels can call too. A measure the kind's switch does not list gives NaN (the host
// refuses such measures before launching).
#include "quality_tetra.cl"
#include "quality_hexahedron.cl"
#include "quality_pyramid.cl"
#include "quality_wedge.cl"

// vtkMeshQuality::QualityMeasureTypes (VTK 9.2).
#define EDGE_RATIO 0
#define ASPECT_RATIO 1
#define RADIUS_RATIO 2
#define ASPECT_FROBENIUS 3
#define MED_ASPECT_FROBENIUS 4
#define MAX_ASPECT_FROBENIUS 5
#define MIN_ANGLE 6
#define COLLAPSE_RATIO 7
#define MAX_ANGLE 8
#define CONDITION 9
#define SCALED_JACOBIAN 10
#define SHEAR 11
#define RELATIVE_SIZE_SQUARED 12
#define SHAPE 13
#define SHAPE_AND_SIZE 14
#define DISTORTION 15
#define MAX_EDGE_RATIO 16
#define SKEW 17
#define TAPER 18
#define VOLUME 19
#define STRETCH 20
#define DIAGONAL 21
#define DIMENSION 22
#define ODDY 23
#define SHEAR_AND_SIZE 24
#define JACOBIAN 25
#define WARPAGE 26
#define ASPECT_GAMMA 27
#define AREA 28
#define EQUIANGLE_SKEW 29
#define EQUIVOLUME_SKEW 30
#define MAX_STRETCH 31
#define MEAN_ASPECT_FROBENIUS 32
#define MEAN_RATIO 33
#define NODAL_JACOBIAN_RATIO 34
#define NORMALIZED_INRADIUS 35
#define SQUISH_INDEX 36

// Every quality kernel takes the same arguments: the group, the points, the measure, the average
// size of the kind's cells over the whole mesh (area or volume, for the measures relative to it)
// and the per-cell output.
#define QUALITY_ARGS                                                                           \
  CELL_ARGS, __global const REAL *points, const int measure, const REAL average_size,          \
    __global REAL *quality
#define QUALITY_CELL                                                                           \
  const int i = get_global_id(0);                                                              \
  if (i >= count)                                                                              \
    return;                                                                                    \
  __global const int* v = connectivity + cell_start(i)

__kernel void triangle_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  const REAL3 p0 = point_at(points, v[0]), p1 = point_at(points, v[1]), p2 = point_at(points, v[2]);
  REAL q;
  switch (measure)
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

__kernel void tetra_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  const REAL3 p0 = point_at(points, v[0]), p1 = point_at(points, v[1]);
  const REAL3 p2 = point_at(points, v[2]), p3 = point_at(points, v[3]);
  REAL q;
  switch (measure)
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

__kernel void quad_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  const REAL3 p0 = point_at(points, v[0]), p1 = point_at(points, v[1]);
  const REAL3 p2 = point_at(points, v[2]), p3 = point_at(points, v[3]);
  REAL q;
  switch (measure)
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

__kernel void hexahedron_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  REAL3 p[8];
  for (int k = 0; k < 8; ++k)
    p[k] = point_at(points, v[k]);
  REAL q;
  switch (measure)
  {
    case DIAGONAL: q = quality_hex_diagonal(p); break;
    case DIMENSION: q = quality_hex_dimension(p); break;
    case DISTORTION: q = quality_hex_distortion(p); break;
    case EDGE_RATIO: q = quality_hex_edge_ratio(p); break;
    case EQUIANGLE_SKEW: q = quality_hex_equiangle_skew(p); break;
    case JACOBIAN: q = quality_hex_jacobian(p); break;
    case MAX_EDGE_RATIO: q = quality_hex_max_edge_ratio(p); break;
    case MAX_ASPECT_FROBENIUS: q = quality_hex_max_aspect_frobenius(p); break;
    case MED_ASPECT_FROBENIUS: q = quality_hex_med_aspect_frobenius(p); break;
    case NODAL_JACOBIAN_RATIO: q = quality_hex_nodal_jacobian_ratio(p); break;
    case ODDY: q = quality_hex_oddy(p); break;
    case RELATIVE_SIZE_SQUARED: q = quality_hex_relative_size_squared(p, average_size); break;
    case SCALED_JACOBIAN: q = quality_hex_scaled_jacobian(p); break;
    case SHAPE: q = quality_hex_shape(p); break;
    case SHAPE_AND_SIZE: q = quality_hex_shape_and_size(p, average_size); break;
    case SHEAR: q = quality_hex_shear(p); break;
    case SHEAR_AND_SIZE: q = quality_hex_shear_and_size(p, average_size); break;
    case SKEW: q = quality_hex_skew(p); break;
    case STRETCH: q = quality_hex_stretch(p); break;
    case TAPER: q = quality_hex_taper(p); break;
    case VOLUME: q = quality_hex_volume(p); break;
    default: q = NAN;
  }
  quality[cell_ids[i]] = q;
}

__kernel void pyramid_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  REAL3 p[5];
  for (int k = 0; k < 5; ++k)
    p[k] = point_at(points, v[k]);
  REAL q;
  switch (measure)
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

__kernel void wedge_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  REAL3 p[6];
  for (int k = 0; k < 6; ++k)
    p[k] = point_at(points, v[k]);
  REAL q;
  switch (measure)
  {
    case CONDITION: q = quality_wedge_condition(p); break;
    case DISTORTION: q = quality_wedge_distortion(p); break;
    case EDGE_RATIO: q = quality_wedge_edge_ratio(p); break;
    case EQUIANGLE_SKEW: q = quality_wedge_equiangle_skew(p); break;
    case JACOBIAN: q = quality_wedge_jacobian(p); break;
    case MAX_ASPECT_FROBENIUS: q = quality_wedge_max_aspect_frobenius(p); break;
    case MAX_STRETCH: q = quality_wedge_max_stretch(p); break;
    case MEAN_ASPECT_FROBENIUS: q = quality_wedge_mean_aspect_frobenius(p); break;
    case SCALED_JACOBIAN: q = quality_wedge_scaled_jacobian(p); break;
    // ParaView 5.11's proxy offers wedge "Shape" as value 14 (vtkMeshQuality knows only 13).
    case SHAPE:
    case SHAPE_AND_SIZE: q = quality_wedge_shape(p); break;
    case VOLUME: q = quality_wedge_volume(p); break;
    default: q = NAN;
  }
  quality[cell_ids[i]] = q;
}

// The values of one group's cells, in group order: out[i] = values[cell_ids[i]] (what the
// per-kind statistics reduce).
__kernel void group_values(CELL_ARGS, __global const REAL* values, __global REAL* out)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  out[i] = values[cell_ids[i]];
}
