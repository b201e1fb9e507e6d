// Conforming longest-edge bisection of tetrahedra, in five steps: edge lengths; the closure
// of the marks; children counts; prefix sums; templates. No locks, every output array
// allocated once from the prefix sums, and only the marked tetrahedra, the edges they mark and
// the tetrahedra around those edges are touched after step 1.
//
// Edges are the unique edges of the tetrahedra (gpumesh::CellEntities, EntityType::Edges):
// slot 6t + j of tetrahedron t is its local edge j in VTK's order, (0 1) (1 2) (2 0) (0 3)
// (1 3) (2 3); slot_edge gives the edge's id, and the slots of one edge are consecutive in
// sorted_slots (slot_run: where they start, how many), so the tetrahedra around an edge are
// read without another table. Edges are ordered by the longest-edge order of edge_order.cl.
//
// Closure (step 2): a marked tetrahedron marks its longest edge; a tetrahedron with a marked
// edge marks its longest edge; a face with a marked edge marks the face's longest edge; until
// nothing changes. Both cells of a face apply the same rule to the same edges, so they agree.
// Afterwards a tetrahedron with any marked edge has its longest edge L marked, and every face
// with a marked edge has its longest edge marked.
//
// Templates (step 5): a (sub)tetrahedron is bisected by the longest marked edge among its
// tetrahedron's original edges that it contains, and so on while it contains one. The first cut
// is L. Each child then contains the original edges of one untouched original face only, whose
// longest edge is marked if any is, so every face is cut as the triangles' longest-edge rule
// cuts it alone (its longest edge first, then the halves by their remaining marked edge): the
// two cells of a face cut it the same way. At most 3 levels and 8 children (all 6 edges
// marked); only original edges are bisected, so every new point is the midpoint of an edge.
// Bisecting the edge whose ends are at positions i (the smaller point id) and j by its midpoint m
// gives (position j replaced by m) then (position i replaced by m), depth first: each keeps the
// parent's orientation and half its volume.
#include "edge_order.cl"
#include "bit_sets.cl"
#include "cut_divisions.cl"

// Local edge k runs from vertex EDGE_A[k] to EDGE_B[k]; face f has local edges FACE_EDGES[f];
// local edge k lies on faces EDGE_FACES[k] (VTK's faces (0 1 3) (1 2 3) (2 0 3) (0 2 1)).
__constant int EDGE_A[6] = { 0, 1, 2, 0, 1, 2 };
__constant int EDGE_B[6] = { 1, 2, 0, 3, 3, 3 };
__constant int FACE_EDGES[4][3] = { { 0, 4, 3 }, { 1, 5, 4 }, { 2, 3, 5 }, { 2, 1, 0 } };
__constant int EDGE_FACES[6][2] = { { 0, 3 }, { 1, 3 }, { 2, 3 }, { 0, 2 }, { 0, 1 }, { 1, 2 } };

// The arguments every step reads to order the edges of a tetrahedron.
#define EDGE_ORDER_ARGS                                                                        \
  __global const int *slot_edge, __global const REAL *length2,                                 \
    __global const uint4 *edge_vertices, __global const long *tie_ids, const int use_tie_ids
#define EDGE_ORDER slot_edge, length2, edge_vertices, tie_ids, use_tie_ids

// The local index of the longest of the given local edges of tetrahedron t.
inline int longest_of(int t, const int* candidates, int n, EDGE_ORDER_ARGS)
{
  int best = candidates[0];
  for (int k = 1; k < n; ++k)
    if (longer(slot_edge[6 * t + candidates[k]], slot_edge[6 * t + best], length2, edge_vertices, tie_ids,
          use_tie_ids))
      best = candidates[k];
  return best;
}

inline int longest_edge(int t, EDGE_ORDER_ARGS)
{
  const int all[6] = { 0, 1, 2, 3, 4, 5 };
  return longest_of(t, all, 6, EDGE_ORDER);
}

