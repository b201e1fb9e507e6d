// Tetrahedron quality, each function the Verdict function of the same name (V_TetMetric.cpp of
// VTK 9.2, which ParaView 5.11's Mesh Quality calls) on the corners p0..p3 in VTK order: the
// same formula, order of operations, sentinels for degenerate tetrahedra and clamping
// (verdict_fix_range: NaN becomes VERDICT_DBL_MAX) as Verdict, function by function.
#include "quality_triangle.cl"

// 180 / pi as Verdict writes it.
#define VERDICT_DEGREES ((REAL)180 * (REAL)0.3183098861837906715377675267450287)

// Signed volume, positive for a tetrahedron in VTK order (p3 on the side of p0 p1 p2's
// right-hand normal).
inline REAL quality_tet_volume(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  return tet_volume(p0, p1, p2, p3);
}

// Hmax / Hmin. VERDICT_DBL_MAX when an edge has length 0.
inline REAL quality_tet_edge_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL a2 = v_length_squared(p1 - p0), b2 = v_length_squared(p2 - p1);
  const REAL c2 = v_length_squared(p0 - p2), d2 = v_length_squared(p3 - p0);
  const REAL e2 = v_length_squared(p3 - p1), f2 = v_length_squared(p3 - p2);
  const REAL mab = a2 < b2 ? a2 : b2, Mab = a2 < b2 ? b2 : a2;
  const REAL mcd = c2 < d2 ? c2 : d2, Mcd = c2 < d2 ? d2 : c2;
  const REAL mef = e2 < f2 ? e2 : f2, Mef = e2 < f2 ? f2 : e2;
  REAL m2 = mab < mcd ? mab : mcd;
  m2 = m2 < mef ? m2 : mef;
  if (m2 < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  REAL M2 = Mab > Mcd ? Mab : Mcd;
  M2 = M2 > Mef ? M2 : Mef;
  return verdict_fix_range(sqrt(M2 / m2));
}

