// VTK -> core conversions shared by the GPUMesh filters (private to the module).
#ifndef vtkGPUMeshAdapter_h
#define vtkGPUMeshAdapter_h

#include "gpumesh/HostMesh.h"

#include <array>
#include <string>
#include <vector>

class vtkDataArray;
class vtkPointSet;

namespace vtkGPUMeshAdapter
{

/// The points and cells of `input` as a core mesh. Vertices, poly-vertices and empty cells are
/// left out (they have no length, area or volume); pixels and voxels become quads and
/// hexahedra. Throws gpumesh::Error naming the first cell of a type the core does not handle
/// (quadratic and higher-order cells, polyhedra, prisms) and any non-finite point coordinate.
/// `origin`: the one the points are made relative to (the pieces of a distributed run share
/// one); by default the centre of the input's bounds.
gpumesh::HostMesh ToHostMesh(vtkPointSet* input, const std::array<double, 3>* origin = nullptr);

/// The tuples of `array` as interleaved floats. NaN stays NaN; a finite value too large for a
/// float is an error naming the array and the tuple (it is never turned into infinity).
std::vector<float> ToFloats(vtkDataArray* array);

/// "VTK_QUADRATIC_TETRA"-style readable name of a VTK cell type.
std::string CellTypeName(int vtkCellType);

} // namespace vtkGPUMeshAdapter

#endif
