// Longest-edge bisection of triangles (Rivara), in the seven steps of Hatipoglu's thesis
// (seed 002): no locks, and every output array allocated once from the prefix sums.
//
// Steps 1-2 and 6 run over every edge or triangle; steps 3, 4, 5 and 7 run only over the
// marked triangles, the edges they divide and the triangles those edges touch, so that
// refining a few triangles of a large mesh costs little more than reading it. Unchanged
// triangles (and the first child of each refined one) keep their index; the other children
// are appended in the order of their parents.
//
// The edges are the unique sides of the triangles (gpumesh::CellEntities): slot 3t + j of
// triangle t is its local edge j, from vertex j to vertex (j + 1) % 3, and slot_edge gives the
// edge's id; an edge's vertices are read from the triangles (slot_ends).
//
// The longest edge of a triangle follows the longest-edge order of edge_order.cl (the tie
// rule's one home), so every triangle sharing an edge agrees on it.
#include "edge_order.cl"
#include "bit_sets.cl"
#include "cut_divisions.cl"

// The vertices of slot j of triangle t (its edge from vertex j to vertex (j + 1) % 3), as
// (smaller id, larger id).
inline uint2 slot_ends(__global const int* triangles, int t, int j)
{
  return edge_ends(triangles[3 * t + j], triangles[3 * t + (j + 1) % 3]);
}

// Whether the edge of `slot` is shared by more than two triangles, seen from its triangle t:
// the triangle across does not point back across the same edge (gpumesh::SlotNeighbors::Only;
// every triangle of the edge but the first points to the first, which points to the second).
// Returns the smallest of the three triangles involved, else INT_MAX.
inline int non_manifold_at(int t, int slot, __global const int* slot_edge, __global const int* neighbor)
{
  const int across = neighbor[slot];
  if (across < 0)
    return INT_MAX;
  for (int k = 0; k < 3; ++k)
  {
    const int back = 3 * across + k;
    if (slot_edge[back] == slot_edge[slot])
      return neighbor[back] == t ? INT_MAX : min(t, min(across, neighbor[back]));
  }
  return INT_MAX;
}

// Steps 1-2: the longest edge of every triangle (its local index, 0-2), from the squared
// lengths of its edges, computed here (no per-edge array: every triangle sharing an edge
// computes the same bits for it). In the same pass, the checks: a zero-length edge or a zero
// area makes a triangle degenerate; an edge shared by more than two triangles makes it
// non-manifold; an edge of distinct points whose squared length leaves REAL's normal range (0
// or infinity where it is not) makes lengths and areas unreliable in this precision. The
// smallest offending cell id of each kind is kept (atomic_min; for a non-manifold edge the
// smallest of its triangles), so the report does not depend on the schedule.
__kernel void longest_edges(__global const REAL* points, __global const int* triangles,
  __global const int* slot_edge, __global const int* neighbor, __global const long* tie_ids,
  const int use_tie_ids, const int count, __global uchar* longest,
  __global int* first_bad /* [0] degenerate, [1] non-manifold, [3] range */)
{
  const int t = get_global_id(0);
  if (t >= count)
    return;
  const int ids[3] = { triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2] };
  const REAL3 corner[3] = { point_at(points, ids[0]), point_at(points, ids[1]), point_at(points, ids[2]) };
  int out_of_range = 0;
  int degenerate = 0;
  int non_manifold = INT_MAX;
  int best = 0;
  uint2 best_ends;
  REAL best_length2;
  for (int j = 0; j < 3; ++j)
  {
    const int k = j == 2 ? 0 : j + 1;
    const uint2 ends = edge_ends(ids[j], ids[k]);
    // The same bits from either end (a difference only changes sign), as edge_lengths computes.
    const REAL l2 = squared_length(corner[j], corner[k]);
    const int distinct = any(corner[j] != corner[k]);
    out_of_range |= distinct && !(representable(l2) && l2 > (REAL)0);
    degenerate |= !distinct;
    non_manifold = min(non_manifold, non_manifold_at(t, 3 * t + j, slot_edge, neighbor));
    // (The tie keys are read only on a tie.)
    if (j == 0 || (l2 != best_length2 ? l2 > best_length2
                                      : longer_than(l2, tie_key_of(ends, tie_ids, use_tie_ids), best_length2,
                                          tie_key_of(best_ends, tie_ids, use_tie_ids))))
    {
      best = j;
      best_ends = ends;
      best_length2 = l2;
    }
  }
  longest[t] = (uchar)best;
  degenerate |= length(cross(corner[1] - corner[0], corner[2] - corner[0])) == (REAL)0;
  if (out_of_range)
    atomic_min(&first_bad[3], t);
  else if (degenerate)
    atomic_min(&first_bad[0], t);
  if (non_manifold != INT_MAX)
    atomic_min(&first_bad[1], non_manifold);
}

