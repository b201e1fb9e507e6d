// The device toolkit every GPU Mesh Kernel can call (docs/filters.md#device-toolkit): the
// geometry (lengths, areas, normals, volumes, distances and projections to lines and planes)
// and every Verdict quality measure of GPU Mesh Quality, one function each, the very functions
// the built-in filters call. GPU Mesh Kernel (core/gpumesh/algorithms/MeshKernel.cxx) puts this
// file before the user's text when the text calls one of its functions.
#include "geometry.cl"
#include "quality_tetra.cl"
#include "quality_hexahedron.cl"
#include "quality_pyramid.cl"
#include "quality_wedge.cl"

// The toolkit rounds every product and sum (geometry.cl); the user's own text is compiled
// as it would be without the toolkit.
#pragma OPENCL FP_CONTRACT DEFAULT
