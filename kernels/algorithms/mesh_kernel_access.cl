// Shared by the two GPU Mesh Kernel templates (kernels/algorithms/mesh_kernel_points.cl and
// kernels/algorithms/mesh_kernel_cells.cl): how a chosen array is read, and the cell neighbour lists they
// use. core/gpumesh/algorithms/MeshKernel.cxx assembles a program from kernels/runtime/common.cl, the #define lines
// it generates, this file and one template with the user's text spliced in.
//
// Every chosen array is packed, one after the other, into point_arrays or cell_arrays (REAL,
// its components interleaved); the generator defines for each one the pointer to its first
// value. A tuple of 1 to 4 components is read as REAL, REAL2, REAL3 or REAL4; a wider one a
// component at a time.
#define MK_READ_1(array, i) ((array)[(i)])
#define MK_READ_2(array, i) vload2((i), (array))
#define MK_READ_3(array, i) vload3((i), (array))
#define MK_READ_4(array, i) vload4((i), (array))
#define MK_READ_N(array, n, i, c) ((array)[(size_t)(i) * (n) + (c)])

#define MK_STORE_1(value, array, i) ((array)[(i)] = (value))
#define MK_STORE_2(value, array, i) vstore2((value), (i), (array))
#define MK_STORE_3(value, array, i) vstore3((value), (i), (array))
#define MK_STORE_4(value, array, i) vstore4((value), (i), (array))


// Index checks. The generator defines MK_CHECKED 1 (the default) or 0, and numbers the
// variables it checks (MK_VAR_<name> for the templates' own). Checked, an index outside its
// range is clamped into it, so the access stays within the buffers, and the first offending
// access is recorded in mk_error (MK_ERROR_VALUES ints, zeroed before each launch) for the host
// to report: whether one happened, the line in the user's text (__LINE__ under
// `#line 1 "Kernel"`), the variable, the index, the range's size and the work-item's id.
#define MK_ERROR_VALUES 6

inline void mk_fail(__global int* error, int line, int variable, int index, int size, int id)
{
  if (atomic_cmpxchg(error, 0, 1) == 0)
  {
    error[1] = line;
    error[2] = variable;
    error[3] = index;
    error[4] = size;
    error[5] = id;
  }
}

// Index c of a component (0..size-1, size >= 1).
inline int mk_index(int c, int size, int variable, int line, __global int* error, int id)
{
  if (c >= 0 && c < size)
    return c;
  mk_fail(error, line, variable, c, size, id);
  return clamp(c, 0, size - 1);
}

// The k-th id of a link row (0..count-1); `fallback` (an id that exists) when k is outside,
// since an empty row has no entry to clamp to.
inline int mk_link(__global const int* entries, size_t row, int count, int k, int fallback, int variable, int line,
  __global int* error, int id)
{
  if (k >= 0 && k < count)
    return entries[row + k];
  mk_fail(error, line, variable, k, count, id);
  return fallback;
}

#if MK_CHECKED
#define MK_INDEX(c, size, variable) mk_index((c), (size), (variable), __LINE__, mk_error, id)
#define MK_LINK(entries, row, count, k, fallback, variable)                                     \
  mk_link((entries), (row), (count), (k), (fallback), (variable), __LINE__, mk_error, id)
#else
#define MK_INDEX(c, size, variable) (c)
#define MK_LINK(entries, row, count, k, fallback, variable) ((entries)[(row) + (k)])
#endif
