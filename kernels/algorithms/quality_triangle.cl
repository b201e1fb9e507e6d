// Triangle quality, each function the Verdict function of the same name (V_TriMetric.cpp of
// VTK 9.2, which ParaView 5.11's Mesh Quality calls) on the corners p0, p1, p2: the same formula,
// the same order of operations, the same sentinels for degenerate triangles (VERDICT_DBL_MAX,
// 0) and the same clamping to [-VERDICT_DBL_MAX, VERDICT_DBL_MAX].
#include "quality_common.cl"

// Hmax / Hmin, the longest edge over the shortest. VERDICT_DBL_MAX when an edge has length 0.
inline REAL quality_tri_edge_ratio(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL a2 = v_length_squared(p1 - p0);
  const REAL b2 = v_length_squared(p2 - p1);
  const REAL c2 = v_length_squared(p0 - p2);
  REAL m2, M2;
  if (a2 < b2)
  {
    if (b2 < c2)
    {
      m2 = a2;
      M2 = c2;
    }
    else if (a2 < c2)
    {
      m2 = a2;
      M2 = b2;
    }
    else
    {
      m2 = c2;
      M2 = b2;
    }
  }
  else if (a2 < c2)
  {
    m2 = b2;
    M2 = c2;
  }
  else if (b2 < c2)
  {
    m2 = b2;
    M2 = a2;
  }
  else
  {
    m2 = c2;
    M2 = a2;
  }
  if (m2 < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_clamp(sqrt(M2 / m2));
}

// Hmax / (2 sqrt(3) inradius). VERDICT_DBL_MAX for a triangle of zero area.
inline REAL quality_tri_aspect_ratio(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 a = p1 - p0, b = p2 - p1, c = p0 - p2;
  const REAL a1 = v_length(a), b1 = v_length(b), c1 = v_length(c);
  REAL hm = a1 > b1 ? a1 : b1;
  hm = hm > c1 ? hm : c1;
  const REAL denominator = v_length(v_cross(a, b));
  if (denominator < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_clamp(sqrt((REAL)3) / 6 * hm * (a1 + b1 + c1) / denominator);
}

// Circumradius / (2 inradius). VERDICT_DBL_MAX for a triangle of zero area.
inline REAL quality_tri_radius_ratio(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 a = p1 - p0, b = p2 - p1, c = p0 - p2;
  const REAL a1 = v_length(a), b1 = v_length(b), c1 = v_length(c);
  const REAL denominator = v_length_squared(v_cross(a, b));
  if (denominator < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_clamp((REAL)0.25 * a1 * b1 * c1 * (a1 + b1 + c1) / denominator);
}

// Sum of the squared edge lengths / (4 sqrt(3) area). VERDICT_DBL_MAX for zero area.
inline REAL quality_tri_aspect_frobenius(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 side1 = p1 - p0, side2 = p2 - p1, side3 = p0 - p2;
  const REAL srms = v_length_squared(side1) + v_length_squared(side2) + v_length_squared(side3);
  const REAL area_x2 = v_length(v_cross(side1, -side3));
  if (area_x2 == 0)
    return VERDICT_DBL_MAX;
  return verdict_clamp(srms / (2 * sqrt((REAL)3) * area_x2));
}

inline REAL quality_tri_area(REAL3 p0, REAL3 p1, REAL3 p2)
{
  return verdict_clamp(triangle_area(p0, p1, p2));
}

// The smallest angle, in degrees (opposite the shortest edge). 0 when an edge has length 0.
inline REAL quality_tri_minimum_angle(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 s0 = p1 - p0, s1 = p2 - p1, s2 = p2 - p0;
  const REAL l0 = v_length_squared(s0), l1 = v_length_squared(s1), l2 = v_length_squared(s2);
  if (l0 == 0 || l1 == 0 || l2 == 0)
    return 0;
  int shortest = 0;
  if (l1 < l0)
    shortest = 1;
  if (l2 < (shortest == 0 ? l0 : l1))
    shortest = 2;
  const REAL angle = shortest == 0 ? v_interior_angle(s2, s1)
    : shortest == 1                ? v_interior_angle(s0, s2)
                                   : v_interior_angle(s0, -s1);
  return verdict_clamp(angle);
}

// The largest angle, in degrees (opposite the longest edge). 0 when an edge has length 0.
inline REAL quality_tri_maximum_angle(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 s0 = p1 - p0, s1 = p2 - p1, s2 = p2 - p0;
  const REAL l0 = v_length_squared(s0), l1 = v_length_squared(s1), l2 = v_length_squared(s2);
  if (l0 == 0 || l1 == 0 || l2 == 0)
    return 0;
  int longest = 0;
  if (l1 > l0)
    longest = 1;
  if (l2 > (longest == 0 ? l0 : l1))
    longest = 2;
  const REAL angle = longest == 0 ? v_interior_angle(s2, s1)
    : longest == 1                ? v_interior_angle(s0, s2)
                                  : v_interior_angle(s0, -s1);
  return verdict_clamp(angle);
}

// max((largest angle - 60) / 120, (60 - smallest angle) / 60).
inline REAL quality_tri_equiangle_skew(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL min_angle = quality_tri_minimum_angle(p0, p1, p2);
  const REAL max_angle = quality_tri_maximum_angle(p0, p1, p2);
  const REAL skew_max = (max_angle - 60) / 120;
  const REAL skew_min = (60 - min_angle) / 60;
  return skew_max > skew_min ? skew_max : skew_min;
}

// Condition number of the Jacobian at a corner (weighted for the equilateral triangle).
// VERDICT_DBL_MAX for zero area.
inline REAL quality_tri_condition(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 v1 = p1 - p0, v2 = p2 - p0;
  const REAL area_x2 = v_length(v_cross(v1, v2));
  if (area_x2 == 0)
    return VERDICT_DBL_MAX;
  const REAL condition = (v_dot(v1, v1) + v_dot(v2, v2) - v_dot(v1, v2)) / (area_x2 * sqrt((REAL)3));
  return std_min(condition, VERDICT_DBL_MAX);
}

// The Jacobian over the largest product of two edge lengths, scaled to 1 for the equilateral
// triangle (never negative: the Jacobian is a length here). 0 when an edge has length 0.
inline REAL quality_tri_scaled_jacobian(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 e0 = p1 - p0, e1 = p2 - p0, e2 = p2 - p1;
  REAL jacobian = v_length(v_cross(e1 - e0, e2 - e0));
  const REAL l0 = v_length(e0), l1 = v_length(e1), l2 = v_length(e2);
  const REAL max_product = std_max(l0 * l1, std_max(l1 * l2, l0 * l2));
  if (max_product < VERDICT_DBL_MIN)
    return 0;
  jacobian *= 2 / sqrt((REAL)3);
  jacobian /= max_product;
  return verdict_clamp(jacobian);
}

// 1 / condition. VERDICT_DBL_MAX... clamped where the condition is not above VERDICT_DBL_MIN.
inline REAL quality_tri_shape(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL condition = quality_tri_condition(p0, p1, p2);
  const REAL shape = condition <= VERDICT_DBL_MIN ? VERDICT_DBL_MAX : 1 / condition;
  return verdict_clamp(shape);
}

// min(r, 1 / r)^2 where r is the area over `average_area`. 0 for zero area.
inline REAL quality_tri_relative_size_squared(REAL3 p0, REAL3 p1, REAL3 p2, REAL average_area)
{
  // tri_get_weight: the equilateral triangle of area average_area.
  const REAL scale = sqrt(2 * average_area / (sqrt((REAL)3) / 2));
  const REAL w11 = scale, w21 = 0, w12 = (REAL)0.5 * scale, w22 = (REAL)0.5 * sqrt((REAL)3) * scale;
  const REAL detw = w11 * w22 - w21 * w12;
  if (detw == 0)
    return 0;
  const REAL deta = v_length(v_cross(p0 - p1, p0 - p2));
  if (deta == 0 || detw == 0)
    return 0;
  const REAL ratio = deta / detw;
  const REAL size = ratio * ratio;
  return verdict_clamp(std_min(size, 1 / size));
}

inline REAL quality_tri_shape_and_size(REAL3 p0, REAL3 p1, REAL3 p2, REAL average_area)
{
  const REAL size = quality_tri_relative_size_squared(p0, p1, p2, average_area);
  const REAL shape = quality_tri_shape(p0, p1, p2);
  return verdict_clamp(size * shape);
}

// 1 for every linear triangle (Verdict measures distortion for 6-node triangles only).
inline REAL quality_tri_distortion(REAL3 p0, REAL3 p1, REAL3 p2)
{
  return 1;
}

// Verdict's tri_inradius: area / semi-perimeter, NaN for a triangle whose corners coincide.
inline REAL verdict_tri_inradius(REAL3 c0, REAL3 c1, REAL3 c2)
{
  const REAL3 s0 = c1 - c0, s1 = c2 - c1, s2 = c0 - c2;
  REAL sp = 0;
  sp += v_length(s0);
  sp += v_length(s1);
  sp += v_length(s2);
  sp /= 2;
  const REAL area = v_length(v_cross(s1, s0)) / 2;
  return area / sp;
}

// 4 x the smallest inradius of the four triangles made by the edge midpoints, over the
// circumradius: 1 for the equilateral triangle, 0 for a flat one, NaN where the corners coincide
// (as Verdict: no sentinel).
inline REAL quality_tri_normalized_inradius(REAL3 p0, REAL3 p1, REAL3 p2)
{
  const REAL3 m01 = (p0 + p1) * (REAL)0.5, m12 = (p1 + p2) * (REAL)0.5, m20 = (p2 + p0) * (REAL)0.5;
  REAL min_inradius = VERDICT_DBL_MAX;
  REAL r = verdict_tri_inradius(p0, m01, m20);
  if (r < min_inradius)
    min_inradius = r;
  r = verdict_tri_inradius(m01, p1, m12);
  if (r < min_inradius)
    min_inradius = r;
  r = verdict_tri_inradius(m20, m12, p2);
  if (r < min_inradius)
    min_inradius = r;
  r = verdict_tri_inradius(m01, m12, m20);
  if (r < min_inradius)
    min_inradius = r;
  // calculate_tri3_outer_radius
  const REAL3 s0 = p1 - p0, s1 = p2 - p1, s2 = p0 - p2;
  const REAL l0 = v_length(s0), l1 = v_length(s1), l2 = v_length(s2);
  REAL sp = 0;
  sp += l0;
  sp += l1;
  sp += l2;
  sp /= 2;
  const REAL area = v_length(v_cross(s1, s0)) / 2;
  const REAL ir = area / sp;
  const REAL outer_radius = (l0 * l1 * l2) / (4 * ir * sp);
  return 4 * min_inradius / outer_radius;
}
