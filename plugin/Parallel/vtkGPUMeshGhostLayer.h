// The one layer of ghost cells a distributed filter computes on (private to the module), built
// from the piece's interface only: each process sends each neighbour its cells that touch a
// point the two share (vtkGPUMeshPieceInterface), and keeps what it receives in arrays of its
// own that follow the input's (vtkGPUMeshPiece): the input is not copied. No process reads
// another's piece.
#ifndef vtkGPUMeshGhostLayer_h
#define vtkGPUMeshGhostLayer_h

#include "vtkSmartPointer.h"
#include "vtkType.h"

#include "vtkGPUMeshPiece.h"
#include "vtkGPUMeshPieceInterface.h"

#include "gpumesh/runtime/HostMemory.h"

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

class vtkMultiProcessController;
class vtkPointSet;
namespace gpumesh
{
class DeviceRun;
}

namespace vtkGPUMeshDistributed
{

/// A piece with one layer of ghost cells around the cells this process owns.
struct GhostedPiece
{
  /// The input's points (all of them, in the input's order) followed by the points of the ghost
  /// cells it lacks; the owned cells of the input (its own ghost cells left out), in order,
  /// followed by every cell of other processes sharing a point with them. Point and cell
  /// arrays are carried for ghosts too. Usually the input itself, and the ghost cells and
  /// their points in Layer; a copy (a vtkUnstructuredGrid, ghosts marked DUPLICATECELL in
  /// vtkGhostType, Layer empty) when the input has ghost cells of its own to leave out or
  /// received cells of a variable size (polygons, polylines, strips).
  vtkSmartPointer<vtkPointSet> Mesh;
  /// The ghost layer after Mesh's points and cells (vtkGPUMeshPiece's More* arrays).
  vtkGPUMeshPiece Layer;
  /// The first OwnedCells cells of Mesh are this process's; the others are ghosts.
  vtkIdType OwnedCells = 0;
  /// Per owned cell of Mesh: the input cell it is. Empty when they are the input's cells in
  /// order (an input without ghost cells of its own): no per-cell map in the common case.
  std::vector<vtkIdType> OwnedInputCell;
  /// The first InputPoints points of Mesh are the input's, in order; the others are points of
  /// other processes.
  vtkIdType InputPoints = 0;
  /// Per input point, then per point of other processes (from InputPoints on): the global
  /// point id, the same on every process holding the point. GlobalPointId(p) reads them.
  vtkGPUMeshGlobalPointIds InputGlobalIds;
  std::vector<long long> AddedGlobalIds;
  long long GlobalPointId(vtkIdType p) const
  {
    return p < this->InputPoints ? this->InputGlobalIds[static_cast<std::size_t>(p)]
                                 : this->AddedGlobalIds[p - this->InputPoints];
  }
  /// Where the ghost cells came from, in piece order after the owned cells: (the process that
  /// owns them, how many) per run of cells received from one process.
  std::vector<std::pair<int, vtkIdType>> GhostCellOwners;
  /// The input points of the cells this process sent to others as their ghosts, each once per
  /// message it went in, in no order: with the points of its own ghost cells, the only points
  /// another process can need from it.
  std::vector<vtkIdType> SentPoints;
  /// The box of the input's points (vtkGPUMeshNeighbors::BoxOf), found while building.
  std::array<double, 6> InputBox{};
  /// Bytes this process sent and received to build the piece.
  std::uint64_t BytesExchanged = 0;
  /// Whether the owned cells that use a point shared with another process were found on the
  /// device (BuildGhostedPiece's `device`).
  bool InterfaceCellsOnDevice = false;

  /// The piece to compute on: Mesh and Layer, the results needed for the input's points and
  /// the owned cells.
  vtkGPUMeshPiece View() const
  {
    vtkGPUMeshPiece view = this->Layer;
    view.Data = this->Mesh;
    view.ResultPoints = this->InputPoints;
    view.ResultCells = this->OwnedCells;
    return view;
  }
};

/// Where BuildGhostedPiece finds the cells around the points a piece shares: on the device of
/// `Run`, in the input's mesh kept there (vtkGPUMeshKeptMesh, with cells of at least
/// `MinimumDimension`, relative to the global bounds' centre), which the filter's ghosted mesh
/// then extends with the layer alone. The same on every process.
struct PieceDevice
{
  gpumesh::DeviceRun* Run = nullptr;
  int MinimumDimension = 1;
};

/// Builds the ghosted piece of `input`. Collective; throws gpumesh::Error (on every process)
/// when one fails: a point that is not finite or a cell that refers to a point outside the
/// piece is named. With `device`, the input's cells around its shared points are found there
/// (one pass over its cells on the device, none on the host) where
/// vtkGPUMeshKeptMesh::ExtendsOnDevice (a GPU), unless the input has ghost cells of its own or
/// cells its device mesh leaves out; else by a pass over its cells on the host. Where the
/// device also holds the input's own coordinates (not rounded to float), the piece's box and
/// its points in the neighbours' boxes are found there too (vtkGPUMeshPieceBox::OnDevice).
GhostedPiece BuildGhostedPiece(
  vtkPointSet* input, vtkMultiProcessController* controller, const PieceDevice* device = nullptr);

/// Per input cell (`inputCells` of them): its cell in the piece, or -1 for a ghost cell of the
/// input (whose owner computes it); empty when input cell c is piece cell c for every c.
std::vector<vtkIdType> PieceCellsOfInput(const GhostedPiece& piece, vtkIdType inputCells);

} // namespace vtkGPUMeshDistributed

#endif