// The Jacobian over the largest product of the three edge lengths at a corner, times sqrt(2):
// 1 for the regular tetrahedron, negative when inverted. VERDICT_DBL_MAX when degenerate.
inline REAL quality_tet_scaled_jacobian(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 side0 = p1 - p0, side1 = p2 - p1, side2 = p0 - p2;
  const REAL3 side3 = p3 - p0, side4 = p3 - p1, side5 = p3 - p2;
  const REAL jacobi = v_dot(side3, v_cross(side2, side0));
  const REAL l0 = v_length_squared(side0), l1 = v_length_squared(side1), l2 = v_length_squared(side2);
  const REAL l3 = v_length_squared(side3), l4 = v_length_squared(side4), l5 = v_length_squared(side5);
  const REAL products[4] = { l0 * l2 * l3, l0 * l1 * l4, l1 * l2 * l5, l3 * l4 * l5 };
  int which = 0;
  for (int k = 1; k < 4; ++k)
    if (products[k] > products[which])
      which = k;
  REAL length_product = sqrt(products[which]);
  if (length_product < fabs(jacobi))
    length_product = fabs(jacobi);
  if (length_product < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return sqrt((REAL)2) * jacobi / length_product;
}

// Circumradius / (3 inradius). VERDICT_DBL_MAX when the volume is below VERDICT_DBL_MIN.
inline REAL quality_tet_radius_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 s0 = p1 - p0, s1 = p2 - p1, s2 = p0 - p2, s3 = p3 - p0, s4 = p3 - p1;
  const REAL3 numerator = v_length_squared(s3) * v_cross(s2, s0) +
    v_length_squared(s2) * v_cross(s3, s0) + v_length_squared(s0) * v_cross(s3, s2);
  const REAL area_sum = (v_length(v_cross(s2, s0)) + v_length(v_cross(s3, s0)) +
                          v_length(v_cross(s4, s1)) + v_length(v_cross(s3, s2))) *
    (REAL)0.5;
  const REAL volume = quality_tet_volume(p0, p1, p2, p3);
  if (fabs(volume) < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return verdict_fix_range(v_length(numerator) * area_sum / (108 * volume * volume));
}

// Hmax / (2 sqrt(6) inradius). VERDICT_DBL_MAX when the volume is below VERDICT_DBL_MIN.
inline REAL quality_tet_aspect_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 ab = p1 - p0, ac = p2 - p0, ad = p3 - p0;
  const REAL det = v_dot(ab, v_cross(ac, ad));
  if (fabs(det) < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  const REAL3 bc = p2 - p1, bd = p3 - p1, cd = p3 - p2;
  const REAL ab2 = v_length_squared(ab), bc2 = v_length_squared(bc), ac2 = v_length_squared(ac);
  const REAL ad2 = v_length_squared(ad), bd2 = v_length_squared(bd), cd2 = v_length_squared(cd);
  REAL A = ab2 > bc2 ? ab2 : bc2;
  REAL B = ac2 > ad2 ? ac2 : ad2;
  REAL C = bd2 > cd2 ? bd2 : cd2;
  REAL D = A > B ? A : B;
  const REAL hm = D > C ? sqrt(D) : sqrt(C);
  A = v_length(v_cross(ab, bc));
  B = v_length(v_cross(ab, ad));
  C = v_length(v_cross(ac, ad));
  D = v_length(v_cross(bc, cd));
  return verdict_fix_range(sqrt((REAL)6) / 12 * hm * (A + B + C + D) / fabs(det));
}

// srms^3 / (8.48528137423857 |V|), srms the root mean square edge length. VERDICT_DBL_MAX when
// the volume is below VERDICT_DBL_MIN.
inline REAL quality_tet_aspect_gamma(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL volume = fabs(quality_tet_volume(p0, p1, p2, p3));
  if (volume < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  const REAL srms = sqrt((v_length_squared(p1 - p0) + v_length_squared(p2 - p1) +
                           v_length_squared(p0 - p2) + v_length_squared(p3 - p0) +
                           v_length_squared(p3 - p1) + v_length_squared(p3 - p2)) /
    6);
  return pow(srms, (REAL)3) / ((REAL)8.48528137423857 * volume);
}

// Frobenius condition number relative to the regular tetrahedron. VERDICT_DBL_MAX when the
// volume (its power 2/3) is below VERDICT_DBL_MIN.
inline REAL quality_tet_aspect_frobenius(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 u = p1 - p0, v = p2 - p0, w = p3 - p0;
  REAL denominator = v_dot(u, v_cross(v, w));
  denominator *= denominator;
  denominator *= 2;
  denominator = 3 * pow(denominator, (REAL)1 / 3);
  if (denominator < VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  REAL numerator = u.x * u.x + u.y * u.y + u.z * u.z;
  numerator += v.x * v.x + v.y * v.y + v.z * v.z;
  numerator += w.x * w.x + w.y * w.y + w.z * w.z;
  numerator *= (REAL)1.5;
  numerator -= v.x * u.x + v.y * u.y + v.z * u.z;
  numerator -= w.x * u.x + w.y * u.y + w.z * u.z;
  numerator -= w.x * v.x + w.y * v.y + w.z * v.z;
  return verdict_fix_range(numerator / denominator);
}

// The smallest dihedral angle, in degrees (VERDICT_DBL_MAX where a face is degenerate: NaN).
inline REAL quality_tet_minimum_angle(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 ab = p1 - p0, ad = p3 - p0, bc = p2 - p1, cd = p3 - p2;
  const REAL3 abc = v_cross(ab, bc), abd = v_cross(ab, ad), acd = v_cross(ad, cd), bcd = v_cross(bc, cd);
  const REAL nabc = v_length(abc), nabd = v_length(abd), nacd = v_length(acd), nbcd = v_length(bcd);
  REAL alpha = acos(v_dot(abc, abd) / (nabc * nabd));
  const REAL beta = acos(v_dot(abc, acd) / (nabc * nacd));
  const REAL gamma = acos(v_dot(abc, bcd) / (nabc * nbcd));
  const REAL delta = acos(v_dot(abd, acd) / (nabd * nacd));
  const REAL epsilon = acos(v_dot(abd, bcd) / (nabd * nbcd));
  const REAL zeta = acos(v_dot(acd, bcd) / (nacd * nbcd));
  alpha = alpha < beta ? alpha : beta;
  alpha = alpha < gamma ? alpha : gamma;
  alpha = alpha < delta ? alpha : delta;
  alpha = alpha < epsilon ? alpha : epsilon;
  alpha = alpha < zeta ? alpha : zeta;
  alpha *= VERDICT_DEGREES;
  return verdict_fix_range(alpha);
}

// The smallest height of a corner over its opposite face divided by that face's longest edge.
inline REAL quality_tet_collapse_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 e01 = p1 - p0, e02 = p2 - p0, e03 = p3 - p0, e12 = p2 - p1, e13 = p3 - p1, e23 = p3 - p2;
  const REAL l0 = v_length(e01), l1 = v_length(e02), l2 = v_length(e03);
  const REAL l3 = v_length(e12), l4 = v_length(e13), l5 = v_length(e23);
  REAL l012 = l4 > l0 ? l4 : l0;
  l012 = l1 > l012 ? l1 : l012;
  REAL l031 = l0 > l2 ? l0 : l2;
  l031 = l3 > l031 ? l3 : l031;
  REAL l023 = l2 > l1 ? l2 : l1;
  l023 = l5 > l023 ? l5 : l023;
  REAL l132 = l4 > l3 ? l4 : l3;
  l132 = l5 > l132 ? l5 : l132;

  REAL3 N = v_cross(e01, e02);
  REAL h = v_dot(e03, N) / v_length(N);
  REAL cr_min = h / l012;
  N = v_cross(e03, e01);
  h = v_dot(e02, N) / v_length(N);
  REAL cr = h / l031;
  if (cr < cr_min)
    cr_min = cr;
  N = v_cross(e02, e03);
  h = v_dot(e01, N) / v_length(N);
  cr = h / l023;
  if (cr < cr_min)
    cr_min = cr;
  N = v_cross(e12, e13);
  h = v_dot(e01, N) / v_length(N);
  cr = h / l132;
  if (cr < cr_min)
    cr_min = cr;
  return verdict_fix_range(cr_min);
}

// (V_opt - V) / V_opt, V_opt the volume of the regular tetrahedron of the same circumradius.
inline REAL quality_tet_equivolume_skew(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 ab = p1 - p0, ac = p2 - p0, ad = p3 - p0;
  const REAL3 cp_bc = v_cross(ab, ac), cp_db = v_cross(ad, ab), cp_cd = v_cross(ac, ad);
  const REAL3 num = v_length_squared(ad) * cp_bc + v_length_squared(ac) * cp_db + v_length_squared(ab) * cp_cd;
  const REAL den = v_dot(2 * ab, cp_cd);
  const REAL circumradius = v_length(num) / den;
  const REAL volume = quality_tet_volume(p0, p1, p2, p3);
  const REAL optimal_length = circumradius / sqrt((REAL)3 / 8);
  const REAL optimal_volume = (REAL)1 / 12 * sqrt((REAL)2) * pow(optimal_length, (REAL)3);
  return verdict_fix_range((optimal_volume - volume) / optimal_volume);
}

// One minus the smallest cosine between a face's area vector and the vector from the centroid to
// the face's centroid, over the four faces (Verdict's tet_squish_index; NaN when degenerate).
inline REAL quality_tet_squish_index(REAL3 a, REAL3 b, REAL3 c, REAL3 d)
{
  REAL3 centre = a + b + c + d;
  centre /= 4;
  const REAL3 side0 = b - a, side1 = c - b, side2 = a - c, side3 = d - a, side4 = d - b, side5 = d - c;
  const REAL3 face_centre[4] = { (a + b + d) / 3, (b + c + d) / 3, (a + c + d) / 3, (a + b + c) / 3 };
  const REAL3 face_area[4] = { (REAL)0.5 * v_cross(side0, side4), (REAL)0.5 * v_cross(side1, side5),
    (REAL)0.5 * v_cross(side2, side3), (REAL)0.5 * v_cross(side1, side0) };
  REAL max_squish = 0;
  for (int f = 0; f < 4; ++f)
  {
    const REAL3 to_face = face_centre[f] - centre;
    const REAL squish =
      1 - v_dot(face_area[f], to_face) / (v_length(face_area[f]) * v_length(to_face));
    if (squish > max_squish)
      max_squish = squish;
  }
  return max_squish;
}

// Condition number of the Jacobian weighted for the regular tetrahedron. VERDICT_DBL_MAX when
// its determinant is at most VERDICT_DBL_MIN in magnitude; negative when inverted.
inline REAL quality_tet_condition(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 side0 = p1 - p0, side2 = p0 - p2, side3 = p3 - p0;
  const REAL3 c1 = side0;
  const REAL3 c2 = (-2 * side2 - side0) / sqrt((REAL)3);
  const REAL3 c3 = (3 * side3 + side2 - side0) / sqrt((REAL)6);
  const REAL term1 = v_dot(c1, c1) + v_dot(c2, c2) + v_dot(c3, c3);
  const REAL3 c12 = v_cross(c1, c2), c23 = v_cross(c2, c3), c13 = v_cross(c1, c3);
  const REAL term2 = v_dot(c12, c12) + v_dot(c23, c23) + v_dot(c13, c13);
  const REAL det = v_dot(c1, v_cross(c2, c3));
  if (fabs(det) <= VERDICT_DBL_MIN)
    return VERDICT_DBL_MAX;
  return sqrt(term1 * term2) / (3 * det);
}

// The Jacobian at corner 0 (6 x the signed volume).
inline REAL quality_tet_jacobian(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 side0 = p1 - p0, side2 = p0 - p2, side3 = p3 - p0;
  return v_dot(side3, v_cross(side2, side0));
}

// 3 / condition of the weighted Jacobian: 1 for the regular tetrahedron, 0 when inverted or flat.
inline REAL quality_tet_shape(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 edge0 = p1 - p0, edge2 = p0 - p2, edge3 = p3 - p0;
  const REAL jacobian = v_dot(edge3, v_cross(edge2, edge0));
  if (jacobian < VERDICT_DBL_MIN)
    return 0;
  const REAL num = 3 * pow(sqrt((REAL)2) * jacobian, (REAL)2 / 3);
  const REAL den = (REAL)1.5 * (v_dot(edge0, edge0) + v_dot(edge2, edge2) + v_dot(edge3, edge3)) -
    (v_dot(edge0, -edge2) + v_dot(-edge2, edge3) + v_dot(edge3, edge0));
  if (den < VERDICT_DBL_MIN)
    return 0;
  REAL shape = num / den;
  if (shape < 0)
    shape = 0;
  return verdict_fix_range(shape);
}

// min(r, 1 / r)^2 where r is the volume over `average_volume` (0 when not positive).
inline REAL quality_tet_relative_size_squared(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL average_volume)
{
  // tet_get_weight: the regular tetrahedron of volume average_volume.
  REAL3 w1 = (REAL3)(1, 0, 0);
  REAL3 w2 = (REAL3)((REAL)0.5, (REAL)0.5 * sqrt((REAL)3), 0);
  REAL3 w3 = (REAL3)((REAL)0.5, sqrt((REAL)3) / 6, sqrt((REAL)2) / sqrt((REAL)3));
  const REAL scale = pow(6 * average_volume / v_dot(w1, v_cross(w2, w3)), (REAL)0.3333333333333);
  w1 *= scale;
  w2 *= scale;
  w3 *= scale;
  const REAL avg_volume = v_dot(w1, v_cross(w2, w3)) / 6;
  const REAL volume = quality_tet_volume(p0, p1, p2, p3);
  if (avg_volume < VERDICT_DBL_MIN)
    return 0;
  REAL size = volume / avg_volume;
  if (size <= VERDICT_DBL_MIN)
    return 0;
  if (size > 1)
    size = 1 / size;
  return size * size;
}

inline REAL quality_tet_shape_and_size(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3, REAL average_volume)
{
  const REAL shape = quality_tet_shape(p0, p1, p2, p3);
  const REAL size = quality_tet_relative_size_squared(p0, p1, p2, p3, average_volume);
  return shape * size;
}

// 1 for every linear tetrahedron (Verdict measures distortion for 10-node tetrahedra only).
inline REAL quality_tet_distortion(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  return 1;
}

// max of the dihedral and face-angle skews: 0 for the regular tetrahedron, 1 when degenerate.
inline REAL quality_tet_equiangle_skew(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL3 ab = v_normalized(p1 - p0), ac = v_normalized(p2 - p0), ad = v_normalized(p3 - p0);
  const REAL3 bc = v_normalized(p2 - p1), bd = v_normalized(p3 - p1), cd = v_normalized(p3 - p2);
  const REAL3 abc = v_normalized(v_cross(bc, ab)), abd = v_normalized(v_cross(ab, ad));
  const REAL3 acd = v_normalized(v_cross(cd, ad)), bcd = v_normalized(v_cross(bc, cd));
  const REAL dihedral[6] = { acos(-v_dot(abc, abd)), acos(-v_dot(abc, acd)), acos(-v_dot(abc, bcd)),
    acos(-v_dot(abd, acd)), acos(-v_dot(abd, bcd)), acos(-v_dot(acd, bcd)) };
  REAL min_angle = dihedral[0], max_angle = dihedral[0];
  for (int k = 1; k < 6; ++k)
  {
    min_angle = min_angle < dihedral[k] ? min_angle : dihedral[k];
    max_angle = max_angle > dihedral[k] ? max_angle : dihedral[k];
  }
  min_angle *= VERDICT_DEGREES;
  max_angle *= VERDICT_DEGREES;
  const REAL theta = acos((REAL)1 / (REAL)3) * VERDICT_DEGREES;
  const REAL dihedral_skew_max = (max_angle - theta) / (180 - theta);
  const REAL dihedral_skew_min = (theta - min_angle) / theta;

  const REAL angles[12] = { acos(-v_dot(ab, bc)), acos(v_dot(bc, ac)), acos(v_dot(ac, ab)),
    acos(-v_dot(ab, bd)), acos(v_dot(bd, ad)), acos(v_dot(ad, ab)), acos(-v_dot(bc, cd)),
    acos(v_dot(cd, bd)), acos(v_dot(bd, bc)), acos(v_dot(ad, cd)), acos(-v_dot(cd, ac)),
    acos(v_dot(ac, ad)) };
  min_angle = 360;
  max_angle = 0;
  for (int a = 0; a < 12; ++a)
  {
    if (angles[a] < min_angle)
      min_angle = angles[a];
    if (angles[a] > max_angle)
      max_angle = angles[a];
  }
  max_angle *= VERDICT_DEGREES;
  min_angle *= VERDICT_DEGREES;
  const REAL skew_max = (max_angle - 60) / 120;
  const REAL skew_min = (60 - min_angle) / 60;
  REAL max_skew = dihedral_skew_min;
  max_skew = max_skew > dihedral_skew_max ? max_skew : dihedral_skew_max;
  max_skew = max_skew > skew_min ? max_skew : skew_min;
  max_skew = max_skew > skew_max ? max_skew : skew_max;
  return max_skew;
}

// Verdict's tet_inradius of a linear tetrahedron: 3 V / (sum of the face areas), signed.
inline REAL verdict_tet_inradius(REAL3 c0, REAL3 c1, REAL3 c2, REAL3 c3)
{
  const REAL a1 = quality_tri_area(c0, c1, c2);
  const REAL a2 = quality_tri_area(c0, c3, c1);
  const REAL a3 = quality_tri_area(c0, c2, c3);
  const REAL a4 = quality_tri_area(c1, c3, c2);
  return 3 * quality_tet_volume(c0, c1, c2, c3) / (a1 + a2 + a3 + a4);
}

// The smallest inradius of the 12 tetrahedra of the midpoint subdivision (the 4 at the corners
// against 6, the 8 around the centre against 3 (1 + sqrt 3)) over the circumradius: 1 for the
// regular tetrahedron.
inline REAL quality_tet_normalized_inradius(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  REAL3 n[11];
  n[0] = p0;
  n[1] = p1;
  n[2] = p2;
  n[3] = p3;
  n[4] = (p0 + p1) * (REAL)0.5;
  n[5] = (p1 + p2) * (REAL)0.5;
  n[6] = (p2 + p0) * (REAL)0.5;
  n[7] = (p0 + p3) * (REAL)0.5;
  n[8] = (p1 + p3) * (REAL)0.5;
  n[9] = (p2 + p3) * (REAL)0.5;
  // tet10_auxillary_node_coordinate
  REAL3 aux = (REAL3)(0);
  for (int k = 4; k < 10; ++k)
    aux += n[k];
  aux /= 6;
  n[10] = aux;
  const int subtets[12][4] = { { 0, 4, 6, 7 }, { 1, 5, 4, 8 }, { 2, 6, 5, 9 }, { 3, 8, 7, 9 },
    { 4, 8, 5, 10 }, { 5, 8, 9, 10 }, { 9, 8, 7, 10 }, { 7, 8, 4, 10 }, { 4, 5, 6, 10 },
    { 5, 9, 6, 10 }, { 9, 7, 6, 10 }, { 7, 4, 6, 10 } };
  REAL min_corner = VERDICT_DBL_MAX, min_inner = VERDICT_DBL_MAX;
  for (int s = 0; s < 12; ++s)
  {
    const REAL r = verdict_tet_inradius(n[subtets[s][0]], n[subtets[s][1]], n[subtets[s][2]], n[subtets[s][3]]);
    if (s < 4 && r < min_corner)
      min_corner = r;
    if (s >= 4 && r < min_inner)
      min_inner = r;
  }
  // calculate_tet4_outer_radius
  const REAL aC = v_length(p1 - p0), bC = v_length(p2 - p0), cC = v_length(p3 - p0);
  const REAL AC = v_length(p3 - p2), BC = v_length(p3 - p1), CC = v_length(p2 - p1);
  const REAL VP = tet_volume(p0, p1, p2, p3);
  const REAL outer_radius = sqrt((aC * AC + bC * BC + cC * CC) * (aC * AC + bC * BC - cC * CC) *
                              (aC * AC - bC * BC + cC * CC) * (-aC * AC + bC * BC + cC * CC)) /
    24 / VP;
  const REAL corner = 6 * min_corner / outer_radius;
  const REAL inner = 3 * (1 + sqrt((REAL)3)) * min_inner / outer_radius;
  return verdict_fix_range(std_min(corner, inner));
}

// 12 (3 |V|)^(2/3) / (sum of the squared edge lengths), with the sign of V: 1 for the regular
// tetrahedron; 0 when the volume is below VERDICT_DBL_MIN in magnitude.
inline REAL quality_tet_mean_ratio(REAL3 p0, REAL3 p1, REAL3 p2, REAL3 p3)
{
  const REAL volume = tet_volume(p0, p1, p2, p3); // Verdict's (p0 - p2) x (p1 - p0): the same bits
  if (fabs(volume) < VERDICT_DBL_MIN)
    return 0;
  const REAL3 side0 = p1 - p0, side2 = p0 - p2, side3 = p3 - p0;
  const REAL3 side1 = p2 - p1, side4 = p3 - p1, side5 = p3 - p2;
  const REAL sign = volume < 0 ? -1 : 1;
  return sign * 12 * pow(3 * fabs(volume), (REAL)2 / 3) /
    (v_length_squared(side0) + v_length_squared(side1) + v_length_squared(side2) +
      v_length_squared(side3) + v_length_squared(side4) + v_length_squared(side5));
}
