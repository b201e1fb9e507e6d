// Quadrilateral quality, each function the Verdict function of the same name (V_QuadMetric.cpp
// of VTK 9.2, which ParaView 5.11's Mesh Quality calls) on the corners p0..p3 in VTK order: the
// same formula, order of operations, sentinels and clamping. A quad whose last two corners
// coincide is "collapsed": several measures then measure the triangle p0 p1 p2, as Verdict does.
#include "quality_triangle.cl"

inline int verdict_quad_collapsed(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  return p3.x == p2.x && p3.y == p2.y && p3.z == p2.z;
}

// make_quad_edges: e[k] from corner k to corner k + 1.
inline void verdict_quad_edges(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL3 e[4])
{
  e[0] = p1 - p0;
  e[1] = p2 - p1;
  e[2] = p3 - p2;
  e[3] = p0 - p3;
}

// signed_corner_areas: the corner normals projected on the unit normal at the centre.
inline void verdict_quad_corner_areas(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL areas[4])
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  const REAL3 n0 = v_cross(e[3], e[0]), n1 = v_cross(e[0], e[1]);
  const REAL3 n2 = v_cross(e[1], e[2]), n3 = v_cross(e[2], e[3]);
  const REAL3 unit = v_normalized(v_cross(e[0] - e[2], e[1] - e[3]));
  areas[0] = v_dot(unit, n0);
  areas[1] = v_dot(unit, n1);
  areas[2] = v_dot(unit, n2);
  areas[3] = v_dot(unit, n3);
}

// quad_normal: the mean of two corner normals that agree.
inline REAL3 verdict_quad_normal(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 norm0 = v_normalized(v_cross(p1 - p0, p3 - p0));
  REAL3 norm2 = v_normalized(v_cross(p3 - p2, p1 - p2));
  if (v_dot(norm0, norm2) > 0)
  {
    norm0 += norm2;
    norm0 *= (REAL)0.5;
    return norm0;
  }
  const REAL3 norm1 = v_normalized(v_cross(p2 - p1, p0 - p1));
  if (v_dot(norm0, norm1) > 0)
  {
    norm0 += norm1;
    norm0 *= (REAL)0.5;
    return norm0;
  }
  norm2 += norm1;
  norm2 *= (REAL)0.5;
  return norm2;
}

inline REAL quality_quad_edge_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  const REAL a2 = v_length_squared(e[0]), b2 = v_length_squared(e[1]);
  const REAL c2 = v_length_squared(e[2]), d2 = v_length_squared(e[3]);
  const REAL mab = a2 < b2 ? a2 : b2, Mab = a2 < b2 ? b2 : a2;
  const REAL mcd = c2 < d2 ? c2 : d2, Mcd = c2 < d2 ? d2 : c2;
  const REAL m2 = mab < mcd ? mab : mcd;
  const REAL M2 = Mab > Mcd ? Mab : Mcd;
  if (m2 < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_clamp(sqrt(M2 / m2));
}

inline REAL quality_quad_max_edge_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL len1 = v_length(p1 + p2 - p0 - p3), len2 = v_length(p2 + p3 - p0 - p1);
  if (len1 < VERDICT_DBL_MIN || len2 < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_clamp(std_max(len1 / len2, len2 / len1));
}

inline REAL quality_quad_aspect_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  const REAL a1 = v_length(e[0]), b1 = v_length(e[1]), c1 = v_length(e[2]), d1 = v_length(e[3]);
  const REAL ma = a1 > b1 ? a1 : b1, mb = c1 > d1 ? c1 : d1;
  const REAL hm = ma > mb ? ma : mb;
  const REAL denominator = v_length(v_cross(e[0], e[1])) + v_length(v_cross(e[2], e[3]));
  if (denominator < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_clamp((REAL)0.5 * hm * (a1 + b1 + c1 + d1) / denominator);
}