inline int longest_face_edge(int t, int f, EDGE_ORDER_ARGS)
{
  const int face[3] = { FACE_EDGES[f][0], FACE_EDGES[f][1], FACE_EDGES[f][2] };
  return longest_of(t, face, 3, EDGE_ORDER);
}

// Checks every tetrahedron: a zero-length edge or a zero volume makes it degenerate; an edge
// of distinct points whose squared length leaves REAL's normal range makes lengths unreliable
// in this precision. With check_faces, also how many tetrahedra share each face, read from the
// edges' runs (no face table): the tetrahedra around one of the face's edges that also hold
// its third vertex. More than two make it non-manifold; one makes it a boundary face, whose
// points are appended to `boundary` (capacity entries; boundary_size counts them all, so the
// caller can retry with room) for the seam check. The smallest offending cell id of each kind
// is kept (atomic_min): the report does not depend on the schedule.
__constant int FACE_THIRD[4] = { 3, 3, 3, 1 }; // the vertex of face f off its edge FACE_EDGES[f][0]
__constant int FACE_VERTEX_SUM[4] = { 4, 6, 5, 3 }; // of face f's local vertices: less an edge's, the third

__kernel void validate_tetrahedra(CELL_ARGS, __global const REAL* points,
  __global const int* slot_edge, __global const REAL* length2, __global const int* sorted_slots,
  __global const int2* slot_run, const int check_faces, const int capacity, __global int* boundary,
  __global int* boundary_size, __global int* first_bad /* [0] degenerate, [1] non-manifold, [3] range */)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int t = cell_ids[i];
  const int start = cell_start(i);
  REAL3 p[4];
  for (int k = 0; k < 4; ++k)
    p[k] = point_at(points, connectivity[start + k]);
  int out_of_range = 0, degenerate = 0, non_manifold = 0;
  for (int k = 0; k < 6; ++k)
  {
    const REAL l2 = length2[slot_edge[6 * t + k]];
    const int distinct = any(p[EDGE_A[k]] != p[EDGE_B[k]]);
    out_of_range |= distinct && !(representable(l2) && l2 > (REAL)0);
    degenerate |= !distinct;
  }
  for (int f = 0; f < 4 && check_faces; ++f)
  {
    // Around the face's edge with the fewest tetrahedra (any of its three would do).
    int walked = FACE_EDGES[f][0];
    int2 run = slot_run[6 * t + walked];
    for (int k = 1; k < 3; ++k)
    {
      const int2 other = slot_run[6 * t + FACE_EDGES[f][k]];
      if (other.y < run.y)
      {
        walked = FACE_EDGES[f][k];
        run = other;
      }
    }
    const int third = connectivity[start + FACE_VERTEX_SUM[f] - EDGE_A[walked] - EDGE_B[walked]];
    const int edge = FACE_EDGES[f][0];
    int uses = 0;
    for (int r = run.x; r < run.x + run.y; ++r)
    {
      const int4 u = vload4(sorted_slots[r] / 6, connectivity);
      uses += u.s0 == third || u.s1 == third || u.s2 == third || u.s3 == third;
    }
    non_manifold |= uses > 2;
    if (uses == 1)
    {
      const int k = atomic_add(boundary_size, 3);
      for (int j = 0; j < 3; ++j)
        if (k + j < capacity)
          boundary[k + j] = connectivity[start + (j < 2 ? (j == 0 ? EDGE_A[edge] : EDGE_B[edge]) : FACE_THIRD[f])];
    }
  }
  degenerate |= dot(p[1] - p[0], cross(p[2] - p[0], p[3] - p[0])) == (REAL)0;
  if (out_of_range)
    atomic_min(&first_bad[3], t);
  else if (degenerate)
    atomic_min(&first_bad[0], t);
  if (non_manifold)
    atomic_min(&first_bad[1], t);
}

