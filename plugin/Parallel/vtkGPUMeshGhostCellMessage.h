// What a process sends a neighbour to build its ghost layer (private to the module): cells of
// its piece with their types, their points (coordinates and global ids) and the point and cell
// arrays of both, in one flat buffer written and read with bulk copies (no per-tuple calls, no
// dataset serialisation). The neighbour reads it in place (Message).
#ifndef vtkGPUMeshGhostCellMessage_h
#define vtkGPUMeshGhostCellMessage_h

#include "vtkSmartPointer.h"
#include "vtkType.h"

#include "vtkGPUMeshNeighbors.h"

#include "gpumesh/runtime/HostMemory.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

class vtkPointSet;

namespace vtkGPUMeshGhostCellMessage
{

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

/// An array of a received message, read in place: `Tuples` tuples of `Components` values of
/// VTK type `Type` at `Values` (not aligned: read them as bytes).
struct ArrayView
{
  std::string Name;
  int Type = 0;
  int Components = 0;
  vtkIdType Tuples = 0;
  std::size_t TupleBytes = 0;
  const char* Values = nullptr;
};

/// What a message holds, read in place from its bytes (which must outlive it): the receiver
/// copies each value once, into its ghost layer, instead of into a grid first. Offsets,
/// connectivity and global ids are 64-bit, unaligned.
struct Message
{
  vtkIdType Cells = 0;
  const unsigned char* Types = nullptr;
  vtkIdType Ids = 0;
  const char* Offsets = nullptr;      // Cells + 1
  const char* Connectivity = nullptr; // Ids, each a point of the message
  vtkIdType Points = 0;
  const char* GlobalIds = nullptr;    // Points
  ArrayView Xyz;                      // Points, 3 components
  std::vector<ArrayView> PointArrays; // Points tuples each
  std::vector<ArrayView> CellArrays;  // Cells tuples each

  std::int64_t Offset(vtkIdType c) const { return Load(this->Offsets, c); }
  std::int64_t Id(vtkIdType k) const { return Load(this->Connectivity, k); }
  std::int64_t GlobalId(vtkIdType p) const { return Load(this->GlobalIds, p); }
  /// The array named `name` among PointArrays or CellArrays, or null.
  static const ArrayView* Named(const std::vector<ArrayView>& arrays, const char* name);

private:
  static std::int64_t Load(const char* at, vtkIdType i)
  {
    std::int64_t value;
    std::memcpy(&value, at + static_cast<std::size_t>(i) * sizeof value, sizeof value);
    return value;
  }
};

/// The message in `bytes` (empty: no cells, no points), checked: counts within the message,
/// offsets in order, point ids among its points, known value types. A malformed message is a
/// gpumesh::Error naming process `from`.
Message Read(const vtkGPUMeshNeighbors::Buffer& bytes, int from);

} // namespace vtkGPUMeshGhostCellMessage

#endif
