// What the per-kind programs of GPU Mesh Quality (mesh_quality_<kind>.cl) share: the measures'
// numbers and the kernels' arguments.
// vtkMeshQuality::QualityMeasureTypes (VTK 9.2).
#define EDGE_RATIO 0
#define ASPECT_RATIO 1
#define RADIUS_RATIO 2
#define ASPECT_FROBENIUS 3
#define MED_ASPECT_FROBENIUS 4
#define MAX_ASPECT_FROBENIUS 5
#define MIN_ANGLE 6
#define COLLAPSE_RATIO 7
#define MAX_ANGLE 8
#define CONDITION 9
#define SCALED_JACOBIAN 10
#define SHEAR 11
#define RELATIVE_SIZE_SQUARED 12
#define SHAPE 13
#define SHAPE_AND_SIZE 14
#define DISTORTION 15
#define MAX_EDGE_RATIO 16
#define SKEW 17
#define TAPER 18
#define VOLUME 19
#define STRETCH 20
#define DIAGONAL 21
#define DIMENSION 22
#define ODDY 23
#define SHEAR_AND_SIZE 24
#define JACOBIAN 25
#define WARPAGE 26
#define ASPECT_GAMMA 27
#define AREA 28
#define EQUIANGLE_SKEW 29
#define EQUIVOLUME_SKEW 30
#define MAX_STRETCH 31
#define MEAN_ASPECT_FROBENIUS 32
#define MEAN_RATIO 33
#define NODAL_JACOBIAN_RATIO 34
#define NORMALIZED_INRADIUS 35
#define SQUISH_INDEX 36

// Every quality kernel takes the same arguments: the group, the points, the measure, the average
// size of the kind's cells over the whole mesh (area or volume, for the measures relative to it)
// and the per-cell output. A program built with -DMEASURE=<number> switches on that constant, so
// its build compiles one formula: GPU drivers spend seconds on a kind's whole switch (NVIDIA's
// took 2.2 s, truly cold, over a triangle's 15), where a CPU build of the switch costs little more
// than one measure's and serves them all.
#ifndef MEASURE
#define MEASURE measure
#endif
#define QUALITY_ARGS                                                                           \
  CELL_ARGS, __global const REAL *points, const int measure, const REAL average_size,          \
    __global REAL *quality
#define QUALITY_CELL                                                                           \
  const int i = get_global_id(0);                                                              \
  if (i >= count)                                                                              \
    return;                                                                                    \
  __global const int* v = connectivity + cell_start(i)
