// VTK <-> core conversions shared by the GPUMesh filters (private to the module).
#ifndef vtkGPUMeshAdapter_h
#define vtkGPUMeshAdapter_h

#include "gpumesh/mesh/MeshView.h"
#include "gpumesh/runtime/DeviceRun.h"

#include "vtkSmartPointer.h"

#include <string>
#include <vector>

class vtkDataArray;
class vtkPointSet;
struct vtkGPUMeshPiece;

namespace vtkGPUMeshAdapter
{

/// `input` described to the core through VTK's own arrays (its points, the offsets and
/// connectivity of its vtkCellArrays, the cell types of a grid), uploaded as they are by
/// gpumesh::DeviceMesh (read in place on a CPU device: MeshView::readInPlace) and classified
/// on the device. Valid while `input` lives unchanged: keep the description and `input` alive
/// and unmodified as long as any DeviceMesh made from it.
/// Vertices, poly-vertices and empty cells take part in nothing; pixels and voxels become
/// quads and hexahedra. Cells of types the core does not handle (quadratic and higher-order
/// cells, polyhedra, prisms) are errors naming the first such cell, raised by DeviceMesh.
struct MeshDescription
{
  gpumesh::MeshView view;
  vtkSmartPointer<vtkDataArray> convertedPoints; ///< points of a type other than float/double
  vtkSmartPointer<vtkDataArray> convertedTail;   ///< a piece's ghost points, in its points' type
};
MeshDescription DescribeMesh(vtkPointSet* input, gpumesh::Precision precision);

/// DescribeMesh of a piece (vtkGPUMeshPiece): its dataset's arrays as they are, then its ghost
/// layer's (a tail of points and one more section of cells). Valid while the piece's arrays
/// live unchanged.
MeshDescription DescribeMesh(const vtkGPUMeshPiece& piece, gpumesh::Precision precision);

/// The precision a filter runs in: Auto (0) is the input points' (double for any type but
/// float); otherwise the one asked for (1 Single, 2 Double; the filter checks the value).
gpumesh::Precision ResolvePrecision(int property, vtkPointSet* input);

/// The tuples of `array` on the device as REAL values: float and double arrays go up as they
/// are, other types through a double copy. A finite value outside the run's precision is an
/// error naming the array, the tuple and the value (suggesting Precision Double).
gpumesh::RealBuffer UploadArray(gpumesh::DeviceRun& run, vtkDataArray* array);

/// UploadArray of `values` followed by `more` (a ghost layer's values of the same array, or
/// null), into one buffer.
gpumesh::RealBuffer UploadArray(gpumesh::DeviceRun& run, vtkDataArray* values, vtkDataArray* more);

/// A new float or double array (as the run's precision) named `name`, of `tuples` x
/// `components`, filled from `values` on the device.
vtkSmartPointer<vtkDataArray> DownloadArray(gpumesh::DeviceRun& run, const gpumesh::RealBuffer& values,
  vtkIdType tuples, int components, const char* name);

/// "VTK_QUADRATIC_TETRA"-style readable name of a VTK cell type.
std::string CellTypeName(int vtkCellType);

} // namespace vtkGPUMeshAdapter

#endif