// Claims the edge of `slot` (one of its slots: any gives the edge and, through slot_run, the
// tetrahedra around it); the first claimer lists the slot among the divided ones and returns 1.
inline int claim_slot(int slot, __global const int* slot_edge, __global uint* divided_bits,
  __global int* divided, __global int* divided_count)
{
  if (!claim_bit(divided_bits, slot_edge[slot]))
    return 0;
  divided[atomic_inc(divided_count)] = slot;
  return 1;
}

// Step 2a: each marked tetrahedron flags itself (its children stay marked in the next pass)
// and claims its longest edge; claimed edges are the closure's first frontier.
__kernel void closure_roots(__global const int* marked, const int marked_count, EDGE_ORDER_ARGS,
  __global uint* marked_bits, __global uint* divided_bits, __global int* divided,
  __global int* divided_count)
{
  const int i = get_global_id(0);
  if (i >= marked_count)
    return;
  const int t = marked[i];
  atomic_or(&marked_bits[t >> 5], bit_of(t));
  claim_slot(6 * t + longest_edge(t, EDGE_ORDER), slot_edge, divided_bits, divided, divided_count);
}

#define CLOSURE_STACK 16

// Step 2b: applies the rules around each frontier edge: every tetrahedron around it claims
// its longest edge and the longest edges of its two faces through it. A work-item goes on
// with the edges it claims itself (depth first, in private memory); those that do not fit are
// left in `pending` for the next launch. The closure is the same set whatever the schedule.
__kernel void closure_round(__global const int* frontier, const int frontier_count,
  __global int* pending, __global int* pending_count, EDGE_ORDER_ARGS,
  __global const int* sorted_slots, __global const int2* slot_run, __global uint* divided_bits,
  __global int* divided, __global int* divided_count)
{
  const int i = get_global_id(0);
  if (i >= frontier_count)
    return;
  int stack[CLOSURE_STACK];
  int top = 0;
  stack[top++] = frontier[i];
  while (top > 0)
  {
    const int2 run = slot_run[stack[--top]];
    for (int r = run.x; r < run.x + run.y; ++r)
    {
      const int slot = sorted_slots[r];
      const int t = slot / 6, j = slot % 6;
      const int candidates[3] = { longest_edge(t, EDGE_ORDER),
        longest_face_edge(t, EDGE_FACES[j][0], EDGE_ORDER), longest_face_edge(t, EDGE_FACES[j][1], EDGE_ORDER) };
      for (int c = 0; c < 3; ++c)
      {
        const int next = 6 * t + candidates[c];
        if (claim_slot(next, slot_edge, divided_bits, divided, divided_count))
        {
          if (top < CLOSURE_STACK)
            stack[top++] = next;
          else
            pending[atomic_inc(pending_count)] = next;
        }
      }
    }
  }
}

// The children of tetrahedron v (point ids) whose local edges `marks` (bit k: local edge k) are
// divided, by the templates above; rank[k]: how many of its edges are longer than local edge
// k; mid[k]: the point id of edge k's midpoint (any ids distinct from the tetrahedron's own
// serve to count). Returns the number of children, written to out in depth-first order.
inline int bisect_tetrahedron(int4 v, int marks, const int* rank, const int* mid, int4* out)
{
  int4 stack[4];
  int top = 0, n = 0;
  stack[top++] = v;
  const int ids[4] = { v.s0, v.s1, v.s2, v.s3 };
  while (top > 0)
  {
    const int4 s = stack[--top];
    const int own[4] = { s.s0, s.s1, s.s2, s.s3 };
    int best = -1, at_a = 0, at_b = 0;
    for (int k = 0; k < 6; ++k)
    {
      if (!(marks & (1 << k)) || (best >= 0 && rank[k] > rank[best]))
        continue;
      int pa = -1, pb = -1;
      for (int q = 0; q < 4; ++q)
      {
        pa = own[q] == ids[EDGE_A[k]] ? q : pa;
        pb = own[q] == ids[EDGE_B[k]] ? q : pb;
      }
      if (pa >= 0 && pb >= 0)
      {
        // a: the end with the smaller point id, so the order of the children does not depend
        // on the cell's vertex order
        best = k;
        at_a = own[pa] < own[pb] ? pa : pb;
        at_b = own[pa] < own[pb] ? pb : pa;
      }
    }
    if (best < 0)
    {
      out[n++] = s;
      continue;
    }
    int first[4] = { s.s0, s.s1, s.s2, s.s3 };
    int second[4] = { s.s0, s.s1, s.s2, s.s3 };
    first[at_b] = mid[best];
    second[at_a] = mid[best];
    stack[top++] = (int4)(second[0], second[1], second[2], second[3]);
    stack[top++] = (int4)(first[0], first[1], first[2], first[3]);
  }
  return n;
}

