// Geometry of one cell, shared by the programs that measure cells (cell_measures.cl) and that
// guard them (smoothing_guard.cl; `#include "cell_geometry.cl"`): one home per formula. Every
// function takes positions relative to the cell's first point, so differences of nearby points
// stay exact however far the cell is from the mesh origin.

inline REAL triangle_area(REAL3 ab, REAL3 ac)
{
  return (REAL)0.5 * length(cross(ab, ac));
}

// Signed volume: positive when (b - a, c - a, d - a) is right-handed, as VTK orders tetrahedra.
inline REAL tetra_volume(REAL3 ab, REAL3 ac, REAL3 ad)
{
  return dot(ab, cross(ac, ad)) / (REAL)6;
}

// Exact volume of the trilinear hexahedron p[0..7] (VTK order: 0-1-2-3 the bottom face, its
// right-hand normal towards 4-5-6-7). The Jacobian determinant is of degree at most 2 in each
// parametric direction, so 2x2x2 Gauss points integrate it exactly. Wedges and pyramids are
// degenerate hexahedra and use this too (their corners: WEDGE_CORNERS, PYRAMID_CORNERS).
inline REAL hexahedron_volume(const REAL3 p[8])
{
  const REAL g[2] = { 0.21132486540518713, 0.78867513459481287 }; // 1/2 -+ 1/(2 sqrt 3)
  REAL volume = 0;
  for (int i = 0; i < 2; ++i)
  {
    for (int j = 0; j < 2; ++j)
    {
      for (int k = 0; k < 2; ++k)
      {
        const REAL r = g[i], s = g[j], t = g[k];
        const REAL3 dr = (1 - s) * (1 - t) * (p[1] - p[0]) + s * (1 - t) * (p[2] - p[3]) +
          (1 - s) * t * (p[5] - p[4]) + s * t * (p[6] - p[7]);
        const REAL3 ds = (1 - r) * (1 - t) * (p[3] - p[0]) + r * (1 - t) * (p[2] - p[1]) +
          (1 - r) * t * (p[7] - p[4]) + r * t * (p[6] - p[5]);
        const REAL3 dt = (1 - r) * (1 - s) * (p[4] - p[0]) + r * (1 - s) * (p[5] - p[1]) +
          r * s * (p[6] - p[2]) + (1 - r) * s * (p[7] - p[3]);
        volume += dot(dr, cross(ds, dt));
      }
    }
  }
  return volume / 8;
}

// Which cell vertex is corner k of the degenerate hexahedron a cell is. A VTK wedge's base
// 0-1-2 has its right-hand normal pointing away from 3-4-5: as a hexahedron with collapsed
// edges it is 0-2-1-1 / 3-5-4-4. A VTK pyramid's base 0-1-2-3 has its right-hand normal
// pointing to the apex 4: a hexahedron whose top face collapsed to the apex.
#define HEXAHEDRON_CORNERS { 0, 1, 2, 3, 4, 5, 6, 7 }
#define WEDGE_CORNERS { 0, 2, 1, 1, 3, 5, 4, 4 }
#define PYRAMID_CORNERS { 0, 1, 2, 3, 4, 4, 4, 4 }