// The vertices of the boundary edges (slots without a neighbour), appended to a list of
// `capacity` entries for the seam check (gpumesh::rejectSeams); list_size counts every entry,
// also those beyond the capacity.
__kernel void boundary_points(__global const int* triangles, __global const int* neighbor, const int slots,
  const int capacity, __global int* list, __global int* list_size)
{
  const int s = get_global_id(0);
  if (s >= slots || neighbor[s] >= 0)
    return;
  const uint2 ends = slot_ends(triangles, s / 3, s % 3);
  const int k = atomic_add(list_size, 2);
  if (k < capacity)
    list[k] = (int)ends.x;
  if (k + 1 < capacity)
    list[k + 1] = (int)ends.y;
}

// Packed counters hold the extra children of a triangle (0-3) in 2 bits (16 per word), like
// the bit sets of bit_sets.cl.
inline int fields_before(__global const uint* packed, __global const uint* word_offsets, int t)
{
  const uint word = packed[t >> 4];
  uint sum = word_offsets[t >> 4];
  for (int k = 0; k < (t & 15); ++k)
    sum += (word >> (2 * k)) & 3u;
  return (int)sum;
}

// Claims edge `slot_edge[slot]` for division; the first claimer records the slot it came
// through (the edge is the longest of that slot's triangle) and returns 1.
inline int claim(int slot, __global const int* slot_edge, __global uint* divided_bits,
  __global int* divided, __global int* divided_count)
{
  const int e = slot_edge[slot];
  if (atomic_or(&divided_bits[e >> 5], bit_of(e)) & bit_of(e))
    return 0;
  divided[atomic_inc(divided_count)] = slot;
  return 1;
}

// Step 3: the roots of the dependency forest. Each marked triangle claims its longest edge
// and flags itself, so its children stay marked in the next pass.
__kernel void dependency_roots(__global const int* marked, const int marked_count,
  __global const int* slot_edge, __global const uchar* longest, __global uint* divided_bits,
  __global int* divided, __global int* divided_count, __global uint* marked_bits)
{
  const int i = get_global_id(0);
  if (i >= marked_count)
    return;
  const int t = marked[i];
  atomic_or(&marked_bits[t >> 5], bit_of(t));
  claim(3 * t + longest[t], slot_edge, divided_bits, divided, divided_count);
}

// Step 4: propagation along the forest. A divided edge is the longest edge of the triangle
// it was claimed from; the triangle across it must then divide its own longest edge, which
// is longer, and so on: each claimed edge extends one chain. The claimer of an edge walks on
// across it, so every chain is walked once; the set of divided edges is the closure, whatever
// the schedule. Work-items start from the roots claimed in step 3.
// Walks the chain from a claimed slot across its edge, claiming longest edges until a chain
// already walked (or the boundary) is met.
inline void walk_chain(int slot, __global const int* neighbor, __global const int* slot_edge,
  __global const uchar* longest, __global uint* divided_bits, __global int* divided,
  __global int* divided_count)
{
  for (;;)
  {
    const int across = neighbor[slot];
    if (across < 0)
      return;
    const int next = 3 * across + longest[across];
    if (slot_edge[next] == slot_edge[slot] ||
      !claim(next, slot_edge, divided_bits, divided, divided_count))
      return;
    slot = next;
  }
}

__kernel void propagate(const int roots, __global const int* neighbor,
  __global const int* slot_edge, __global const uchar* longest, __global uint* divided_bits,
  __global int* divided, __global int* divided_count)
{
  const int i = get_global_id(0);
  if (i >= roots)
    return;
  walk_chain(divided[i], neighbor, slot_edge, longest, divided_bits, divided, divided_count);
}

// Step 4 across processes: edges another process divided on the cut (`forced`, a slot of the
// one triangle here that has the edge). The triangle must then divide its own longest edge,
// and the chain goes on from there as in propagate.
__kernel void force_edges(__global const int* forced, const int forced_count,
  __global const int* neighbor, __global const int* slot_edge, __global const uchar* longest,
  __global uint* divided_bits, __global int* divided, __global int* divided_count)
{
  const int i = get_global_id(0);
  if (i >= forced_count)
    return;
  const int slot = forced[i];
  if (!claim(slot, slot_edge, divided_bits, divided, divided_count))
    return;
  const int next = 3 * (slot / 3) + longest[slot / 3];
  if (slot_edge[next] == slot_edge[slot] ||
    !claim(next, slot_edge, divided_bits, divided, divided_count))
    return;
  walk_chain(next, neighbor, slot_edge, longest, divided_bits, divided, divided_count);
}

// Step 5: for each divided edge, one more child for each of its (at most two) triangles;
// the first to count a triangle lists it as affected.
__kernel void count_children(__global const int* divided, const int divided_count,
  __global const int* neighbor, __global uint* packed_children, __global int* affected,
  __global int* affected_count)
{
  const int i = get_global_id(0);
  if (i >= divided_count)
    return;
  const int slot = divided[i];
  const int sides[2] = { slot / 3, neighbor[slot] };
  for (int k = 0; k < 2; ++k)
  {
    const int t = sides[k];
    if (t < 0)
      continue;
    const uint shift = 2 * (t & 15);
    if (((atomic_add(&packed_children[t >> 4], 1u << shift) >> shift) & 3u) == 0)
      affected[atomic_inc(affected_count)] = t;
  }
}

