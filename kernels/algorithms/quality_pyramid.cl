// Pyramid quality, each function the Verdict function of the same name (V_PyramidMetric.cpp of
// VTK 9.2, which ParaView 5.11's Mesh Quality calls) on the corners p[0..4] in VTK order (the
// base 0-1-2-3, the apex 4), built on the tetrahedron, triangle and quad functions as Verdict's.
#include "quality_tetra.cl"
#include "quality_quad.cl"

// The four tetrahedra of make_pyramid_tets.
__constant int PYRAMID_TETS[4][4] = { { 0, 1, 2, 4 }, { 0, 2, 3, 4 }, { 0, 1, 3, 4 }, { 1, 2, 3, 4 } };

// The largest skew of the base and the four side triangles.
inline REAL quality_pyramid_equiangle_skew(const REAL3 p[5])
{
  REAL max_skew = quality_quad_equiangle_skew(p[0], p[1], p[2], p[3]);
  for (int k = 0; k < 4; ++k)
  {
    const REAL skew = quality_tri_equiangle_skew(p[k], p[(k + 1) % 4], p[4]);
    max_skew = max_skew > skew ? max_skew : skew;
  }
  return max_skew;
}

// The four tetrahedra from each base edge and the base centre to the apex (not clamped).
inline REAL quality_pyramid_volume(const REAL3 p[5])
{
  const REAL3 centre = (p[0] + p[1] + p[2] + p[3]) / 4;
  REAL volume = 0;
  for (int k = 0; k < 4; ++k)
    volume += quality_tet_volume(p[k], p[(k + 1) % 4], centre, p[4]);
  return volume;
}

// The smallest Jacobian of the four tetrahedra (not clamped).
inline REAL quality_pyramid_jacobian(const REAL3 p[5])
{
  REAL j[4];
  for (int t = 0; t < 4; ++t)
    j[t] = quality_tet_jacobian(p[PYRAMID_TETS[t][0]], p[PYRAMID_TETS[t][1]], p[PYRAMID_TETS[t][2]], p[PYRAMID_TETS[t][3]]);
  const REAL a = j[0] < j[1] ? j[0] : j[1];
  const REAL b = j[2] < j[3] ? j[2] : j[3];
  return a < b ? a : b;
}

// The smallest scaled Jacobian of the four tetrahedra times sqrt(2), folded back below 1 (1 for
// the pyramid of half an octahedron); 0 when not positive.
inline REAL quality_pyramid_scaled_jacobian(const REAL3 p[5])
{
  REAL smallest = 0;
  for (int t = 0; t < 4; ++t)
  {
    const REAL s = quality_tet_scaled_jacobian(p[PYRAMID_TETS[t][0]], p[PYRAMID_TETS[t][1]], p[PYRAMID_TETS[t][2]], p[PYRAMID_TETS[t][3]]);
    if (t == 0 || s < smallest)
      smallest = s;
  }
  if (smallest <= 0)
    return 0;
  const REAL min_jac = smallest * 2 / sqrt((REAL)2);
  return min_jac < 1 ? min_jac : 1 - (min_jac - 1);
}

// The base's quad shape times the cosine of the apex's lean times the apex height over the
// longest edge / sqrt(2) (or its inverse), as Verdict's pyramid_shape; 0 for a flat or inverted
// pyramid. Verdict's largest_pyramid_edge starts from the smaller of the first two base edges.
inline REAL quality_pyramid_shape(const REAL3 p[5])
{
  const REAL s1 = quality_quad_shape(p[0], p[1], p[2], p[3]);
  if (s1 == 0)
    return 0;
  // distance_point_to_pyramid_base
  const REAL3 centroid = (p[0] + p[1] + p[2] + p[3]) / 4;
  const REAL3 normal = v_cross(p[1] - p[0], p[3] - p[0]);
  const REAL3 pq = p[4] - centroid;
  REAL distance = v_dot(pq, normal) / v_length(normal);
  const REAL cos_angle = distance / v_length(pq);
  if (distance <= 0 || cos_angle <= 0)
    return 0;
  // largest_pyramid_edge
  REAL l[8];
  for (int k = 0; k < 4; ++k)
  {
    l[k] = v_length_squared(p[(k + 1) % 4] - p[k]);
    l[k + 4] = v_length_squared(p[4] - p[k]);
  }
  REAL longest = std_min(l[0], l[1]);
  for (int k = 2; k < 8; ++k)
    longest = std_max(longest, l[k]);
  const REAL edge = sqrt(longest) * (sqrt((REAL)2) / 2);
  distance = distance < edge ? distance / edge : edge / distance;
  return s1 * cos_angle * distance;
}
