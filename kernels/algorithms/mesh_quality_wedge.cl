// GPU Mesh Quality of wedge cells: the measure chosen for the kind (numbered as vtkMeshQuality's
// QualityMeasureTypes) for every cell of a group; cell i writes quality[cell_ids[i]]. The
// formulas live in quality_wedge.cl, one function per measure, which user kernels can call too. A
// measure the switch does not list gives NaN (the host refuses such measures before launching).
// A program per kind (on GPUs per kind and measure: MEASURE in quality_measures.cl).
#include "quality_wedge.cl"
#include "quality_measures.cl"

__kernel void wedge_quality(QUALITY_ARGS)
{
  QUALITY_CELL;
  REAL3 p[6];
  for (int k = 0; k < 6; ++k)
    p[k] = point_at(points, v[k]);
  REAL q;
  switch (MEASURE)
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
