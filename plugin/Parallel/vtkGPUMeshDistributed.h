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

#include "gpumesh/primitives/Reduce.h"
#include "gpumesh/runtime/Devices.h"
#include "gpumesh/runtime/Precision.h"

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

class vtkDataArray;
class vtkDataSet;
class vtkMultiProcessController;
class vtkPointSet;

namespace vtkGPUMeshDistributed
{

/// The global controller when more than one process runs; nullptr in serial runs.
vtkMultiProcessController* GetController();

/// The device this process uses for the spec `device` (gpumesh::selectDevice), chosen once and
/// passed on as it is: under MPI, when the spec is "auto" (and GPUMESH_DEVICE names no device),
/// the processes of a node take different GPUs (gpumesh::selectDeviceForLocalRank), the
/// node-local rank coming from the MPI launcher's variables or, when it set none, from the host
/// names gathered through the controller. Processes of a node that share a CPU device each take
/// their share of its compute units (gpumesh::shareOfDevice), unless the user set the CPU
/// driver's thread count.
gpumesh::DeviceInfo DeviceForProcess(const std::string& device, vtkMultiProcessController* controller);

/// This process's rank among those of its node (0 without a controller): from the MPI
/// launcher's variables, else from the host names gathered through the controller (collective
/// then, once per process).
int NodeLocalRank(vtkMultiProcessController* controller);

/// Whether this process shares its node's cores with others of the run: its device (the last
/// DeviceForProcess chose) is a CPU device and the node runs several processes.
bool CoresShared();

/// Returns once `done()` is true, looking every 50 us and sleeping between looks: how this
/// module waits on MPI where CoresShared() (WaitForAll, vtkGPUMeshNeighbors' exchanges).
void WaitPatiently(const std::function<bool()>& done);

/// Where CoresShared(), waits until every process has arrived here, looking every 50 us and
/// sleeping between looks, instead of in MPI's own waits, which poll without pause (Open MPI's
/// default unless it knows the node oversubscribed): a process waiting for the others would
/// hold a core that their kernels and host loops need. The collectives of this module call it
/// first (and vtkGPUMeshNeighbors' exchanges wait on their messages so); elsewhere it does
/// nothing. Collective.
void WaitForAll(vtkMultiProcessController* controller);

/// How many processes run on this process's node (1 without a controller): from the MPI
/// launcher's variables, else from the host names gathered through the controller (collective
/// then). Found once per process.
int NodeProcessCount(vtkMultiProcessController* controller);

/// Runs `work`, then lets every process know whether it failed anywhere, so that no process
/// waits in a later exchange for one that gave up: a process whose work threw rethrows its
/// error, the others throw one naming the failed processes. Collective.
void AllSucceed(vtkMultiProcessController* controller, const std::function<void()>& work);

/// The statistics of all pieces, identical on every process (gathered and merged in rank
/// order by gpumesh::Statistics::merge). Collective.
gpumesh::Statistics AllReduceStatistics(
  vtkMultiProcessController* controller, const gpumesh::Statistics& piece);

/// The precision all processes run in: `piece` (what this process resolved) where every
/// process with points resolved the same, else Double; a process without points takes the
/// others' choice. Collective.
gpumesh::Precision AgreedPrecision(
  gpumesh::Precision piece, bool pieceHasPoints, vtkMultiProcessController* controller);

/// The ids of the ghost cells (vtkGhostType with DUPLICATECELL: copies of cells another
/// process owns), ascending; empty, without reading anything
/// per cell, when the dataset has no ghost array (every serial run).
std::vector<std::int32_t> GhostCellIds(vtkDataSet* dataset);

///@{
/// Element-wise reduction over processes in place (operation: vtkCommunicator::MIN_OP, MAX_OP
/// or SUM_OP). Nothing happens without a controller.
void AllReduce(vtkMultiProcessController* controller, double* values, int count, int operation);
void AllReduce(vtkMultiProcessController* controller, long long* values, int count, int operation);
///@}

/// Whether a run of `precision` rounds the piece's points to float relative to an origin
/// (points not float, in Single: gpumesh::PointsView::roundedIn, as DescribeMesh sees them).
bool PointsRoundedIn(vtkPointSet* piece, gpumesh::Precision precision);

/// The centre of the bounds of the points of all pieces (of this piece in serial): the origin
/// a serial run computes relative to, so that every cell is computed as in serial. Only pieces
/// whose points are rounded to float relative to it (points not float, run in Single
/// `precision`) pass over their points for their box; the others add none and use none.
std::array<double, 3> GlobalBoundsCentre(
  vtkPointSet* piece, vtkMultiProcessController* controller, gpumesh::Precision precision);
/// The same from the piece's box already found (vtkGPUMeshNeighbors::BoxOf): no pass over it.
std::array<double, 3> GlobalBoundsCentre(const std::array<double, 6>& pieceBox, vtkMultiProcessController* controller);

/// The input's array (`count` entries) of a result computed on a ghosted piece: entry e takes
/// the tuple of piece entry source[e], or `missing` in every component where source[e] is -1
/// (a ghost of the input, whose owner holds its values); with an empty `source`, the tuple of
/// piece entry e (the piece begins with the input's entries). Same type, components and name
/// as `piece`; filled in parallel in the array's own type. `piece` itself when it has the
/// input's entries only (an empty `source` and `count` tuples).
vtkSmartPointer<vtkDataArray> InputArrayOfPiece(
  vtkDataArray* piece, const std::vector<vtkIdType>& source, vtkIdType count, double missing);

} // namespace vtkGPUMeshDistributed

#endif