inline REAL quality_quad_radius_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  const REAL a2 = v_length_squared(e[0]), b2 = v_length_squared(e[1]);
  const REAL c2 = v_length_squared(e[2]), d2 = v_length_squared(e[3]);
  const REAL m2 = v_length_squared(p2 - p0), n2 = v_length_squared(p3 - p1);
  REAL t0 = a2 > b2 ? a2 : b2;
  REAL t1 = c2 > d2 ? c2 : d2;
  REAL t2 = m2 > n2 ? m2 : n2;
  REAL h2 = t0 > t1 ? t0 : t1;
  h2 = h2 > t2 ? h2 : t2;
  t0 = v_length(v_cross(e[3], e[0]));
  t1 = v_length(v_cross(e[0], e[1]));
  t2 = v_length(v_cross(e[1], e[2]));
  const REAL t3 = v_length(v_cross(e[2], e[3]));
  t0 = t0 < t1 ? t0 : t1;
  t2 = t2 < t3 ? t2 : t3;
  t0 = t0 < t2 ? t0 : t2;
  if (t0 < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_clamp(1 / (2 * sqrt((REAL)2)) * sqrt((a2 + b2 + c2 + d2) * h2) / t0);
}

// The four corner Frobenius aspects (a2 + b2) / |a x b|; 0 when one is degenerate.
inline int verdict_quad_frobenius_aspects(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL q[4])
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  const REAL a2 = v_length_squared(e[0]), b2 = v_length_squared(e[1]);
  const REAL c2 = v_length_squared(e[2]), d2 = v_length_squared(e[3]);
  const REAL ab1 = v_length(v_cross(e[0], e[1])), bc1 = v_length(v_cross(e[1], e[2]));
  const REAL cd1 = v_length(v_cross(e[2], e[3])), da1 = v_length(v_cross(e[3], e[0]));
  if (ab1 < VERDICT_DBL_MIN || bc1 < VERDICT_DBL_MIN || cd1 < VERDICT_DBL_MIN || da1 < VERDICT_DBL_MIN)
    return 0;
  q[0] = (a2 + b2) / ab1;
  q[1] = (b2 + c2) / bc1;
  q[2] = (c2 + d2) / cd1;
  q[3] = (d2 + a2) / da1;
  return 1;
}

// Verdict's quad_med_aspect_frobenius (ParaView's "Mean Aspect Frobenius" of quads).
inline REAL quality_quad_med_aspect_frobenius(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL q[4];
  if (!verdict_quad_frobenius_aspects(p0, p1, p2, p3, q))
    return VERDICT_DBL_MAX;
  REAL qsum = q[0];
  qsum += q[1];
  qsum += q[2];
  qsum += q[3];
  return verdict_clamp((REAL)0.125 * qsum);
}

inline REAL quality_quad_max_aspect_frobenius(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL q[4];
  if (!verdict_quad_frobenius_aspects(p0, p1, p2, p3, q))
    return VERDICT_DBL_MAX;
  REAL qmax = q[0];
  for (int k = 1; k < 4; ++k)
    qmax = qmax > q[k] ? qmax : q[k];
  return verdict_clamp((REAL)0.5 * qmax);
}

inline REAL quality_quad_skew(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 a0 = p1 + p2 - p3 - p0, a1 = p2 + p3 - p0 - p1;
  const REAL l0 = v_length(a0);
  if (l0 < VERDICT_DBL_MIN)
    return 0;
  a0 /= l0;
  const REAL l1 = v_length(a1);
  if (l1 < VERDICT_DBL_MIN)
    return 0;
  a1 /= l1;
  return std_min(fabs(v_dot(a0, a1)), VERDICT_DBL_MAX);
}

