// The programs each filter asks for on its first use, by kind of device and precision: what a
// truly cold first use (GPUMesh's cache folder remembers nothing for this device) builds
// concurrently before the filter runs, instead of one program after another as kernels ask.
#ifndef vtkGPUMeshFirstUsePrograms_h
#define vtkGPUMeshFirstUsePrograms_h

#include "gpumesh/runtime/DeviceContext.h"

#include <string>
#include <vector>

namespace vtkGPUMeshFirstUsePrograms
{
/// The programs `user` ("<filter class> <precision>", as vtkGPUMeshFilter names it) asked for
/// on a device of the kind of `device` when the table was collected; empty when unknown.
std::vector<gpumesh::ProgramRequest> For(const std::string& user, const gpumesh::DeviceInfo& device);
}

#endif