// The ranks of a tetrahedron's 6 edges in the longest-edge order (0: longest) and which of
// them are divided (bit k: local edge k).
inline int edge_ranks(int t, EDGE_ORDER_ARGS, __global const uint* divided_bits, int* rank)
{
  int marks = 0;
  for (int k = 0; k < 6; ++k)
  {
    rank[k] = 0;
    const int e = slot_edge[6 * t + k];
    for (int q = 0; q < 6; ++q)
      rank[k] += longer(slot_edge[6 * t + q], e, length2, edge_vertices, tie_ids, use_tie_ids);
    marks |= test_bit(divided_bits, e) << k;
  }
  return marks;
}

// Step 2 across processes: edges that other processes divided on the cut (`forced`, a slot of
// each here). Those this process had not divided yet are claimed and start the next rounds.
__kernel void force_slots(__global const int* forced, const int forced_count, __global const int* slot_edge,
  __global uint* divided_bits, __global int* divided, __global int* divided_count,
  __global int* frontier, __global int* frontier_count)
{
  const int i = get_global_id(0);
  if (i < forced_count && claim_slot(forced[i], slot_edge, divided_bits, divided, divided_count))
    frontier[atomic_inc(frontier_count)] = forced[i];
}

// Packed counters hold the extra children of a tetrahedron (0-7) in 4 bits, 8 per word.
inline int nibbles_before(__global const uint* packed, __global const uint* word_offsets, int t)
{
  const uint word = packed[t >> 3];
  uint sum = word_offsets[t >> 3];
  for (int k = 0; k < (t & 7); ++k)
    sum += (word >> (4 * k)) & 15u;
  return (int)sum;
}

// Step 3: for each divided edge, the tetrahedra around it; the first to reach one lists it as
// affected and counts its children. A tetrahedron whose longest edge, or a face whose longest
// edge, stayed whole beside a divided edge would break the templates' conformity: it is
// reported in first_bad[2] rather than refined wrongly.
__kernel void count_children(__global const int* divided, const int divided_count, EDGE_ORDER_ARGS,
  __global const int* tetrahedra, __global const int* sorted_slots, __global const int2* slot_run,
  __global const uint* divided_bits, __global uint* affected_bits, __global int* affected,
  __global int* affected_count, __global uint* packed_children, __global int* first_bad)
{
  const int i = get_global_id(0);
  if (i >= divided_count)
    return;
  const int2 run = slot_run[divided[i]];
  for (int r = run.x; r < run.x + run.y; ++r)
  {
    const int t = sorted_slots[r] / 6;
    if (!claim_bit(affected_bits, t))
      continue;
    affected[atomic_inc(affected_count)] = t;
    int rank[6];
    const int marks = edge_ranks(t, EDGE_ORDER, divided_bits, rank);
    int closed = (marks >> longest_edge(t, EDGE_ORDER)) & 1;
    for (int f = 0; f < 4; ++f)
    {
      const int face = (1 << FACE_EDGES[f][0]) | (1 << FACE_EDGES[f][1]) | (1 << FACE_EDGES[f][2]);
      closed &= !(marks & face) || ((marks >> longest_face_edge(t, f, EDGE_ORDER)) & 1);
    }
    if (!closed)
      atomic_min(&first_bad[2], t);
    const int placeholder[6] = { -1, -2, -3, -4, -5, -6 };
    int4 children[8];
    const int4 v = vload4(t, tetrahedra);
    const int n = bisect_tetrahedron(v, marks, rank, placeholder, children);
    atomic_or(&packed_children[t >> 3], (uint)(n - 1) << (4 * (t & 7)));
  }
}

