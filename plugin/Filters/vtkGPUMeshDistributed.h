// Runs under ParaView's MPI engine (pvbatch, pvserver): the global controller, reductions over
// processes, ghost cells, global point ids and the device of each process (private to the module).
//
// Every function taking a controller is collective: all processes call it, in the same order,
// whatever their piece holds (an empty piece included). A null controller means a serial run,
// and then nothing is exchanged.
#ifndef vtkGPUMeshDistributed_h
#define vtkGPUMeshDistributed_h

#include "vtkSmartPointer.h"
#include "vtkType.h"

#include "gpumesh/Reduce.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class vtkDataSet;
class vtkMultiProcessController;
class vtkPointSet;

namespace vtkGPUMeshDistributed
{

/// The global controller when more than one process runs; nullptr in serial runs.
vtkMultiProcessController* GetController();

/// The device spec this process uses for `device`: unchanged unless it is "auto" (and
/// GPUMESH_DEVICE names no device); then the processes of a node take different GPUs
/// (gpumesh::selectDeviceForLocalRank), the node-local rank coming from the MPI launcher's
/// variables or, when it set none, from the host names gathered through the controller.
std::string DeviceSpecForProcess(const std::string& device, vtkMultiProcessController* controller);

/// Runs `work`, then lets every process know whether it failed anywhere, so that no process
/// waits in a later exchange for one that gave up: a process whose work threw rethrows its
/// error, the others throw one naming the failed processes. Collective.
void AllSucceed(vtkMultiProcessController* controller, const std::function<void()>& work);

/// The statistics of all pieces, identical on every process (gathered and combined in rank
/// order by gpumesh::combineStatistics). Collective.
gpumesh::Statistics AllReduceStatistics(
  vtkMultiProcessController* controller, const gpumesh::Statistics& piece);

/// One flag per cell: 1 for a ghost cell (vtkGhostType with DUPLICATECELL: a copy of a cell
/// another process owns), else 0. All zero when the dataset has no ghost array.
std::vector<std::uint8_t> GhostCellFlags(vtkDataSet* dataset);

///@{
/// Element-wise reduction over processes in place (operation: vtkCommunicator::MIN_OP, MAX_OP
/// or SUM_OP). Nothing happens without a controller.
void AllReduce(vtkMultiProcessController* controller, double* values, int count, int operation);
void AllReduce(vtkMultiProcessController* controller, long long* values, int count, int operation);
///@}

/// The centre of the bounds of the points of all pieces (of this piece in serial): the origin
/// a serial run computes relative to, so that every cell is computed as in serial.
std::array<double, 3> GlobalBoundsCentre(vtkPointSet* piece, vtkMultiProcessController* controller);

/// A piece with one layer of ghost cells around the cells this process owns.
struct GhostedPiece
{
  /// The owned cells of the input (its own ghost cells left out) followed by every cell of
  /// other processes sharing a point with them, which are marked DUPLICATECELL.
  vtkSmartPointer<vtkPointSet> Mesh;
  /// Per cell of Mesh: 1 for a ghost cell.
  std::vector<std::uint8_t> GhostCell;
  /// Per cell of Mesh: the input cell it is, or -1 (a ghost).
  std::vector<vtkIdType> InputCell;
  /// Per point of Mesh: the input point with its global id, or -1 (a point of another process).
  std::vector<vtkIdType> InputPoint;
  /// Per point of Mesh: the global point id, the same on every process holding the point.
  std::vector<long long> GlobalPointId;
  /// Per point of the input: its global point id.
  std::vector<long long> InputGlobalPointId;
};

/// Builds the ghosted piece (vtkGhostCellsGenerator over all processes). Global point ids are
/// the input's (vtkPointData::GetGlobalIds) when every non-empty piece has them, else generated
/// by vtkGenerateGlobalIds from coincident points. Collective; throws gpumesh::Error when the
/// generation fails.
GhostedPiece BuildGhostedPiece(vtkPointSet* input, vtkMultiProcessController* controller);

} // namespace vtkGPUMeshDistributed

#endif
