// What a process sends a neighbour to build its ghost layer (private to the module): cells of
// its piece with their types, their points (coordinates and global ids) and the point and cell
// arrays of both, in one flat buffer written and read with bulk copies (no per-tuple calls, no
// dataset serialisation). The neighbour reads it back as a vtkUnstructuredGrid.
#ifndef vtkGPUMeshGhostCellMessage_h
#define vtkGPUMeshGhostCellMessage_h

#include "vtkSmartPointer.h"
#include "vtkType.h"

#include "vtkGPUMeshNeighbors.h"

#include "gpumesh/runtime/HostMemory.h"

#include <cstdint>
#include <vector>

class vtkPointSet;
class vtkUnstructuredGrid;

namespace vtkGPUMeshGhostCellMessage
{

/// The name of the received grid's point array of global point ids (vtkTypeInt64Array).
constexpr const char* GlobalIdArray = "vtkGPUMeshGlobalPointId";

/// Cells as they are sent: per cell its VTK type and its point ids in `input`'s numbering.
/// In reused host pages (a message's cells are several MB for a large piece: fresh pages would
/// fault on first touch).
struct Cells
{
  gpumesh::HostVector<unsigned char> Types;
  gpumesh::HostVector<vtkIdType> Offsets{ 0 }; // cells + 1
  gpumesh::HostVector<vtkIdType> Ids;          // points of `input`
};

/// The message of `cells` of `input`, whose input cell ids are `cellIds` (for the cell
/// arrays); `globalIds`: per input point, its global id. `localOf`: -1 per input point (or
/// empty: it is made so, on all threads), and so again on return, reused from one message to
/// the next. The message is sized first and written once: every array's tuples are gathered
/// as bytes straight into it. `pointsHeld`, when given, gets the input points the message holds, each once.
vtkGPUMeshNeighbors::Buffer Write(vtkPointSet* input, const Cells& cells, const std::vector<vtkIdType>& cellIds,
  const long long* globalIds, gpumesh::HostVector<std::int32_t>& localOf, std::vector<vtkIdType>* pointsHeld = nullptr);

/// The grid a message holds (empty for an empty message), its global point ids in
/// GlobalIdArray. A malformed message is a gpumesh::Error naming process `from`.
vtkSmartPointer<vtkUnstructuredGrid> Read(const vtkGPUMeshNeighbors::Buffer& bytes, int from);

} // namespace vtkGPUMeshGhostCellMessage

#endif