// Step 6: the per-word totals that the (small) prefix sums run over (word_bit_counts: bit_sets.cl).
__kernel void word_field_sums(__global const uint* packed, const int words, __global uint* sums)
{
  const int w = get_global_id(0);
  if (w >= words)
    return;
  const uint word = packed[w];
  uint sum = 0;
  for (int k = 0; k < 16; ++k)
    sum += (word >> (2 * k)) & 3u;
  sums[w] = sum;
}

// Step 7a: the midpoint of each divided edge; new points are numbered in edge order. (a + b)/2
// in REAL is the correctly rounded midpoint (halving is exact), the same value an adapter
// computes from the parents in the input's precision.
__kernel void new_points(__global const REAL* points, __global const int* triangles,
  __global const int* divided, const int divided_count, __global const int* slot_edge,
  __global const uint* divided_bits, __global const uint* point_word_offsets,
  __global REAL* out_points, __global int2* point_parents)
{
  const int i = get_global_id(0);
  if (i >= divided_count)
    return;
  const int slot = divided[i];
  const int e = slot_edge[slot];
  const uint2 v = slot_ends(triangles, slot / 3, slot % 3);
  const int p = bits_before(divided_bits, point_word_offsets, e);
  vstore3((REAL)0.5 * (point_at(points, (int)v.x) + point_at(points, (int)v.y)), p, out_points);
  point_parents[p] = (int2)((int)v.x, (int)v.y);
}

// Step 7b: Rivara's templates, for the affected triangles. Rotate (a, b, c) so that a-b is
// the longest edge, keeping the orientation; M is its midpoint, Nbc and Nca the midpoints of
// the other divided edges. Children, in this order, all keep t's orientation:
//   a-b only:         (M b c) (a M c)
//   a-b and b-c:      (M b Nbc) (M Nbc c) (a M c)
//   a-b and c-a:      (M b c) (a M Nca) (M c Nca)
//   all three:        (M b Nbc) (M Nbc c) (a M Nca) (M c Nca)
// The first child replaces t in `triangles` (each work-item reads and writes only its own
// triangle); the others go to `appended`, after those of lower-numbered triangles. A divided
// edge always drags the longest edge with it (steps 3-4); a triangle found otherwise is
// reported in first_bad[2] rather than written wrongly. Children of marked triangles are
// listed as the next pass's marks (appended ones numbered after the `count` kept triangles).
__kernel void apply_templates(__global const int* affected, const int affected_count,
  __global int* triangles, __global const int* slot_edge, __global const uchar* longest,
  __global const uint* divided_bits, __global const uint* point_word_offsets,
  __global const uint* packed_children, __global const uint* child_word_offsets,
  __global const uint* marked_bits, __global const int* parent_in, const int parents_are_ids,
  const int count, const int old_points, __global int* appended, __global int* appended_parent,
  __global int* next_marked, __global int* next_marked_count, __global int* first_bad)
{
  const int i = get_global_id(0);
  if (i >= affected_count)
    return;
  const int t = affected[i];
  const int r = longest[t];
  const int a = triangles[3 * t + r];
  const int b = triangles[3 * t + (r + 1) % 3];
  const int c = triangles[3 * t + (r + 2) % 3];
  const int ab = slot_edge[3 * t + r];
  const int bc = slot_edge[3 * t + (r + 1) % 3];
  const int ca = slot_edge[3 * t + (r + 2) % 3];
  if (!test_bit(divided_bits, ab))
  {
    atomic_min(&first_bad[2], t);
    return;
  }
  const int m = old_points + bits_before(divided_bits, point_word_offsets, ab);
  int3 child[4];
  int k = 0;
  if (test_bit(divided_bits, bc))
  {
    const int n = old_points + bits_before(divided_bits, point_word_offsets, bc);
    child[k++] = (int3)(m, b, n);
    child[k++] = (int3)(m, n, c);
  }
  else
    child[k++] = (int3)(m, b, c);
  if (test_bit(divided_bits, ca))
  {
    const int n = old_points + bits_before(divided_bits, point_word_offsets, ca);
    child[k++] = (int3)(a, m, n);
    child[k++] = (int3)(m, c, n);
  }
  else
    child[k++] = (int3)(a, m, c);

  const int first = fields_before(packed_children, child_word_offsets, t);
  const int parent = parents_are_ids ? t : parent_in[t];
  vstore3(child[0], t, triangles);
  for (int j = 1; j < k; ++j)
  {
    vstore3(child[j], first + j - 1, appended);
    appended_parent[first + j - 1] = parent;
  }
  if (test_bit(marked_bits, t))
  {
    const int next = atomic_add(next_marked_count, k);
    next_marked[next] = t;
    for (int j = 1; j < k; ++j)
      next_marked[next + j] = count + first + j - 1;
  }
}
