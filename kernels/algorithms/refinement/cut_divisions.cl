// The closure's divisions on the cut of a distributed refinement (included by the triangles'
// and the tetrahedra's programs): the slots of the pass's cut edges are flagged once, and each
// exchange round keeps only the slots it divided among them, so that what comes back to the
// host is as large as the cut, not as the divisions (RefineAll divides most edges of a piece).

__kernel void flag_cut_slots(__global const int* slots, const int count, __global uchar* on_cut)
{
  const int i = get_global_id(0);
  if (i < count)
    on_cut[slots[i]] = 1;
}

// divided[first, first + count): the flagged ones, appended to `kept` (room for `capacity`,
// the cut's slots: a slot is divided once). `kept_count` counts them all, so that the host sees
// any beyond the room.
__kernel void cut_divisions(__global const int* divided, const int first, const int count,
  __global const uchar* on_cut, __global int* kept, const int capacity, volatile __global int* kept_count)
{
  const int i = get_global_id(0);
  if (i >= count)
    return;
  const int slot = divided[first + i];
  if (on_cut[slot])
  {
    const int at = atomic_inc(kept_count);
    if (at < capacity)
      kept[at] = slot;
  }
}
