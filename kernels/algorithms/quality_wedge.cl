// Wedge quality, each function the Verdict function of the same name (V_WedgeMetric.cpp of VTK
// 9.2, which ParaView 5.11's Mesh Quality calls) on the corners p[0..5] in VTK order (the
// triangles 0-1-2 and 3-4-5, k above k + 3), built on the tetrahedron, triangle and quad
// functions as Verdict's.
#include "quality_tetra.cl"
#include "quality_quad.cl"

// The corner frames of the Jacobian measures: at corner k, vec1, vec2, vec3 go to
// WEDGE_FRAME[k][0..2], and the Jacobian is vec2 . (vec1 x vec3).
__constant int WEDGE_FRAME[6][3] = { { 1, 3, 2 }, { 2, 4, 0 }, { 0, 5, 1 }, { 0, 4, 5 }, { 1, 5, 3 }, { 3, 4, 2 } };
// The quad faces (make_wedge_faces).
__constant int WEDGE_QUADS[3][4] = { { 0, 1, 4, 3 }, { 1, 2, 5, 4 }, { 2, 0, 3, 5 } };

inline REAL verdict_wedge_jacobian_at(const REAL3 p[6], int k, REAL* squares)
{
  const REAL3 vec1 = p[WEDGE_FRAME[k][0]] - p[k], vec2 = p[WEDGE_FRAME[k][1]] - p[k], vec3 = p[WEDGE_FRAME[k][2]] - p[k];
  squares[0] = v_length_squared(vec1);
  squares[1] = v_length_squared(vec2);
  squares[2] = v_length_squared(vec3);
  return v_dot(vec2, v_cross(vec1, vec3));
}

// The ratio of the longest to the shortest of the nine edges (1 at least; VERDICT_DBL_MAX for
// 0 / 0).
inline REAL quality_wedge_edge_ratio(const REAL3 p[6])
{
  const int edges[9][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 3, 4 }, { 4, 5 }, { 5, 3 }, { 0, 3 }, { 1, 4 }, { 2, 5 } };
  REAL max = v_length_squared(p[1] - p[0]), min = max;
  for (int e = 1; e < 9; ++e)
  {
    const REAL l = v_length_squared(p[edges[e][1]] - p[edges[e][0]]);
    if (max <= l)
      max = l;
    if (l <= min)
      min = l;
  }
  const REAL ratio = sqrt(max / min);
  if (isnan(ratio))
    return VERDICT_DBL_MAX;
  if (ratio < 1)
    return 1;
  return std_min(ratio, VERDICT_DBL_MAX);
}

// The tetrahedron Aspect Frobenius at the six corners (Verdict's `aspects`).
inline void verdict_wedge_aspects(const REAL3 p[6], REAL a[6])
{
  a[0] = quality_tet_aspect_frobenius(p[0], p[1], p[2], p[3]);
  a[1] = quality_tet_aspect_frobenius(p[1], p[2], p[0], p[4]);
  a[2] = quality_tet_aspect_frobenius(p[2], p[0], p[1], p[5]);
  a[3] = quality_tet_aspect_frobenius(p[3], p[5], p[4], p[0]);
  a[4] = quality_tet_aspect_frobenius(p[4], p[3], p[5], p[1]);
  a[5] = quality_tet_aspect_frobenius(p[5], p[4], p[3], p[2]);
}

// The largest corner aspect over that of the right unit wedge (1.16477), at least 1; also
// Verdict's wedge_condition.
inline REAL quality_wedge_max_aspect_frobenius(const REAL3 p[6])
{
  REAL a[6];
  verdict_wedge_aspects(p, a);
  REAL max_aspect = a[0];
  for (int k = 1; k < 6; ++k)
    max_aspect = std_max(max_aspect, a[k]);
  if (max_aspect >= VERDICT_DBL_MAX)
    return VERDICT_DBL_MAX;
  max_aspect /= (REAL)1.16477;
  return std_max(max_aspect, 1);
}

inline REAL quality_wedge_mean_aspect_frobenius(const REAL3 p[6])
{
  REAL a[6];
  verdict_wedge_aspects(p, a);
  REAL mean = a[0] + a[1] + a[2] + a[3] + a[4] + a[5];
  if (mean >= VERDICT_DBL_MAX)
    return VERDICT_DBL_MAX;
  mean /= (6 * (REAL)1.16477);
  return std_max(mean, 1);
}

inline REAL quality_wedge_condition(const REAL3 p[6])
{
  return quality_wedge_max_aspect_frobenius(p);
}

// The smallest corner Jacobian.
inline REAL quality_wedge_jacobian(const REAL3 p[6])
{
  REAL squares[3];
  REAL min_jacobian = verdict_wedge_jacobian_at(p, 0, squares);
  for (int k = 1; k < 6; ++k)
    min_jacobian = std_min(verdict_wedge_jacobian_at(p, k, squares), min_jacobian);
  return verdict_clamp(min_jacobian);
}

