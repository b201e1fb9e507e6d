// Hexahedron quality, each function the Verdict function of the same name (V_HexMetric.cpp of
// VTK 9.2, which ParaView 5.11's Mesh Quality calls) on the corners p[0..7] in VTK order (0-1-2-3
// the bottom face, 4-5-6-7 the top one): the same formula, order of operations, sentinels and
// clamping as Verdict, function by function.
#include "quality_quad.cl"

// The Jacobian frame at each corner: corner k's three edges go to HEX_FRAME[k][0..2].
__constant int HEX_FRAME[8][3] = { { 1, 3, 4 }, { 2, 0, 5 }, { 3, 1, 6 }, { 0, 2, 7 }, { 7, 5, 0 },
  { 4, 6, 1 }, { 5, 7, 2 }, { 6, 4, 3 } };
// make_hex_edges: edge e goes from HEX_EDGE[e][0] to HEX_EDGE[e][1].
__constant int HEX_EDGE[12][2] = { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 }, { 4, 5 }, { 5, 6 }, { 6, 7 },
  { 7, 4 }, { 0, 4 }, { 1, 5 }, { 2, 6 }, { 3, 7 } };
// The parametric signs of the corners (GaussIntegration's node local coordinates).
__constant int HEX_SIGN[8][3] = { { -1, -1, -1 }, { 1, -1, -1 }, { 1, 1, -1 }, { -1, 1, -1 }, { -1, -1, 1 },
  { 1, -1, 1 }, { 1, 1, 1 }, { -1, 1, 1 } };

inline void verdict_hex_frame(const REAL3 p[8], int k, REAL3* xxi, REAL3* xet, REAL3* xze)
{
  *xxi = p[HEX_FRAME[k][0]] - p[k];
  *xet = p[HEX_FRAME[k][1]] - p[k];
  *xze = p[HEX_FRAME[k][2]] - p[k];
}

// calc_hex_efg: sums of four corners minus four others, added in Verdict's order. which: 1, 2, 3
// (the principal axes), 12, 13, 23.
inline REAL3 verdict_hex_efg(const REAL3 p[8], int which)
{
  int plus[4], minus[4];
  switch (which)
  {
    case 1: plus[0] = 1; plus[1] = 2; plus[2] = 5; plus[3] = 6; minus[0] = 0; minus[1] = 3; minus[2] = 4; minus[3] = 7; break;
    case 2: plus[0] = 2; plus[1] = 3; plus[2] = 6; plus[3] = 7; minus[0] = 0; minus[1] = 1; minus[2] = 4; minus[3] = 5; break;
    case 3: plus[0] = 4; plus[1] = 5; plus[2] = 6; plus[3] = 7; minus[0] = 0; minus[1] = 1; minus[2] = 2; minus[3] = 3; break;
    case 12: plus[0] = 0; plus[1] = 2; plus[2] = 4; plus[3] = 6; minus[0] = 1; minus[1] = 3; minus[2] = 5; minus[3] = 7; break;
    case 13: plus[0] = 0; plus[1] = 3; plus[2] = 5; plus[3] = 6; minus[0] = 1; minus[1] = 2; minus[2] = 4; minus[3] = 7; break;
    default: plus[0] = 0; plus[1] = 1; plus[2] = 6; plus[3] = 7; minus[0] = 2; minus[1] = 3; minus[2] = 4; minus[3] = 5; break;
  }
  REAL3 efg = p[plus[0]];
  for (int k = 1; k < 4; ++k)
    efg += p[plus[k]];
  for (int k = 0; k < 4; ++k)
    efg -= p[minus[k]];
  return efg;
}

// Verdict's safe_ratio: numerator / denominator, VERDICT_DBL_MAX when the denominator is below
// VERDICT_DBL_MIN (or the numerator above VERDICT_DBL_MAX) in magnitude.
inline REAL verdict_safe_ratio(REAL numerator, REAL denominator)
{
  if (fabs(numerator) <= VERDICT_DBL_MAX && fabs(denominator) >= VERDICT_DBL_MIN)
    return numerator / denominator;
  return VERDICT_DBL_MAX;
}

