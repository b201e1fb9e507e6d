// The inversion guard of vertex smoothing (VertexSmoother, core/gpumesh/algorithms/Smoothing.h).
// A Jacobi step has written every vertex's proposed displacement to `out` from the previous
// iterate `in` (REAL4 per vertex, displacements from the input positions x0). The guard then
// shortens the moves of the points of the cells the step would spoil, in rounds, until the
// whole step holds:
//  - guard_check (per cell): with every point at its guarded position, a 3D cell must keep
//    sign(V) V' >= fraction |V| (V its signed volume at `in`, V' at the guarded positions), a
//    2D cell n . n' >= fraction n . n (n, n' its vector areas: its normal, scaled by its
//    area); a cell that fails flags its moving points and raises `offending`;
//  - guard_shorten (per vertex): a flagged vertex counts one more halving;
//  - guard_apply (per vertex, once no cell fails): the guarded positions become the step's.
// A vertex's halvings k live in out[v].w (0 where the step wrote it): its guarded
// displacement is in + (out - in) / 2^k, and `in` itself (no move) once k > MAX_HALVINGS.
// Every decision reads only `in`, `out` and the halvings of the round before, and flags are
// set, never counted: the result does not depend on the thread schedule. A cell none of whose
// points still moves holds (its positions are those of `in`), so every round that finds a
// failing cell takes a halving from some moving point, and the rounds end.
// Build options: GUARD_SHAPE (below), PER_CELL (cellKindOptions) and MAX_HALVINGS.
#include "geometry.cl" // tet_volume, hex_volume and the corners of wedges and pyramids

#define GUARD_POLYGON 0
#define GUARD_TETRA 1
#define GUARD_HEXAHEDRON 2
#define GUARD_WEDGE 3
#define GUARD_PYRAMID 4

// Vertex v's displacement after its halvings.
inline REAL3 guarded(__global const REAL4* in, __global const REAL4* out, int v)
{
  const REAL4 proposed = out[v];
  const int k = (int)proposed.w;
  if (k == 0)
    return proposed.xyz;
  const REAL3 d = in[v].xyz;
  if (k > MAX_HALVINGS)
    return d;
  return d + (proposed.xyz - d) * (REAL)(1.0f / (float)(1 << k)); // a power of two: exact
}

// Whether vertex v still moves: a move not yet zeroed.
inline int moving(__global const REAL4* in, __global const REAL4* out, int v)
{
  const REAL4 proposed = out[v];
  return (int)proposed.w <= MAX_HALVINGS && any(proposed.xyz != in[v].xyz);
}

// Point k of the cell relative to its first point, at state `d0`/`dk` (displacements).
inline REAL3 relative(__global const REAL* points, __global const int* v, int k, REAL3 d0, REAL3 dk)
{
  return (point_at(points, v[k]) - point_at(points, v[0])) + (dk - d0);
}

// Per step: in, out; the cells, the input points, the fraction, the per-vertex flags and the
// round's `offending` flag are bound once.
__kernel void guard_check(__global const REAL4* in, __global const REAL4* out, CELL_ARGS,
  __global const REAL* points, const REAL fraction, __global int* flags, __global int* offending)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  __global const int* v = connectivity + cell_start(i);
  const int n = cell_size(i);
  int moves = 0;
  for (int k = 0; k < n; ++k)
    moves |= moving(in, out, v[k]);
  if (!moves)
    return;
  const REAL3 b0 = in[v[0]].xyz;
  const REAL3 a0 = guarded(in, out, v[0]);
  int holds;
#if GUARD_SHAPE == GUARD_POLYGON
  // Vector areas (twice): the fan from the first point, exact for any planar polygon.
  REAL3 before = (REAL3)(0), after = (REAL3)(0);
  REAL3 bPrevious = relative(points, v, 1, b0, in[v[1]].xyz);
  REAL3 aPrevious = relative(points, v, 1, a0, guarded(in, out, v[1]));
  for (int k = 2; k < n; ++k)
  {
    const REAL3 b = relative(points, v, k, b0, in[v[k]].xyz);
    const REAL3 a = relative(points, v, k, a0, guarded(in, out, v[k]));
    before += v_cross(bPrevious, b);
    after += v_cross(aPrevious, a);
    bPrevious = b;
    aPrevious = a;
  }
  holds = v_dot(after, before) >= fraction * v_dot(before, before);
#else
#if GUARD_SHAPE == GUARD_TETRA
  const REAL3 o = (REAL3)(0); // positions relative to the first point's
  const REAL before = tet_volume(o, relative(points, v, 1, b0, in[v[1]].xyz),
    relative(points, v, 2, b0, in[v[2]].xyz), relative(points, v, 3, b0, in[v[3]].xyz));
  const REAL after = tet_volume(o, relative(points, v, 1, a0, guarded(in, out, v[1])),
    relative(points, v, 2, a0, guarded(in, out, v[2])), relative(points, v, 3, a0, guarded(in, out, v[3])));
#else
#if GUARD_SHAPE == GUARD_HEXAHEDRON
  const int corner[8] = HEXAHEDRON_CORNERS;
#elif GUARD_SHAPE == GUARD_WEDGE
  const int corner[8] = WEDGE_CORNERS;
#else
  const int corner[8] = PYRAMID_CORNERS;
#endif
  REAL3 pb[8], pa[8];
  for (int k = 0; k < 8; ++k)
  {
    pb[k] = relative(points, v, corner[k], b0, in[v[corner[k]]].xyz);
    pa[k] = relative(points, v, corner[k], a0, guarded(in, out, v[corner[k]]));
  }
  const REAL before = hex_volume(pb);
  const REAL after = hex_volume(pa);
#endif
  // Relative to the cell's own orientation before the step; a cell flat before holds.
  holds = before > 0 ? after >= fraction * before : before < 0 ? after <= fraction * before : 1;
#endif
  if (holds)
    return;
  atomic_or(offending, 1);
  for (int k = 0; k < n; ++k)
  {
    if (moving(in, out, v[k]))
      atomic_or(&flags[v[k]], 1);
  }
}

// A flagged vertex counts one more halving; its flag is cleared for the next round.
__kernel void guard_shorten(__global REAL4* out, __global int* flags, const int vertices)
{
  const int v = get_global_id(0);
  if (v >= vertices || !flags[v])
    return;
  flags[v] = 0;
  out[v].w += (REAL)1;
}

// The guarded displacements become the step's, w back to 0; `shortened` counts the vertices
// whose move was shortened among those `counted` flags (a process's own points under MPI).
__kernel void guard_apply(__global const REAL4* in, __global REAL4* out, const int vertices,
  __global const uchar* counted, __global uint* shortened)
{
  const int v = get_global_id(0);
  if (v >= vertices || out[v].w == (REAL)0)
    return;
  out[v] = (REAL4)(guarded(in, out, v), 0);
  if (counted[v])
    atomic_inc(shortened);
}
