// A filter's device mesh kept on the device between executions on an unchanged input (private
// to the module).
#ifndef vtkGPUMeshKeptMesh_h
#define vtkGPUMeshKeptMesh_h

#include "vtkGPUMeshAdapter.h"

#include "gpumesh/mesh/DeviceMesh.h"

#include <memory>

struct vtkGPUMeshPiece;

namespace vtkGPUMeshKeptMesh
{

/// The device mesh of `piece` as `description` (vtkGPUMeshAdapter::DescribeMesh of it) shows
/// it, with cells of at least `minimumDimension` (gpumesh::DeviceMesh): the one an earlier
/// execution on this device made, when the piece is the same dataset (and ghost layer) with
/// none of its points, cell arrays or cell types modified since (their VTK modification times)
/// and the run's precision and the description's origin are the same; else uploaded now and
/// kept for the next (gpumesh::KeptDeviceData: a quarter of the device's memory, the least
/// recently used dropped, all of it when a run needs the memory). Several filters on one
/// input share it. Read-only: a filter that changes its mesh makes its own. Datasets other
/// than polydata and unstructured grids are uploaded every time. A piece with a ghost layer
/// is its dataset's kept mesh (got as above) extended on the device by the layer alone, and
/// kept beside it.
std::shared_ptr<const gpumesh::DeviceMesh> Get(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& piece,
  vtkGPUMeshAdapter::MeshDescription description, int minimumDimension = 1);

/// Whether a ghosted piece's mesh is its dataset's kept mesh extended on the device (Get), and
/// so whether the ghost layer's cells are best found there: on a GPU, where copies on the
/// device cost next to nothing beside the bus. On a CPU device a copy is host memory traffic
/// like the import itself, so the piece is imported whole as one view, unless the environment
/// sets GPUMESH_GHOST_LAYER_ON_DEVICE=1 (the tests of that path on a CPU, and comparisons).
bool ExtendsOnDevice(const gpumesh::DeviceRun& run);

} // namespace vtkGPUMeshKeptMesh

#endif