// Step 4: the per-word totals of the packed counters (word_bit_counts: bit_sets.cl).
__kernel void word_nibble_sums(__global const uint* packed, const int words, __global uint* sums)
{
  const int w = get_global_id(0);
  if (w >= words)
    return;
  const uint word = packed[w];
  uint sum = 0;
  for (int k = 0; k < 8; ++k)
    sum += (word >> (4 * k)) & 15u;
  sums[w] = sum;
}

// Step 5a: the midpoint of each divided edge; new points are numbered in edge order. (a + b)/2
// in REAL is the correctly rounded midpoint (halving is exact).
__kernel void new_points(__global const REAL* points, __global const uint4* edge_vertices,
  __global const int* divided, const int divided_count, __global const int* slot_edge,
  __global const uint* divided_bits,
  __global const uint* point_word_offsets, __global REAL* out_points, __global int2* point_parents)
{
  const int i = get_global_id(0);
  if (i >= divided_count)
    return;
  const int e = slot_edge[divided[i]];
  const uint4 v = edge_vertices[e];
  const int p = bits_before(divided_bits, point_word_offsets, e);
  vstore3((REAL)0.5 * (point_at(points, (int)v.x) + point_at(points, (int)v.y)), p, out_points);
  point_parents[p] = (int2)((int)v.x, (int)v.y);
}

// Step 5b: the templates, for the affected tetrahedra. The first child replaces t in
// `tetrahedra` (each work-item reads and writes only its own); the others go to `appended`,
// after those of lower-numbered tetrahedra. Children of marked tetrahedra are listed as the
// next pass's marks (appended ones numbered after the `count` kept tetrahedra).
__kernel void apply_templates(__global const int* affected, const int affected_count, EDGE_ORDER_ARGS,
  __global int* tetrahedra, __global const uint* divided_bits,
  __global const uint* point_word_offsets, __global const uint* packed_children,
  __global const uint* child_word_offsets, __global const uint* marked_bits,
  __global const int* parent_in, const int parents_are_ids, const int count, const int old_points,
  __global int* appended, __global int* appended_parent, __global int* next_marked,
  __global int* next_marked_count)
{
  const int i = get_global_id(0);
  if (i >= affected_count)
    return;
  const int t = affected[i];
  int rank[6], mid[6];
  const int marks = edge_ranks(t, EDGE_ORDER, divided_bits, rank);
  for (int k = 0; k < 6; ++k)
    mid[k] = (marks >> k) & 1 ? old_points + bits_before(divided_bits, point_word_offsets, slot_edge[6 * t + k]) : -1;
  int4 children[8];
  const int n = bisect_tetrahedron(vload4(t, tetrahedra), marks, rank, mid, children);
  const int first = nibbles_before(packed_children, child_word_offsets, t);
  const int parent = parents_are_ids ? t : parent_in[t];
  vstore4(children[0], t, tetrahedra);
  for (int j = 1; j < n; ++j)
  {
    vstore4(children[j], first + j - 1, appended);
    appended_parent[first + j - 1] = parent;
  }
  if (test_bit(marked_bits, t))
  {
    const int next = atomic_add(next_marked_count, n);
    next_marked[next] = t;
    for (int j = 1; j < n; ++j)
      next_marked[next + j] = count + first + j - 1;
  }
}
