// GPU Mesh Quality of hexahedron cells: the measure chosen for the kind (numbered as vtkMeshQuality's
// QualityMeasureTypes) for every cell of a group; cell i writes quality[cell_ids[i]]. The
// formulas live in quality_hexahedron.cl, one function per measure, which user kernels can call too. A
// measure the switch does not list gives NaN (the host refuses such measures before launching).
// A program per kind (on GPUs per kind and measure: MEASURE in quality_measures.cl).
#include "quality_hexahedron.cl"
#include "quality_measures.cl"

__kernel void hexahedron_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  REAL3 p[8];
  for (int k = 0; k < 8; ++k)
    p[k] = point_at(points, v[k]);
  REAL q;
  switch (MEASURE)
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
