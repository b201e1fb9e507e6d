// The programs each filter asks for on its first use, by kind of device and precision: what a
// truly cold first use (GPUMesh's cache folder remembers nothing for this device) builds
// concurrently before the filter runs, instead of one program after another as kernels ask.
#ifndef vtkGPUMeshFirstUsePrograms_h
#define vtkGPUMeshFirstUsePrograms_h

#include "gpumesh/runtime/DeviceContext.h"

class vtkPointSet;

#include <string>
#include <vector>

namespace vtkGPUMeshFirstUsePrograms
{
/// The programs `user` ("<filter class> <precision> <cell kinds>", as vtkGPUMeshFilter names it)
/// asked for on a device of the kind of `device` when the table was collected; empty when
/// unknown.
std::vector<gpumesh::ProgramRequest> For(const std::string& user, const gpumesh::DeviceInfo& device);

/// The kinds of cells `input` likely holds, as "cells <VTK type> ...": what the programs a
/// filter needs depend on besides the filter and its precision (a triangle surface and a
/// tetrahedral mesh need different ones). From a few cells and the polydata's sections, not a
/// pass over the mesh: it only chooses which programs to build ahead.
std::string CellKindsOf(vtkPointSet* input);
}

#endif
