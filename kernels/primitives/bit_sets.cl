// Bit sets: one flag per edge or cell, 32 per word, shared by the refinement programs
// (`#include "bit_sets.cl"`). They keep the arrays that every pass must clear, and that the
// prefix sums must scan, 32 times smaller than one word per item; after the scan of the
// per-word counts (word_bit_counts), bits_before numbers the set items in item order.

inline uint bit_of(int i)
{
  return 1u << (i & 31);
}

inline int test_bit(__global const uint* bits, int i)
{
  return (bits[i >> 5] & bit_of(i)) != 0;
}

// Sets bit i; whether this call set it (it was clear).
inline int claim_bit(__global uint* bits, int i)
{
  return (atomic_or(&bits[i >> 5], bit_of(i)) & bit_of(i)) == 0;
}

// Index of item i among the set bits, from its word's offset (the scan of word_bit_counts).
inline int bits_before(__global const uint* bits, __global const uint* word_offsets, int i)
{
  return (int)(word_offsets[i >> 5] + popcount(bits[i >> 5] & (bit_of(i) - 1u)));
}

// The per-word totals that the (small) prefix sums run over.
__kernel void word_bit_counts(__global const uint* bits, const int words, __global uint* counts)
{
  const int w = get_global_id(0);
  if (w < words)
    counts[w] = popcount(bits[w]);
}