inline REAL quality_quad_taper(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 a0 = p1 + p2 - p3 - p0, a1 = p2 + p3 - p0 - p1;
  const REAL3 cross_derivative = p0 + p2 - p1 - p3;
  const REAL shortest = std_min(v_length(a0), v_length(a1));
  if (shortest < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return std_min(v_length(cross_derivative) / shortest, VERDICT_DBL_MAX);
}

// The cube of the smallest cosine between opposite corner normals; VERDICT_DBL_MIN (1e-30) when
// a corner is degenerate, as Verdict returns.
inline REAL quality_quad_warpage(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  REAL3 n[4] = { v_cross(e[3], e[0]), v_cross(e[0], e[1]), v_cross(e[1], e[2]), v_cross(e[2], e[3]) };
  for (int k = 0; k < 4; ++k)
  {
    const REAL mag = v_length(n[k]);
    if (mag != 0)
      n[k] /= mag;
    if (mag < VERDICT_DBL_MIN)
      return VERDICT_DBL_MIN;
  }
  return verdict_clamp(pow(std_min(v_dot(n[0], n[2]), v_dot(n[1], n[3])), (REAL)3));
}

// The Jacobian at the centre: the mean of the signed corner areas.
inline REAL quality_quad_area(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL areas[4];
  verdict_quad_corner_areas(p0, p1, p2, p3, areas);
  return verdict_clamp((REAL)0.25 * (areas[0] + areas[1] + areas[2] + areas[3]));
}

inline REAL quality_quad_stretch(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  const REAL l0 = v_length_squared(e[0]), l1 = v_length_squared(e[1]);
  const REAL l2 = v_length_squared(e[2]), l3 = v_length_squared(e[3]);
  const REAL diagonal = std_max(v_length_squared(p2 - p0), v_length_squared(p3 - p1));
  if (diagonal < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  const REAL stretch = sqrt((REAL)2) * sqrt(std_min(std_min(l0, l1), std_min(l2, l3)) / diagonal);
  return std_min(stretch, VERDICT_DBL_MAX);
}

// The four corner angles in radians (acos of the cosines); 0 when an edge is not longer than
// VERDICT_DBL_MIN.
inline int verdict_quad_angles(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL angles[4])
{
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  REAL l[4];
  for (int k = 0; k < 4; ++k)
    l[k] = v_length(e[k]);
  if (l[0] <= VERDICT_DBL_MIN || l[1] <= VERDICT_DBL_MIN || l[2] <= VERDICT_DBL_MIN || l[3] <= VERDICT_DBL_MIN)
    return 0;
  for (int k = 0; k < 4; ++k)
    angles[k] = acos(-v_dot(e[k], e[(k + 1) % 4]) / (l[k] * l[(k + 1) % 4]));
  return 1;
}

inline int verdict_quad_any_negative_area(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL areas[4];
  verdict_quad_corner_areas(p0, p1, p2, p3, areas);
  return areas[0] < 0 || areas[1] < 0 || areas[2] < 0 || areas[3] < 0;
}

inline REAL quality_quad_maximum_angle(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  if (verdict_quad_collapsed(p0, p1, p2, p3))
    return quality_tri_maximum_angle(p0, p1, p2);
  REAL angles[4];
  if (!verdict_quad_angles(p0, p1, p2, p3, angles))
    return 0;
  REAL max_angle = 0;
  for (int k = 0; k < 4; ++k)
    max_angle = std_max(angles[k], max_angle);
  max_angle = max_angle * 180 / VERDICT_PI;
  if (verdict_quad_any_negative_area(p0, p1, p2, p3))
    max_angle = 360 - max_angle;
  return verdict_clamp(max_angle);
}

inline REAL quality_quad_minimum_angle(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  if (verdict_quad_collapsed(p0, p1, p2, p3))
    return quality_tri_minimum_angle(p0, p1, p2);
  REAL angles[4];
  if (!verdict_quad_angles(p0, p1, p2, p3, angles))
    return 360;
  REAL min_angle = 360;
  for (int k = 0; k < 4; ++k)
    min_angle = std_min(angles[k], min_angle);
  min_angle = min_angle * 180 / VERDICT_PI;
  return verdict_clamp(min_angle);
}

// Verdict's quad_minimum_maximum_angle, in degrees: the triangle p0 p1 p2's when collapsed, 360
// and 0 when an edge is not longer than VERDICT_DBL_MIN; the largest angle is 360 minus itself
// when a corner area is negative.
inline void verdict_quad_minimum_maximum_angle(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL* min_out, REAL* max_out)
{
  if (verdict_quad_collapsed(p0, p1, p2, p3))
  {
    *min_out = quality_tri_minimum_angle(p0, p1, p2);
    *max_out = quality_tri_maximum_angle(p0, p1, p2);
    return;
  }
  REAL angles[4];
  if (!verdict_quad_angles(p0, p1, p2, p3, angles))
  {
    *min_out = 360;
    *max_out = 0;
    return;
  }
  REAL min_angle = 360, max_angle = 0;
  for (int k = 0; k < 4; ++k)
  {
    min_angle = std_min(angles[k], min_angle);
    max_angle = std_max(angles[k], max_angle);
  }
  max_angle = max_angle * 180 / VERDICT_PI;
  min_angle = min_angle * 180 / VERDICT_PI;
  *min_out = std_max(min_angle, -VERDICT_DBL_MAX);
  if (verdict_quad_any_negative_area(p0, p1, p2, p3))
    max_angle = 360 - max_angle;
  *max_out = std_max(max_angle, -VERDICT_DBL_MAX);
}

// max((largest angle - 90) / 90, (90 - smallest angle) / 90).
inline REAL quality_quad_equiangle_skew(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL min_angle, max_angle;
  verdict_quad_minimum_maximum_angle(p0, p1, p2, p3, &min_angle, &max_angle);
  const REAL skew_max = (max_angle - 90) / 90;
  const REAL skew_min = (90 - min_angle) / 90;
  return skew_max > skew_min ? skew_max : skew_min;
}

inline REAL quality_quad_oddy(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 p[4] = { p0, p1, p2, p3 };
  REAL max_oddy = 0;
  for (int i = 0; i < 4; ++i)
  {
    const REAL3 first = p[i] - p[(i + 1) % 4], second = p[i] - p[(i + 3) % 4];
    const REAL g11 = v_dot(first, first), g12 = v_dot(first, second), g22 = v_dot(second, second);
    const REAL g = g11 * g22 - g12 * g12;
    const REAL oddy = g < VERDICT_DBL_MIN ? VERDICT_DBL_MAX : ((g11 - g22) * (g11 - g22) + 4 * g12 * g12) / 2 / g;
    max_oddy = std_max(max_oddy, oddy);
  }
  return verdict_clamp(max_oddy);
}

inline REAL quality_quad_condition(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  if (verdict_quad_collapsed(p0, p1, p2, p3))
    return quality_tri_condition(p0, p1, p2);
  REAL areas[4];
  verdict_quad_corner_areas(p0, p1, p2, p3, areas);
  const REAL3 p[4] = { p0, p1, p2, p3 };
  REAL max_condition = 0;
  for (int i = 0; i < 4; ++i)
  {
    const REAL3 xxi = p[i] - p[(i + 1) % 4], xet = p[i] - p[(i + 3) % 4];
    const REAL condition = areas[i] < VERDICT_DBL_MIN ? VERDICT_DBL_MAX : (v_dot(xxi, xxi) + v_dot(xet, xet)) / areas[i];
    max_condition = std_max(max_condition, condition);
  }
  if (max_condition >= VERDICT_DBL_MAX)
    return VERDICT_DBL_MAX;
  if (max_condition <= -VERDICT_DBL_MAX)
    return -VERDICT_DBL_MAX;
  return max_condition / 2;
}

// The smallest signed corner area (twice the area of the triangle p0 p1 p2 when collapsed).
inline REAL quality_quad_jacobian(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  if (verdict_quad_collapsed(p0, p1, p2, p3))
    return quality_tri_area(p0, p1, p2) * 2;
  REAL areas[4];
  verdict_quad_corner_areas(p0, p1, p2, p3, areas);
  return verdict_clamp(std_min(std_min(areas[0], areas[1]), std_min(areas[2], areas[3])));
}

inline REAL quality_quad_scaled_jacobian(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  if (verdict_quad_collapsed(p0, p1, p2, p3))
    return quality_tri_scaled_jacobian(p0, p1, p2);
  REAL areas[4];
  verdict_quad_corner_areas(p0, p1, p2, p3, areas);
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  REAL l[4];
  for (int k = 0; k < 4; ++k)
    l[k] = v_length(e[k]);
  if (l[0] < VERDICT_DBL_MIN || l[1] < VERDICT_DBL_MIN || l[2] < VERDICT_DBL_MIN || l[3] < VERDICT_DBL_MIN)
    return 0;
  REAL min_scaled = VERDICT_DBL_MAX;
  min_scaled = std_min(areas[0] / (l[0] * l[3]), min_scaled);
  min_scaled = std_min(areas[1] / (l[1] * l[0]), min_scaled);
  min_scaled = std_min(areas[2] / (l[2] * l[1]), min_scaled);
  min_scaled = std_min(areas[3] / (l[3] * l[2]), min_scaled);
  return verdict_clamp(min_scaled);
}

inline REAL quality_quad_shear(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL scaled_jacobian = quality_quad_scaled_jacobian(p0, p1, p2, p3);
  return scaled_jacobian <= VERDICT_DBL_MIN ? 0 : std_min(scaled_jacobian, VERDICT_DBL_MAX);
}

inline REAL quality_quad_shape(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL areas[4];
  verdict_quad_corner_areas(p0, p1, p2, p3, areas);
  REAL3 e[4];
  verdict_quad_edges(p0, p1, p2, p3, e);
  REAL l[4];
  for (int k = 0; k < 4; ++k)
    l[k] = v_length_squared(e[k]);
  if (l[0] <= VERDICT_DBL_MIN || l[1] <= VERDICT_DBL_MIN || l[2] <= VERDICT_DBL_MIN || l[3] <= VERDICT_DBL_MIN)
    return 0;
  REAL min_shape = VERDICT_DBL_MAX;
  min_shape = std_min(areas[0] / (l[0] + l[3]), min_shape);
  min_shape = std_min(areas[1] / (l[1] + l[0]), min_shape);
  min_shape = std_min(areas[2] / (l[2] + l[1]), min_shape);
  min_shape = std_min(areas[3] / (l[3] + l[2]), min_shape);
  min_shape *= 2;
  if (min_shape < VERDICT_DBL_MIN)
    min_shape = 0;
  return verdict_clamp(min_shape);
}

inline REAL quality_quad_relative_size_squared(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL average_area)
{
  const REAL area = quality_quad_area(p0, p1, p2, p3);
  // quad_get_weight: the unit square scaled to average_area.
  const REAL scale = sqrt(average_area / (1 * 1 - 0 * 0));
  const REAL avg_area = scale * scale - 0 * 0;
  REAL rel_size = 0;
  if (avg_area > VERDICT_DBL_MIN)
  {
    const REAL w = area / avg_area;
    if (w > VERDICT_DBL_MIN)
    {
      rel_size = std_min(w, 1 / w);
      rel_size *= rel_size;
    }
  }
  return verdict_clamp(rel_size);
}

inline REAL quality_quad_shape_and_size(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL average_area)
{
  const REAL size = quality_quad_relative_size_squared(p0, p1, p2, p3, average_area);
  const REAL shape = quality_quad_shape(p0, p1, p2, p3);
  return verdict_clamp(shape * size);
}

inline REAL quality_quad_shear_and_size(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL average_area)
{
  const REAL shear = quality_quad_shear(p0, p1, p2, p3);
  const REAL size = quality_quad_relative_size_squared(p0, p1, p2, p3, average_area);
  return verdict_clamp(shear * size);
}

// Verdict's quad_distortion of a 4-node quad: the smallest Jacobian over the 2 x 2 Gauss points
// and the corners of a thin shell on the quad, over its area, times the parent area (4); a
// collapsed quad as the triangle p0 p1 p2. Not clamped (as Verdict).
inline REAL quality_quad_distortion(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 p[4] = { p0, p1, p2, p3 };
  const REAL3 face_normal = verdict_quad_normal(p0, p1, p2, p3);
  REAL distortion = VERDICT_DBL_MAX;
  if (verdict_quad_collapsed(p0, p1, p2, p3))
  {
    REAL3 first, second;
    for (int i = 0; i < 3; ++i)
    {
      first = p[i] - p[(i + 1) % 3];
      second = p[i] - p[(i + 2) % 3];
      const REAL sign = v_dot(face_normal, v_cross(first, second)) > 0 ? 1 : -1;
      distortion = std_min(distortion, sign * v_length(v_cross(first, second)));
    }
    const REAL element_area = v_length(v_cross(first, second)) / 2;
    return distortion / element_area;
  }
  // GaussIntegration: 2 x 2 points, y1 the outer loop.
  const REAL g[2] = { (REAL)-0.577350269189626, (REAL)0.577350269189626 };
  REAL shape[4][4], dndy1[4][4], dndy2[4][4];
  for (int i = 0, ife = 0; i < 2; ++i)
  {
    for (int j = 0; j < 2; ++j, ++ife)
    {
      const REAL y1 = g[i], y2 = g[j];
      shape[ife][0] = (REAL)0.25 * (1 - y1) * (1 - y2);
      shape[ife][1] = (REAL)0.25 * (1 + y1) * (1 - y2);
      shape[ife][2] = (REAL)0.25 * (1 + y1) * (1 + y2);
      shape[ife][3] = (REAL)0.25 * (1 - y1) * (1 + y2);
      dndy1[ife][0] = (REAL)-0.25 * (1 - y2);
      dndy1[ife][1] = (REAL)0.25 * (1 - y2);
      dndy1[ife][2] = (REAL)0.25 * (1 + y2);
      dndy1[ife][3] = (REAL)-0.25 * (1 + y2);
      dndy2[ife][0] = (REAL)-0.25 * (1 - y1);
      dndy2[ife][1] = (REAL)-0.25 * (1 + y1);
      dndy2[ife][2] = (REAL)0.25 * (1 + y1);
      dndy2[ife][3] = (REAL)0.25 * (1 - y1);
    }
  }
  REAL element_area = 0;
  for (int ife = 0; ife < 4; ++ife)
  {
    REAL3 aa = (REAL3)(0), bb = (REAL3)(0);
    for (int ja = 0; ja < 4; ++ja)
    {
      aa += dndy1[ife][ja] * p[ja];
      bb += dndy2[ife][ja] * p[ja];
    }
    element_area += 1 * v_length(v_cross(aa, bb));
  }
  // Derivatives at the corners (-1, -1), (1, -1), (1, 1), (-1, 1).
  const REAL corner_y1[4] = { -1, 1, 1, -1 }, corner_y2[4] = { -1, -1, 1, 1 };
  REAL at_node1[4][4], at_node2[4][4];
  for (int i = 0; i < 4; ++i)
  {
    const REAL y1 = corner_y1[i], y2 = corner_y2[i];
    at_node1[i][0] = (REAL)-0.25 * (1 - y2);
    at_node1[i][1] = (REAL)0.25 * (1 - y2);
    at_node1[i][2] = (REAL)0.25 * (1 + y2);
    at_node1[i][3] = (REAL)-0.25 * (1 + y2);
    at_node2[i][0] = (REAL)-0.25 * (1 - y1);
    at_node2[i][1] = (REAL)-0.25 * (1 + y1);
    at_node2[i][2] = (REAL)0.25 * (1 + y1);
    at_node2[i][3] = (REAL)0.25 * (1 - y1);
  }
  REAL3 normal_at_nodes[4];
  for (int ja = 0; ja < 4; ++ja)
  {
    REAL3 aa = (REAL3)(0), bb = (REAL3)(0);
    for (int jai = 0; jai < 4; ++jai)
    {
      aa += at_node1[ja][jai] * p[jai];
      bb += at_node2[ja][jai] * p[jai];
    }
    normal_at_nodes[ja] = v_normalized(v_cross(aa, bb));
  }
  int flat = 1;
  for (int ja = 0; ja < 4; ++ja)
  {
    if (fabs(v_dot(normal_at_nodes[0], normal_at_nodes[ja])) < (REAL)0.99)
    {
      flat = 0;
      break;
    }
  }
  const REAL thickness = (REAL)0.001 * sqrt(element_area);
  REAL zl = flat ? 0 : (REAL)0.5773502691896;
  const int gauss_z = flat ? 1 : 2;
  for (int ife = 0; ife < 4; ++ife)
  {
    for (int igz = 0; igz < gauss_z; ++igz)
    {
      zl = -zl;
      const REAL thickness_z = zl * thickness / 2;
      REAL3 aa = (REAL3)(0), bb = (REAL3)(0), cc = (REAL3)(0);
      for (int ja = 0; ja < 4; ++ja)
      {
        REAL3 xin = p[ja];
        xin += thickness_z * normal_at_nodes[ja];
        aa += dndy1[ife][ja] * xin;
        bb += dndy2[ife][ja] * xin;
        const REAL thickness_gauss = shape[ife][ja] * thickness / 2;
        cc += thickness_gauss * normal_at_nodes[ja];
      }
      const REAL distrt = v_dot(cc, v_cross(aa, bb));
      if (distrt < distortion)
        distortion = distrt;
    }
  }
  for (int ja = 0; ja < 4; ++ja)
  {
    REAL3 aa, bb, cc;
    for (int igz = 0; igz < gauss_z; ++igz)
    {
      zl = -zl;
      const REAL thickness_z = zl * thickness / 2;
      aa = (REAL3)(0);
      bb = (REAL3)(0);
      cc = (REAL3)(0);
      for (int jai = 0; jai < 4; ++jai)
      {
        REAL3 xin = p[jai];
        xin += thickness_z * normal_at_nodes[ja];
        aa += at_node1[ja][jai] * xin;
        bb += at_node2[ja][jai] * xin;
        const REAL thickness_gauss = jai == ja ? thickness / 2 : 0;
        cc += thickness_gauss * normal_at_nodes[jai];
      }
    }
    const REAL3 normal_at_point = v_cross(aa, bb);
    const REAL sign = v_dot(face_normal, normal_at_point) > 0 ? 1 : -1;
    const REAL distrt = sign * v_dot(cc, normal_at_point);
    if (distrt < distortion)
      distortion = distrt;
  }
  if (element_area * thickness != 0)
    distortion *= 8 / (element_area * thickness);
  else
    distortion *= 8;
  return distortion;
}