// The Frobenius condition number of a corner frame (VERDICT_DBL_MAX when not positive).
inline REAL verdict_condition_comp(REAL3 xxi, REAL3 xet, REAL3 xze)
{
  const REAL det = v_dot(xxi, v_cross(xet, xze));
  if (det <= VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  const REAL term1 = v_dot(xxi, xxi) + v_dot(xet, xet) + v_dot(xze, xze);
  const REAL3 a = v_cross(xxi, xet), b = v_cross(xet, xze), c = v_cross(xze, xxi);
  const REAL term2 = v_dot(a, a) + v_dot(b, b) + v_dot(c, c);
  return sqrt(term1 * term2) / det;
}

inline REAL verdict_oddy_comp(REAL3 xxi, REAL3 xet, REAL3 xze)
{
  const REAL g11 = v_dot(xxi, xxi), g12 = v_dot(xxi, xet), g13 = v_dot(xxi, xze);
  const REAL g22 = v_dot(xet, xet), g23 = v_dot(xet, xze), g33 = v_dot(xze, xze);
  const REAL rt_g = v_dot(xxi, v_cross(xet, xze));
  if (!(rt_g > VERDICT_DBL_MIN))
    return VERDICT_DBL_MAX;
  const REAL norm_G_squared = g11 * g11 + 2 * g12 * g12 + 2 * g13 * g13 + g22 * g22 + 2 * g23 * g23 + g33 * g33;
  const REAL norm_J_squared = g11 + g22 + g33;
  const REAL one_third = (REAL)1 / 3;
  return (norm_G_squared - one_third * norm_J_squared * norm_J_squared) / pow(rt_g, 4 * one_third);
}

inline REAL quality_hex_edge_ratio(const REAL3 p[8])
{
  REAL l[12];
  for (int e = 0; e < 12; ++e)
    l[e] = v_length_squared(p[HEX_EDGE[e][1]] - p[HEX_EDGE[e][0]]);
  REAL m[6], M[6];
  for (int k = 0; k < 6; ++k)
  {
    m[k] = l[2 * k] < l[2 * k + 1] ? l[2 * k] : l[2 * k + 1];
    M[k] = l[2 * k] < l[2 * k + 1] ? l[2 * k + 1] : l[2 * k];
  }
  REAL m2 = m[0] < m[1] ? m[0] : m[1];
  for (int k = 2; k < 6; ++k)
    m2 = m2 < m[k] ? m2 : m[k];
  if (m2 < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  // As Verdict (VTK 9.2): the longest of the first six edges only.
  REAL M2 = M[0] > M[1] ? M[0] : M[1];
  M2 = M2 > M[2] ? M2 : M[2];
  return verdict_clamp(sqrt(M2 / m2));
}

inline REAL quality_hex_max_edge_ratio(const REAL3 p[8])
{
  const REAL m1 = v_length(verdict_hex_efg(p, 1)), m2 = v_length(verdict_hex_efg(p, 2));
  const REAL m3 = v_length(verdict_hex_efg(p, 3));
  const REAL a12 = verdict_safe_ratio(std_max(m1, m2), std_min(m1, m2));
  const REAL a13 = verdict_safe_ratio(std_max(m1, m3), std_min(m1, m3));
  const REAL a23 = verdict_safe_ratio(std_max(m2, m3), std_min(m2, m3));
  return verdict_clamp(std_max(std_max(a12, a13), a23));
}

// max((largest face angle - 90) / 90, (90 - smallest face angle) / 90) over the six faces.
inline REAL quality_hex_equiangle_skew(const REAL3 p[8])
{
  const int faces[6][4] = { { 0, 1, 5, 4 }, { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 }, { 4, 5, 6, 7 },
    { 3, 2, 1, 0 } };
  REAL min_angle = 360, max_angle = 0;
  for (int f = 0; f < 6; ++f)
  {
    REAL face_min, face_max;
    verdict_quad_minimum_maximum_angle(p[faces[f][0]], p[faces[f][1]], p[faces[f][2]], p[faces[f][3]], &face_min, &face_max);
    if (face_min < min_angle)
      min_angle = face_min;
    if (face_max > max_angle)
      max_angle = face_max;
  }
  const REAL skew_max = (max_angle - 90) / 90;
  const REAL skew_min = (90 - min_angle) / 90;
  return skew_max > skew_min ? skew_max : skew_min;
}

inline REAL quality_hex_skew(const REAL3 p[8])
{
  REAL3 e[3];
  for (int k = 0; k < 3; ++k)
  {
    e[k] = verdict_hex_efg(p, k + 1);
    const REAL mag = v_length(e[k]);
    if (mag != 0)
      e[k] /= mag;
    if (mag <= VERDICT_DBL_MIN)
      return VERDICT_DBL_MAX;
  }
  const REAL s1 = fabs(v_dot(e[0], e[1])), s2 = fabs(v_dot(e[0], e[2])), s3 = fabs(v_dot(e[1], e[2]));
  return verdict_clamp(std_max(std_max(s1, s2), s3));
}

inline REAL quality_hex_taper(const REAL3 p[8])
{
  const REAL l1 = v_length(verdict_hex_efg(p, 1)), l2 = v_length(verdict_hex_efg(p, 2));
  const REAL l3 = v_length(verdict_hex_efg(p, 3));
  const REAL t1 = fabs(verdict_safe_ratio(v_length(verdict_hex_efg(p, 12)), std_min(l1, l2)));
  const REAL t2 = fabs(verdict_safe_ratio(v_length(verdict_hex_efg(p, 13)), std_min(l1, l3)));
  const REAL t3 = fabs(verdict_safe_ratio(v_length(verdict_hex_efg(p, 23)), std_min(l2, l3)));
  return verdict_clamp(std_max(std_max(t1, t2), t3));
}

// The volume of the 24 tetrahedra between the centre, each face's centre and its edges.
inline REAL quality_hex_volume(const REAL3 p[8])
{
  const int faces[6][4] = { { 0, 1, 5, 4 }, { 1, 2, 6, 5 }, { 2, 3, 7, 6 }, { 3, 0, 4, 7 }, { 3, 2, 1, 0 },
    { 4, 5, 6, 7 } };
  const REAL3 centre = (p[0] + p[1] + p[2] + p[3] + p[4] + p[5] + p[6] + p[7]) * (REAL)0.125;
  REAL volume = 0;
  for (int f = 0; f < 6; ++f)
  {
    const REAL3 face_centre = (p[faces[f][0]] + p[faces[f][1]] + p[faces[f][2]] + p[faces[f][3]]) * (REAL)0.25;
    REAL3 side[5];
    side[4] = centre - face_centre;
    for (int s = 0; s < 4; ++s)
      side[s] = centre - p[faces[f][s]];
    for (int j = 0; j < 3; ++j)
      volume += v_dot(side[4], v_cross(side[j + 1], side[j])) / 6;
    volume += v_dot(side[4], v_cross(side[0], side[3])) / 6;
  }
  return verdict_clamp(volume);
}

// hex_edge_length and diag_length: the shortest (longest = 0) or longest edge or diagonal.
inline REAL verdict_hex_edge_length(const REAL3 p[8], int longest)
{
  REAL result = v_length(p[HEX_EDGE[0][1]] - p[HEX_EDGE[0][0]]);
  for (int e = 1; e < 12; ++e)
  {
    const REAL l = v_length(p[HEX_EDGE[e][1]] - p[HEX_EDGE[e][0]]);
    result = longest ? std_max(result, l) : std_min(result, l);
  }
  return result;
}

inline REAL verdict_hex_diagonal_length(const REAL3 p[8], int longest)
{
  const REAL d[4] = { v_length(p[6] - p[0]), v_length(p[4] - p[2]), v_length(p[7] - p[1]), v_length(p[5] - p[3]) };
  REAL result = d[0];
  for (int k = 1; k < 4; ++k)
    result = longest ? std_max(result, d[k]) : std_min(result, d[k]);
  return result;
}

inline REAL quality_hex_stretch(const REAL3 p[8])
{
  const REAL min_edge = verdict_hex_edge_length(p, 0), max_diagonal = verdict_hex_diagonal_length(p, 1);
  return verdict_clamp(sqrt((REAL)3) * verdict_safe_ratio(min_edge, max_diagonal));
}

inline REAL quality_hex_diagonal(const REAL3 p[8])
{
  const REAL min_diagonal = verdict_hex_diagonal_length(p, 0), max_diagonal = verdict_hex_diagonal_length(p, 1);
  return verdict_clamp(verdict_safe_ratio(min_diagonal, max_diagonal));
}

// Pronto's characteristic length, Volume / (2 |grad Volume|), from the gradient operator of the
// trilinear hexahedron (Flanagan-Belytschko): for corner i and its six partners HEX_GRADIENT[i]
// (a, b, c, d, e, f), the gradient along x is
// (y_a (z_e - z_b - (z_c - z_d)) + y_b (z_a - z_c) + y_c (z_b - z_f - (z_d - z_a)) +
//  y_d (z_f - z_e - (z_a - z_c)) + y_e (z_d - z_a) + y_f (z_c - z_d)) / 12, and y, z by turning
// x -> y -> z.
__constant int HEX_GRADIENT[8][6] = { { 1, 2, 3, 4, 5, 7 }, { 2, 3, 0, 5, 6, 4 }, { 3, 0, 1, 6, 7, 5 },
  { 0, 1, 2, 7, 4, 6 }, { 7, 6, 5, 0, 3, 1 }, { 4, 7, 6, 1, 0, 2 }, { 5, 4, 7, 2, 1, 3 }, { 6, 5, 4, 3, 2, 0 } };

inline REAL verdict_hex_gradient(const REAL u[8], const REAL w[8], int i)
{
  const int a = HEX_GRADIENT[i][0], b = HEX_GRADIENT[i][1], c = HEX_GRADIENT[i][2];
  const int d = HEX_GRADIENT[i][3], e = HEX_GRADIENT[i][4], f = HEX_GRADIENT[i][5];
  const REAL wac = w[a] - w[c], wda = w[d] - w[a], wcd = w[c] - w[d];
  return (u[a] * (w[e] - w[b] - wcd) + u[b] * wac + u[c] * (w[b] - w[f] - wda) + u[d] * (w[f] - w[e] - wac) +
           u[e] * wda + u[f] * wcd) /
    12;
}

inline REAL quality_hex_dimension(const REAL3 p[8])
{
  REAL x[8], y[8], z[8];
  for (int k = 0; k < 8; ++k)
  {
    x[k] = p[k].x;
    y[k] = p[k].y;
    z[k] = p[k].z;
  }
  REAL gx[8], gy[8], gz[8];
  for (int i = 0; i < 8; ++i)
    gx[i] = verdict_hex_gradient(y, z, i);
  for (int i = 0; i < 8; ++i)
    gy[i] = verdict_hex_gradient(z, x, i);
  for (int i = 0; i < 8; ++i)
    gz[i] = verdict_hex_gradient(x, y, i);
  REAL volume = x[0] * gx[0];
  for (int i = 1; i < 8; ++i)
    volume += x[i] * gx[i];
  REAL squares = gx[0] * gx[0];
  for (int i = 1; i < 8; ++i)
    squares += gx[i] * gx[i];
  for (int i = 0; i < 8; ++i)
    squares += gy[i] * gy[i];
  for (int i = 0; i < 8; ++i)
    squares += gz[i] * gz[i];
  return sqrt((REAL)0.5 * (volume * volume) / squares);
}

inline REAL quality_hex_oddy(const REAL3 p[8])
{
  REAL oddy = 0;
  REAL current = verdict_oddy_comp(verdict_hex_efg(p, 1), verdict_hex_efg(p, 2), verdict_hex_efg(p, 3));
  if (current > oddy)
    oddy = current;
  for (int k = 0; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    verdict_hex_frame(p, k, &xxi, &xet, &xze);
    current = verdict_oddy_comp(xxi, xet, xze);
    if (current > oddy)
      oddy = current;
  }
  return verdict_clamp(oddy);
}

// Verdict's hex_med_aspect_frobenius (ParaView's "Mean Aspect Frobenius" of hexahedra): the mean
// corner condition number over 3.
inline REAL quality_hex_med_aspect_frobenius(const REAL3 p[8])
{
  REAL sum = 0;
  for (int k = 0; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    verdict_hex_frame(p, k, &xxi, &xet, &xze);
    sum += verdict_condition_comp(xxi, xet, xze);
  }
  if (sum >= VERDICT_DBL_MAX)
    return VERDICT_DBL_MAX;
  if (sum <= -VERDICT_DBL_MAX)
    return -VERDICT_DBL_MAX;
  return sum / 24;
}

inline REAL quality_hex_max_aspect_frobenius(const REAL3 p[8])
{
  REAL condition = 0;
  for (int k = 0; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    verdict_hex_frame(p, k, &xxi, &xet, &xze);
    const REAL current = verdict_condition_comp(xxi, xet, xze);
    if (k == 0 || current > condition)
      condition = current;
  }
  if (condition >= VERDICT_DBL_MAX)
    return VERDICT_DBL_MAX;
  if (condition <= -VERDICT_DBL_MAX)
    return -VERDICT_DBL_MAX;
  return condition / 3;
}

// The smallest of the Jacobian at the centre (efg determinant / 64) and at the 8 corners.
inline REAL quality_hex_jacobian(const REAL3 p[8])
{
  REAL jacobian = VERDICT_DBL_MAX;
  REAL current = v_dot(verdict_hex_efg(p, 1), v_cross(verdict_hex_efg(p, 2), verdict_hex_efg(p, 3))) / 64;
  if (current < jacobian)
    jacobian = current;
  for (int k = 0; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    verdict_hex_frame(p, k, &xxi, &xet, &xze);
    current = v_dot(xxi, v_cross(xet, xze));
    if (current < jacobian)
      jacobian = current;
  }
  return verdict_clamp(jacobian);
}

inline REAL quality_hex_scaled_jacobian(const REAL3 p[8])
{
  REAL min_norm_jac = VERDICT_DBL_MAX;
  for (int k = -1; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    if (k < 0)
    {
      xxi = verdict_hex_efg(p, 1);
      xet = verdict_hex_efg(p, 2);
      xze = verdict_hex_efg(p, 3);
    }
    else
      verdict_hex_frame(p, k, &xxi, &xet, &xze);
    const REAL jacobi = v_dot(xxi, v_cross(xet, xze));
    const REAL l1 = v_length_squared(xxi), l2 = v_length_squared(xet), l3 = v_length_squared(xze);
    if (l1 <= VERDICT_DBL_MIN || l2 <= VERDICT_DBL_MIN || l3 <= VERDICT_DBL_MIN)
      return VERDICT_DBL_MAX;
    const REAL scaled = jacobi / sqrt(l1 * l2 * l3);
    if (scaled < min_norm_jac)
      min_norm_jac = scaled;
  }
  return verdict_clamp(min_norm_jac);
}

// The determinant of the corners a, b, c, d written with 2 x 2 minors of the absolute x and y
// coordinates, in the order of Verdict's hex_nodal_jacobians.
inline REAL verdict_hex_nodal_jacobian(const REAL3 p[8], int a, int b, int c, int d)
{
  #define MINOR(i, j) (p[i].x * p[j].y - p[j].x * p[i].y)
  const REAL mab = MINOR(a, b), mac = MINOR(a, c), mad = MINOR(a, d);
  const REAL mbc = MINOR(b, c), mbd = MINOR(b, d), mcd = MINOR(c, d);
  #undef MINOR
  return (-mbc + mbd - mcd) * p[a].z + (mac - mad + mcd) * p[b].z + (-mab + mad - mbd) * p[c].z +
    (mab - mac + mbc) * p[d].z;
}

// The smallest corner Jacobian over the largest (not clamped; -VERDICT_DBL_MAX when the largest
// is not above VERDICT_DBL_MIN).
inline REAL quality_hex_nodal_jacobian_ratio(const REAL3 p[8])
{
  const int corners[8][4] = { { 0, 1, 3, 4 }, { 0, 1, 2, 5 }, { 1, 2, 3, 6 }, { 0, 2, 3, 7 }, { 0, 4, 5, 7 },
    { 1, 4, 5, 6 }, { 2, 5, 6, 7 }, { 3, 4, 6, 7 } };
  REAL j[8];
  for (int k = 0; k < 8; ++k)
    j[k] = verdict_hex_nodal_jacobian(p, corners[k][0], corners[k][1], corners[k][2], corners[k][3]);
  // minMaxVal on pairs, then minMaxValPair on pairs of pairs, as Verdict.
  REAL lo[4], hi[4];
  for (int k = 0; k < 4; ++k)
  {
    const int smaller = j[2 * k] < j[2 * k + 1];
    lo[k] = smaller ? j[2 * k] : j[2 * k + 1];
    hi[k] = smaller ? j[2 * k + 1] : j[2 * k];
  }
  const REAL lo01 = std_min(lo[0], lo[1]), hi01 = std_max(hi[0], hi[1]);
  const REAL lo23 = std_min(lo[2], lo[3]), hi23 = std_max(hi[2], hi[3]);
  const REAL smallest = std_min(lo01, lo23), largest = std_max(hi01, hi23);
  if (largest <= VERDICT_DBL_MIN)
    return -VERDICT_DBL_MAX;
  return smallest / largest;
}

inline REAL quality_hex_shear(const REAL3 p[8])
{
  REAL min_shear = 1;
  for (int k = 0; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    verdict_hex_frame(p, k, &xxi, &xet, &xze);
    const REAL l1 = v_length_squared(xxi), l2 = v_length_squared(xet), l3 = v_length_squared(xze);
    if (l1 <= VERDICT_DBL_MIN || l2 <= VERDICT_DBL_MIN || l3 <= VERDICT_DBL_MIN)
      return 0;
    const REAL lengths = sqrt(l1 * l2 * l3);
    const REAL det = v_dot(xxi, v_cross(xet, xze));
    if (det < VERDICT_DBL_MIN)
      return 0;
    min_shear = std_min(det / lengths, min_shear);
  }
  if (min_shear <= VERDICT_DBL_MIN)
    min_shear = 0;
  return verdict_clamp(min_shear);
}

inline REAL quality_hex_shape(const REAL3 p[8])
{
  REAL min_shape = 1;
  for (int k = 0; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    verdict_hex_frame(p, k, &xxi, &xet, &xze);
    const REAL det = v_dot(xxi, v_cross(xet, xze));
    if (!(det > VERDICT_DBL_MIN))
      return 0;
    const REAL shape = 3 * pow(det, (REAL)2 / 3) / (v_dot(xxi, xxi) + v_dot(xet, xet) + v_dot(xze, xze));
    if (shape < min_shape)
      min_shape = shape;
  }
  if (min_shape <= VERDICT_DBL_MIN)
    min_shape = 0;
  return verdict_clamp(min_shape);
}

inline REAL quality_hex_relative_size_squared(const REAL3 p[8], REAL average_volume)
{
  // hex_get_weight: the cube of volume average_volume.
  if (average_volume == 0)
    return 0;
  const REAL scale = pow(average_volume / 1, (REAL)0.33333333333);
  const REAL3 w1 = (REAL3)(scale, 0, 0), w2 = (REAL3)(0, scale, 0), w3 = (REAL3)(0, 0, scale);
  const REAL detw = v_dot(w1, v_cross(w2, w3));
  if (detw < VERDICT_DBL_MIN)
    return 0;
  REAL det_sum = 0;
  for (int k = 0; k < 8; ++k)
  {
    REAL3 xxi, xet, xze;
    verdict_hex_frame(p, k, &xxi, &xet, &xze);
    det_sum += v_dot(xxi, v_cross(xet, xze));
  }
  REAL size = 0;
  if (det_sum > VERDICT_DBL_MIN)
  {
    REAL tau = det_sum / (8 * detw);
    tau = std_min(tau, 1 / tau);
    size = tau * tau;
  }
  return verdict_clamp(size);
}

inline REAL quality_hex_shape_and_size(const REAL3 p[8], REAL average_volume)
{
  const REAL size = quality_hex_relative_size_squared(p, average_volume);
  const REAL shape = quality_hex_shape(p);
  return verdict_clamp(size * shape);
}

inline REAL quality_hex_shear_and_size(const REAL3 p[8], REAL average_volume)
{
  const REAL size = quality_hex_relative_size_squared(p, average_volume);
  const REAL shear = quality_hex_shear(p);
  return verdict_clamp(shear * size);
}

// The smallest Jacobian over the 2 x 2 x 2 Gauss points and the corners, over the volume, times
// 8 (the parent volume); VERDICT_DBL_MAX for 0 / 0.
inline REAL quality_hex_distortion(const REAL3 p[8])
{
  const REAL g[2] = { (REAL)-0.577350269189626, (REAL)0.577350269189626 };
  REAL minimum_jacobian = VERDICT_DBL_MAX, element_volume = 0;
  // The Gauss points (y1 outermost), then the corners.
  for (int point = 0; point < 16; ++point)
  {
    REAL y1, y2, y3;
    if (point < 8)
    {
      y1 = g[point / 4];
      y2 = g[(point / 2) % 2];
      y3 = g[point % 2];
    }
    else
    {
      y1 = HEX_SIGN[point - 8][0];
      y2 = HEX_SIGN[point - 8][1];
      y3 = HEX_SIGN[point - 8][2];
    }
    REAL3 xxi = (REAL3)(0), xet = (REAL3)(0), xze = (REAL3)(0);
    for (int n = 0; n < 8; ++n)
    {
      const REAL s1 = HEX_SIGN[n][0], s2 = HEX_SIGN[n][1], s3 = HEX_SIGN[n][2];
      const REAL t1 = 1 + s1 * y1, t2 = 1 + s2 * y2, t3 = 1 + s3 * y3;
      xxi += (REAL)0.125 * s1 * t2 * t3 * p[n];
      xet += (REAL)0.125 * s2 * t1 * t3 * p[n];
      xze += (REAL)0.125 * s3 * t1 * t2 * p[n];
    }
    const REAL jacobian = v_dot(xxi, v_cross(xet, xze));
    if (minimum_jacobian > jacobian)
      minimum_jacobian = jacobian;
    if (point < 8)
      element_volume += 1 * jacobian;
  }
  REAL distortion = VERDICT_DBL_MAX;
  if (fabs(element_volume) > 0)
    distortion = minimum_jacobian / element_volume * 8;
  if (distortion > VERDICT_DBL_MAX)
    distortion = VERDICT_DBL_MAX;
  else if (distortion < -VERDICT_DBL_MAX)
    distortion = -VERDICT_DBL_MAX;
  else if (isnan(distortion))
    distortion = VERDICT_DBL_MAX;
  return distortion;
}
