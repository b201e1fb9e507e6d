// What the quality functions of every cell kind share (included by quality_<kind>.cl): Verdict's
// sentinels and clamps, written so that each quality function reads like the Verdict function it
// reproduces (VTK 9.2's ThirdParty/verdict, the one ParaView 5.11's Mesh Quality calls). Its
// vector operations (VerdictVector's, term by term) and formulas are geometry.cl's.

#include "geometry.cl"

#define VERDICT_DBL_MIN ((REAL)1.0E-30)
#define VERDICT_DBL_MAX ((REAL)1.0E+30)
#define VERDICT_PI ((REAL)3.1415926535897932384626)

// v_length, v_cross, v_dot, v_normalized: geometry.cl.

// VerdictVector::interior_angle, in degrees: acos of the cosine, pushed back into [-1, 1] when
// round-off took it out by less than 1e-4 (0 for a zero vector or a cosine further out).
inline REAL v_interior_angle(REAL3 a, REAL3 b)
{
  REAL cos_angle = 0, angle = 0;
  const REAL len1 = v_length(a);
  const REAL len2 = len1 > 0 ? v_length(b) : 0;
  if (len1 > 0 && len2 > 0)
    cos_angle = v_dot(a, b) / (len1 * len2);
  if (cos_angle > 1 && cos_angle < (REAL)1.0001)
    angle = acos((REAL)1);
  else if (cos_angle < -1 && cos_angle > (REAL)-1.0001)
    angle = acos((REAL)-1);
  else if (cos_angle >= -1 && cos_angle <= 1)
    angle = acos(cos_angle);
  return angle * 180 / VERDICT_PI;
}

// std::min and std::max as Verdict calls them: the first argument unless the comparison holds
// (so a NaN first argument is kept, unlike fmin and fmax).
inline REAL std_min(REAL a, REAL b)
{
  return b < a ? b : a;
}

inline REAL std_max(REAL a, REAL b)
{
  return a < b ? b : a;
}

// The clamp that ends most Verdict functions: min(v, MAX) when positive, else max(v, -MAX)
// (NaN stays NaN).
inline REAL verdict_clamp(REAL v)
{
  return v > 0 ? std_min(v, VERDICT_DBL_MAX) : std_max(v, -VERDICT_DBL_MAX);
}

// Verdict's fix_range (tetrahedra, ...): NaN becomes VERDICT_DBL_MAX, then clamped.
inline REAL verdict_fix_range(REAL v)
{
  if (isnan(v))
    return VERDICT_DBL_MAX;
  if (v >= VERDICT_DBL_MAX)
    return VERDICT_DBL_MAX;
  if (v <= -VERDICT_DBL_MAX)
    return -VERDICT_DBL_MAX;
  return v;
}
