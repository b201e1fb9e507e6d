#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshNeighbors.h"
#include "vtkGPUMeshOutputArrays.h"

#include "vtkArrayDispatch.h"
#include "vtkCellArray.h"
#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkDataArrayRange.h"
#include "vtkDataSetAttributes.h"
#include "vtkMPI.h"
#include "vtkMPICommunicator.h"
#include "vtkMultiProcessController.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkTimerLog.h"
#include "vtkUnstructuredGrid.h"
#include "vtkUnsignedCharArray.h"

#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/runtime/DeviceAssignment.h"
#include "gpumesh/runtime/Error.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <limits>
#include <string>
#include <thread>
#include <vector>

namespace vtkGPUMeshDistributed
{

namespace
{
// Every process's host name, in rank order (collective).
std::vector<std::string> hostNames(vtkMultiProcessController* controller)
{
  constexpr int nameLength = 256;
  std::vector<char> mine(nameLength, '\0');
  gethostname(mine.data(), nameLength - 1);
  const int processes = controller->GetNumberOfProcesses();
  std::vector<char> all(static_cast<std::size_t>(nameLength) * processes, '\0');
  controller->AllGather(mine.data(), all.data(), nameLength);
  std::vector<std::string> names;
  for (int p = 0; p < processes; ++p)
  {
    names.emplace_back(all.data() + static_cast<std::size_t>(p) * nameLength);
  }
  return names;
}

} // namespace

int NodeLocalRank(vtkMultiProcessController* controller)
{
  static int found = -1;
  const int fromLauncher = gpumesh::localRankFromEnvironment();
  if (fromLauncher >= 0 || !controller)
  {
    return fromLauncher >= 0 ? fromLauncher : 0;
  }
  if (found < 0)
  {
    found = gpumesh::localRankFromHostNames(hostNames(controller), controller->GetLocalProcessId());
  }
  return found;
}

int NodeProcessCount(vtkMultiProcessController* controller)
{
  static int found = 0;
  if (!controller)
  {
    return 1;
  }
  if (found > 0)
  {
    return found;
  }
  for (const char* name : { "OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS" })
  {
    const char* value = std::getenv(name);
    if (value && std::atoi(value) > 0)
    {
      return found = std::atoi(value);
    }
  }
  const std::vector<std::string> names = hostNames(controller);
  const std::string& mine = names[static_cast<std::size_t>(controller->GetLocalProcessId())];
  return found = std::max(1, static_cast<int>(std::count(names.begin(), names.end(), mine)));
}

vtkMultiProcessController* GetController()
{
  vtkMultiProcessController* controller = vtkMultiProcessController::GetGlobalController();
  return controller && controller->GetNumberOfProcesses() > 1 ? controller : nullptr;
}

namespace
{
// Whether this process's node runs several processes on one CPU device (DeviceForProcess).
std::atomic<bool> coresShared{ false };
} // namespace

void WaitPatiently(const std::function<bool()>& done)
{
  // A short nap between looks: far below a CPU kernel's time, long enough that the core goes to
  // a process with work.
  while (!done())
    std::this_thread::sleep_for(std::chrono::microseconds(50));
}

gpumesh::DeviceInfo DeviceForProcess(const std::string& device, vtkMultiProcessController* controller)
{
  if (!controller)
  {
    return gpumesh::selectDevice(device);
  }
  // Every process takes part in the host-name gatherings, whatever its own spec says.
  const int localRank = NodeLocalRank(controller);
  const int onNode = NodeProcessCount(controller);
  gpumesh::DeviceInfo chosen = gpumesh::selectDeviceForLocalRank(device, localRank, onNode);
  coresShared = chosen.isCPU && !chosen.isGPU && onNode > 1;
  return chosen;
}

bool CoresShared()
{
  return coresShared;
}

void WaitForAll(vtkMultiProcessController* controller)
{
  auto* mpi = controller && coresShared ? vtkMPICommunicator::SafeDownCast(controller->GetCommunicator()) : nullptr;
  if (!mpi || !mpi->GetMPIComm() || !mpi->GetMPIComm()->GetHandle())
  {
    return;
  }
  MPI_Request request;
  MPI_Ibarrier(*mpi->GetMPIComm()->GetHandle(), &request);
  WaitPatiently([&] {
    int done = 0;
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    return done != 0;
  });
}

void AllSucceed(vtkMultiProcessController* controller, const std::function<void()>& work)
{
  std::exception_ptr failure;
  try
  {
    work();
  }
  catch (...)
  {
    failure = std::current_exception();
  }
  if (!controller)
  {
    if (failure)
    {
      std::rethrow_exception(failure);
    }
    return;
  }
  std::vector<int> all(static_cast<std::size_t>(controller->GetNumberOfProcesses()), 0);
  {
    // Where a process waits for the slowest: labelled, or it shows in no phase.
    vtkTimerLogScope scope("GPUMesh: all succeed");
    WaitForAll(controller);
    int failed = failure ? 1 : 0;
    controller->AllGather(&failed, all.data(), 1);
  }
  const int processes = controller->GetNumberOfProcesses();
  if (failure)
  {
    std::rethrow_exception(failure);
  }
  std::string which;
  for (int p = 0; p < processes; ++p)
  {
    which += all[p] ? (which.empty() ? "" : ", ") + std::to_string(p) : "";
  }
  if (!which.empty())
  {
    throw gpumesh::Error("Process " + which + " failed (see its error); this process stops too");
  }
}

gpumesh::Statistics AllReduceStatistics(
  vtkMultiProcessController* controller, const gpumesh::Statistics& piece)
{
  if (!controller)
  {
    return piece;
  }
  constexpr int fields = 8;
  // Counts travel as doubles: exact up to 2^53 values.
  const double mine[fields] = { static_cast<double>(piece.count), piece.minimum, piece.maximum,
    piece.sum, piece.normScale, piece.normScaledSquares, static_cast<double>(piece.nonZeros),
    piece.absoluteSum };
  const int processes = controller->GetNumberOfProcesses();
  std::vector<double> all(static_cast<std::size_t>(fields) * processes);
  WaitForAll(controller);
  controller->AllGather(mine, all.data(), fields);
  // Merged in rank order on every process: bit-identical results everywhere.
  gpumesh::Statistics total;
  total.minimum = total.maximum = std::numeric_limits<double>::quiet_NaN();
  for (int p = 0; p < processes; ++p)
  {
    const double* values = all.data() + static_cast<std::size_t>(fields) * p;
    gpumesh::Statistics part;
    part.count = static_cast<std::uint64_t>(values[0]);
    part.minimum = values[1];
    part.maximum = values[2];
    part.sum = values[3];
    part.normScale = values[4];
    part.normScaledSquares = values[5];
    part.nonZeros = static_cast<std::uint64_t>(values[6]);
    part.absoluteSum = values[7];
    total.merge(part);
  }
  return total;
}

gpumesh::Precision AgreedPrecision(
  gpumesh::Precision piece, bool pieceHasPoints, vtkMultiProcessController* controller)
{
  // 0: no opinion (no points), 1: Single, 2: Double; Double wins.
  long long wanted = pieceHasPoints ? (piece == gpumesh::Precision::Double ? 2 : 1) : 0;
  AllReduce(controller, &wanted, 1, vtkCommunicator::MAX_OP);
  if (wanted == 0)
  {
    return piece;
  }
  return wanted == 2 ? gpumesh::Precision::Double : gpumesh::Precision::Single;
}

std::vector<std::int32_t> GhostCellIds(vtkDataSet* dataset)
{
  std::vector<std::int32_t> ids;
  vtkUnsignedCharArray* ghosts = dataset->GetCellGhostArray();
  if (!ghosts)
  {
    return ids;
  }
  const unsigned char* flags = ghosts->GetPointer(0);
  const vtkIdType cells = std::min(dataset->GetNumberOfCells(), ghosts->GetNumberOfTuples());
  for (vtkIdType c = 0; c < cells; ++c)
  {
    if (flags[c] & vtkDataSetAttributes::DUPLICATECELL)
    {
      ids.push_back(static_cast<std::int32_t>(c));
    }
  }
  return ids;
}

void AllReduce(vtkMultiProcessController* controller, double* values, int count, int operation)
{
  if (controller)
  {
    std::vector<double> local(values, values + count);
    WaitForAll(controller);
    controller->AllReduce(local.data(), values, count, operation);
  }
}

void AllReduce(vtkMultiProcessController* controller, long long* values, int count, int operation)
{
  if (controller)
  {
    std::vector<long long> local(values, values + count);
    WaitForAll(controller);
    controller->AllReduce(local.data(), values, count, operation);
  }
}

bool PointsRoundedIn(vtkPointSet* piece, gpumesh::Precision precision)
{
  // The device sees doubles for points of any type but float (DescribeMesh converts them).
  vtkPoints* points = piece ? piece->GetPoints() : nullptr;
  gpumesh::PointsView view;
  view.isDouble = points && points->GetDataType() != VTK_FLOAT;
  return view.roundedIn(precision);
}

std::array<double, 3> GlobalBoundsCentre(
  vtkPointSet* piece, vtkMultiProcessController* controller, gpumesh::Precision precision)
{
  return GlobalBoundsCentre(
    PointsRoundedIn(piece, precision) ? vtkGPUMeshNeighbors::BoxOf(piece) : vtkGPUMeshNeighbors::EmptyBox(), controller);
}

std::array<double, 3> GlobalBoundsCentre(const std::array<double, 6>& box, vtkMultiProcessController* controller)
{
  // Lower corner and negated upper corner, so one MIN reduction gives both (an empty piece's
  // box is +inf and -inf: it changes nothing).
  double corners[6];
  for (int c = 0; c < 3; ++c)
  {
    corners[c] = box[2 * c];
    corners[3 + c] = -box[2 * c + 1];
  }
  AllReduce(controller, corners, 6, vtkCommunicator::MIN_OP);
  std::array<double, 3> centre{ 0.0, 0.0, 0.0 };
  for (int c = 0; c < 3; ++c)
  {
    if (std::isfinite(corners[c]))
    {
      centre[c] = 0.5 * (corners[c] - corners[3 + c]);
    }
  }
  return centre;
}

namespace
{
struct GatherTuples
{
  template <typename PieceArray>
  void operator()(
    PieceArray* piece, vtkDataArray* out, const std::vector<vtkIdType>& source, vtkIdType count, double missing) const
  {
    using Value = vtk::GetAPIType<PieceArray>;
    const auto from = vtk::DataArrayValueRange(piece);
    auto to = vtk::DataArrayValueRange(static_cast<PieceArray*>(out));
    const int components = piece->GetNumberOfComponents();
    const bool identity = source.empty();
    vtkGPUMeshHostLoops::For(0, count, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType e = begin; e < end; ++e)
      {
        const vtkIdType at = identity ? e : source[e];
        for (int k = 0; k < components; ++k)
        {
          to[e * components + k] = at >= 0 ? from[at * components + k] : static_cast<Value>(missing);
        }
      }
    });
  }
};
} // namespace

vtkSmartPointer<vtkDataArray> InputArrayOfPiece(
  vtkDataArray* piece, const std::vector<vtkIdType>& source, vtkIdType count, double missing)
{
  if (source.empty() && piece->GetNumberOfTuples() == count)
  {
    return piece; // the result has the input's entries only: nothing to take out
  }
  vtkSmartPointer<vtkDataArray> array = vtkGPUMeshOutputArrays::NewLike(piece, count);
  array->SetName(piece->GetName());
  GatherTuples gather;
  if (!vtkArrayDispatch::Dispatch::Execute(piece, gather, array.Get(), source, count, missing))
  {
    gather(piece, array.Get(), source, count, missing); // through the generic vtkDataArray API
  }
  return array;
}

} // namespace vtkGPUMeshDistributed
