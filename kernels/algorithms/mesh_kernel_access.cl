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