// The 11 tetrahedra between the corners and the centres of the quad faces (not clamped).
inline REAL quality_wedge_volume(const REAL3 p[6])
{
  const REAL3 c0 = (p[0] + p[1] + p[3] + p[4]) / 4;
  const REAL3 c1 = (p[1] + p[2] + p[4] + p[5]) / 4;
  const REAL3 c2 = (p[2] + p[0] + p[3] + p[5]) / 4;
  REAL volume = 0;
  volume += quality_tet_volume(p[0], p[3], c0, c2);
  volume += quality_tet_volume(p[1], p[4], c1, c0);
  volume += quality_tet_volume(p[2], p[5], c2, c1);
  volume += quality_tet_volume(c0, c2, c1, p[0]);
  volume += quality_tet_volume(p[1], c0, c1, p[0]);
  volume += quality_tet_volume(p[2], p[1], c1, p[0]);
  volume += quality_tet_volume(p[2], c1, c2, p[0]);
  volume += quality_tet_volume(c0, c1, c2, p[3]);
  volume += quality_tet_volume(p[5], c2, c1, p[3]);
  volume += quality_tet_volume(p[4], p[5], c1, p[3]);
  volume += quality_tet_volume(p[4], c1, c0, p[3]);
  return volume;
}

// The smallest corner Jacobian times the unit wedge's volume (0.433013) over the volume and
// over the unit wedge's Jacobian (0.866025).
inline REAL quality_wedge_distortion(const REAL3 p[6])
{
  const REAL jacobian = quality_wedge_jacobian(p);
  const REAL volume = quality_wedge_volume(p);
  REAL distortion = VERDICT_DBL_MAX;
  if (fabs(volume) > 0)
    distortion = jacobian * (REAL)0.433013 / volume / (REAL)0.866025;
  if (isnan(distortion))
    return VERDICT_DBL_MAX;
  if (distortion >= VERDICT_DBL_MAX)
    return VERDICT_DBL_MAX;
  if (distortion <= -VERDICT_DBL_MAX)
    return -VERDICT_DBL_MAX;
  return distortion;
}

// The largest Stretch of the three quad faces.
inline REAL quality_wedge_max_stretch(const REAL3 p[6])
{
  REAL stretch = 0;
  for (int f = 0; f < 3; ++f)
  {
    const REAL s = quality_quad_stretch(p[WEDGE_QUADS[f][0]], p[WEDGE_QUADS[f][1]], p[WEDGE_QUADS[f][2]], p[WEDGE_QUADS[f][3]]);
    stretch = f == 0 ? s : std_max(stretch, s);
  }
  return verdict_clamp(stretch);
}

// The smallest corner Jacobian over the edge lengths, scaled to 1 for the right unit wedge.
inline REAL quality_wedge_scaled_jacobian(const REAL3 p[6])
{
  REAL min_jacobian = 0;
  for (int k = 0; k < 6; ++k)
  {
    REAL squares[3];
    const REAL jacobian = verdict_wedge_jacobian_at(p, k, squares);
    const REAL lengths = sqrt(squares[0] * squares[1] * squares[2]);
    min_jacobian = k == 0 ? jacobian / lengths : std_min(jacobian / lengths, min_jacobian);
  }
  min_jacobian *= 2 / sqrt((REAL)3);
  return verdict_clamp(min_jacobian);
}

// 3 / the largest corner mean ratio (1 for the right unit wedge); 0 when a corner Jacobian is
// not positive.
inline REAL quality_wedge_shape(const REAL3 p[6])
{
  REAL min_shape = 1;
  for (int k = 0; k < 6; ++k)
  {
    REAL squares[3];
    const REAL jacobian = verdict_wedge_jacobian_at(p, k, squares);
    if (!(jacobian > VERDICT_DBL_MIN))
      return 0;
    const REAL norm_jacobi = jacobian * 2 / sqrt((REAL)3);
    const REAL shape = 3 * pow(norm_jacobi, (REAL)2 / 3) / (squares[0] + squares[1] + squares[2]);
    min_shape = std_min(shape, min_shape);
  }
  if (min_shape < VERDICT_DBL_MIN)
    return 0;
  return min_shape;
}

// The largest skew of the two triangles and the three quads.
inline REAL quality_wedge_equiangle_skew(const REAL3 p[6])
{
  REAL max_skew = quality_tri_equiangle_skew(p[0], p[1], p[2]);
  const REAL top = quality_tri_equiangle_skew(p[3], p[4], p[5]);
  max_skew = max_skew > top ? max_skew : top;
  for (int f = 0; f < 3; ++f)
  {
    const REAL skew = quality_quad_equiangle_skew(p[WEDGE_QUADS[f][0]], p[WEDGE_QUADS[f][1]], p[WEDGE_QUADS[f][2]], p[WEDGE_QUADS[f][3]]);
    max_skew = max_skew > skew ? max_skew : skew;
  }
  return max_skew;
}
