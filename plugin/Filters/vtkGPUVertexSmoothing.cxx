#include "vtkGPUVertexSmoothing.h"

#include "vtkDataArray.h"
#include "vtkCommunicator.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkSmartPointer.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshHaloedPiece.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshOutputArrays.h"
#include "vtkGPUMeshPiece.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/algorithms/Smoothing.h"
#include "gpumesh/mesh/DeviceMesh.h"

#include <array>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkGPUVertexSmoothing);

namespace
{
const char* const methodNames[] = { "Laplacian", "Taubin", "Barycentric", "WindowedSinc" };
static_assert(std::size(methodNames) == vtkGPUVertexSmoothing::WINDOWED_SINC + 1, "a name per Method");
const char* const boundaryNames[] = { "Fixed", "Free", "Smooth" };
static_assert(std::size(boundaryNames) == vtkGPUVertexSmoothing::SMOOTH + 1, "a name per Boundary");
const char* const preventInversionNames[] = { "Off", "On", "Automatic" };
static_assert(std::size(preventInversionNames) == vtkGPUVertexSmoothing::PREVENT_INVERSION_AUTOMATIC + 1,
  "a name per PreventInversion");

// Whether the mesh on the device has 3D cells (PREVENT_INVERSION_AUTOMATIC).
bool hasVolumeCells(const gpumesh::DeviceMesh& mesh)
{
  for (const gpumesh::DeviceCellGroup& group : mesh.groups())
  {
    if (gpumesh::cellDimension(group.kind) == 3)
    {
      return true;
    }
  }
  return false;
}

void reportGuard(vtkFieldData* fieldData, const gpumesh::SmoothingOptions& options, std::uint64_t shortened,
  std::uint64_t rounds)
{
  if (options.preventInversion)
  {
    vtkGPUMeshRunReport::SetFieldCount(fieldData, "ShortenedMoves", shortened);
    vtkGPUMeshRunReport::SetFieldCount(fieldData, "InversionGuardRounds", rounds);
  }
}

gpumesh::SmoothingOptions toOptions(int method, int boundary, int iterations, double lambda, double passBand)
{
  gpumesh::SmoothingOptions options;
  options.method = method == vtkGPUVertexSmoothing::TAUBIN ? gpumesh::SmoothingMethod::Taubin
    : method == vtkGPUVertexSmoothing::BARYCENTRIC         ? gpumesh::SmoothingMethod::Barycentric
    : method == vtkGPUVertexSmoothing::WINDOWED_SINC       ? gpumesh::SmoothingMethod::WindowedSinc
                                                           : gpumesh::SmoothingMethod::Laplacian;
  options.boundary = boundary == vtkGPUVertexSmoothing::FREE ? gpumesh::SmoothingBoundary::Free
    : boundary == vtkGPUVertexSmoothing::SMOOTH              ? gpumesh::SmoothingBoundary::Smooth
                                                             : gpumesh::SmoothingBoundary::Fixed;
  options.iterations = iterations;
  options.relaxationFactor = lambda;
  options.passBand = passBand;
  return options;
}

// One flag per point of the piece: 1 where any component of the named point array is nonzero
// (or NaN).
std::vector<std::uint8_t> pinnedPoints(const vtkGPUMeshPiece& piece, const std::string& name)
{
  vtkPointData* pointData = piece.Data->GetPointData();
  vtkAbstractArray* found = pointData->GetAbstractArray(name.c_str());
  if (!found)
  {
    std::string known;
    for (int i = 0; i < pointData->GetNumberOfArrays(); ++i)
    {
      const char* other = pointData->GetArrayName(i);
      known += std::string(known.empty() ? "" : ", ") + "'" + (other ? other : "") + "'";
    }
    throw gpumesh::Error("FixedPointsArray '" + name + "' is not a point array of the input (" +
      (known.empty() ? std::string("it has no point arrays") : "its point arrays: " + known) + ")");
  }
  vtkDataArray* array = vtkDataArray::SafeDownCast(found);
  if (!array)
  {
    throw gpumesh::Error("FixedPointsArray '" + name + "' is not numeric (a " +
      found->GetClassName() + "): give a point array that is nonzero at the points to pin");
  }
  const vtkIdType own = piece.Data->GetNumberOfPoints();
  vtkDataArray* more = piece.MoreValuesOf(array, true);
  const int components = array->GetNumberOfComponents();
  std::vector<std::uint8_t> pinned(static_cast<std::size_t>(piece.GetNumberOfPoints()), 0);
  vtkGPUMeshHostLoops::For(0, piece.GetNumberOfPoints(), [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType p = begin; p < end; ++p)
    {
      for (int c = 0; c < components && !pinned[p]; ++c)
      {
        pinned[p] = (p < own ? array->GetComponent(p, c) : more->GetComponent(p - own, c)) != 0.0;
      }
    }
  });
  return pinned;
}

// Output points = input + displacement, added in double, in the input's type: points that
// did not move come back bit for bit. For runs whose device points are not the input's own
// (another precision, or shifted to an origin).
template <typename Real, typename ArrayType>
void addDisplacement(vtkDataArray* input, vtkDoubleArray* displacement, vtkPointSet* output)
{
  const vtkIdType n = input->GetNumberOfTuples();
  vtkNew<ArrayType> coordinates;
  coordinates->SetNumberOfComponents(3);
  vtkGPUMeshOutputArrays::Allocate(coordinates, n);
  vtkNew<ArrayType> landed;
  landed->SetName("Displacement");
  landed->SetNumberOfComponents(3);
  vtkGPUMeshOutputArrays::Allocate(landed, n);
  vtkGPUMeshHostLoops::For(0, n, [&](vtkIdType begin, vtkIdType end) {
    const double* d = displacement->GetPointer(0);
    Real* out = coordinates->GetPointer(0);
    Real* delta = landed->GetPointer(0);
    for (vtkIdType p = begin; p < end; ++p)
    {
      for (int k = 0; k < 3; ++k)
      {
        const double old = input->GetComponent(p, k);
        out[3 * p + k] = static_cast<Real>(old + d[3 * p + k]);
        delta[3 * p + k] = static_cast<Real>(static_cast<double>(out[3 * p + k]) - old);
      }
    }
  });
  vtkNew<vtkPoints> points;
  points->SetData(coordinates);
  output->SetPoints(points);
  output->GetPointData()->AddArray(landed);
}
// The output's points and Displacement from the smoother's result: the first points of
// `moved` are the input's (`coordinates`), in order.
void setSmoothedPoints(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh,
  const gpumesh::VertexSmoother::Result& moved, vtkDataArray* coordinates, vtkPointSet* output)
{
  const vtkIdType n = coordinates->GetNumberOfTuples();
  const auto& origin = mesh.origin();
  const bool shifted = origin[0] != 0.0 || origin[1] != 0.0 || origin[2] != 0.0;
  const int deviceType = run.precision() == gpumesh::Precision::Double ? VTK_DOUBLE : VTK_FLOAT;
  if (!shifted && coordinates->GetDataType() == deviceType)
  {
    // The device computed in the points' own type: both arrays come straight down.
    vtkNew<vtkPoints> result;
    result->SetData(vtkGPUMeshAdapter::DownloadArray(run, moved.points, n, 3, nullptr));
    output->SetPoints(result);
    output->GetPointData()->AddArray(vtkGPUMeshAdapter::DownloadArray(run, moved.displacement, n, 3, "Displacement"));
    return;
  }
  vtkNew<vtkDoubleArray> displacement;
  displacement->SetNumberOfComponents(3);
  vtkGPUMeshOutputArrays::Allocate(displacement, n);
  run.download(moved.displacement, displacement->GetPointer(0), static_cast<std::size_t>(3 * n), "displacement");
  if (coordinates->GetDataType() == VTK_FLOAT)
    addDisplacement<float, vtkFloatArray>(coordinates, displacement, output);
  else
    addDisplacement<double, vtkDoubleArray>(coordinates, displacement, output);
}

// Distributed: smooths the owned cells plus one layer of ghost cells, so every point a process
// owns has its whole ball (Fixed/Free/Smooth then see the true boundary, never a cut), and
// refreshes the copies of other processes' points after every step. Sets the output's points
// and Displacement from the piece's first points (the input's).
void smoothDistributed(gpumesh::DeviceRun& run, vtkPointSet* input,
  const vtkGPUMeshDistributed::GhostedPiece& piece, vtkGPUMeshPointHalo& halo,
  gpumesh::SmoothingOptions options, bool automaticGuard, bool normalizeCoordinates, const std::string& fixedName,
  vtkMultiProcessController* controller, vtkGPUVertexSmoothing* progress, vtkPointSet* output,
  std::uint64_t& bytesExchanged)
{
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(piece.InputBox, controller);
  const std::uint64_t bytesBefore = halo.BytesExchanged();
  if (normalizeCoordinates)
  {
    options.windowedSincCentre = origin; // the centre of the whole input's bounds
  }

  std::shared_ptr<const gpumesh::DeviceMesh> mesh;
  vtkGPUMeshPointHalo::OnDevice haloPoints; // the halo's points on this run's device, for every exchange
  std::unique_ptr<gpumesh::VertexSmoother> smoother;
  std::vector<std::uint8_t> pinned;
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    halo.CheckComplete();
    const vtkGPUMeshPiece ghosted = piece.View();
    if (!fixedName.empty() && fixedName != "None" && ghosted.GetNumberOfPoints() > 0)
    {
      pinned = pinnedPoints(ghosted, fixedName);
    }
    vtkGPUMeshAdapter::MeshDescription description = vtkGPUMeshAdapter::DescribeMesh(ghosted, run.precision());
    description.view.points.origin = origin;
    vtkTimerLog::MarkStartEvent("GPUMesh: upload mesh");
    mesh = vtkGPUMeshKeptMesh::Get(run, ghosted, std::move(description), 2);
    vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
    haloPoints = halo.PointsOnDevice(run, static_cast<std::size_t>(mesh->pointCount()));
  });
  if (automaticGuard)
  {
    // Decided on the whole mesh: every process runs the guard's collective rounds or none does.
    long long volume = hasVolumeCells(*mesh) ? 1 : 0;
    vtkGPUMeshDistributed::AllReduce(controller, &volume, 1, vtkCommunicator::MAX_OP);
    options.preventInversion = volume != 0;
  }
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    vtkTimerLogScope scope("GPUMesh: smoother set-up");
    smoother = std::make_unique<gpumesh::VertexSmoother>(run, *mesh, options, pinned);
    {
      // Each process counts the points it owns (the halo receives the others'), and each guard
      // round is decided on the whole mesh: proposals and halvings exchanged like the steps;
      // WindowedSinc's weighted sums of the points others own are theirs.
      gpumesh::SmoothingCollectives collectives;
      collectives.owned.assign(static_cast<std::size_t>(mesh->pointCount()), 1);
      for (std::int32_t p : halo.Received())
      {
        collectives.owned[static_cast<std::size_t>(p)] = 0;
      }
      collectives.exchange = [&halo, &haloPoints](gpumesh::DeviceRun& r, gpumesh::RealBuffer& values) {
        halo.Exchange(r, haloPoints, values);
      };
      collectives.anyProcess = [controller](bool local) {
        long long any = local ? 1 : 0;
        vtkGPUMeshDistributed::AllReduce(controller, &any, 1, vtkCommunicator::MAX_OP);
        return any != 0;
      };
      smoother->distribute(run, std::move(collectives));
    }
  });
  progress->UpdateProgress(0.1);
  // The same number of steps on every process, each followed by the exchange (made within the
  // step by the inversion guard, when it runs: stepsExchanged). Progress is
  // reported per percent; there, and only there (the same steps on every process), the
  // processes agree on an abort, so that none stops alone and leaves the others waiting.
  int reportedPercent = 0;
  int abortedAt = 0;
  const bool exchangedInStep = smoother->stepsExchanged();
  vtkTimerLog::MarkStartEvent("GPUMesh: smoothing steps");
  const gpumesh::RealBuffer& result = smoother->smooth(
    run, [&](gpumesh::DeviceRun& stepRun, gpumesh::RealBuffer& displacements, int step, int steps) {
      if (!exchangedInStep)
        halo.Exchange(stepRun, haloPoints, displacements);
      const int percent = static_cast<int>(100.0 * step / steps);
      if (percent > reportedPercent)
      {
        reportedPercent = percent;
        progress->UpdateProgress(0.1 + 0.8 * percent / 100.0);
        long long aborted = progress->GetAbortExecute() ? 1 : 0;
        vtkGPUMeshDistributed::AllReduce(controller, &aborted, 1, vtkCommunicator::MAX_OP);
        if (aborted)
        {
          abortedAt = step;
          return false;
        }
      }
      return true;
    });
  vtkTimerLog::MarkEndEvent("GPUMesh: smoothing steps");
  if (abortedAt)
  {
    const int perIteration = options.method == gpumesh::SmoothingMethod::Taubin ? 2 : 1;
    throw gpumesh::Error("Smoothing was aborted after " + std::to_string(abortedAt / perIteration) +
      " of " + std::to_string(options.iterations) + " iterations; the output is empty");
  }
  bytesExchanged = halo.BytesExchanged() - bytesBefore;
  long long shortened = static_cast<long long>(smoother->shortenedMoves());
  vtkGPUMeshDistributed::AllReduce(controller, &shortened, 1, vtkCommunicator::SUM_OP);
  reportGuard(output->GetFieldData(), options, static_cast<std::uint64_t>(shortened), smoother->guardRounds());
  vtkPoints* points = input->GetPoints();
  if (!points || points->GetNumberOfPoints() == 0)
  {
    vtkNew<vtkFloatArray> none;
    none->SetName("Displacement");
    none->SetNumberOfComponents(3);
    output->GetPointData()->AddArray(none);
    return;
  }
  vtkTimerLogScope scope("GPUMesh: smoothed points");
  setSmoothedPoints(run, *mesh, smoother->movedPoints(run, result), points->GetData(), output);
}
} // namespace

vtkGPUVertexSmoothing::vtkGPUVertexSmoothing()
  : HaloedPiece(std::make_unique<vtkGPUMeshHaloedPiece>())
{
}

vtkGPUVertexSmoothing::~vtkGPUVertexSmoothing()
{
  this->SetFixedPointsArray(nullptr);
}

vtkIdType vtkGPUVertexSmoothing::GetGhostedPieceBuildCount()
{
  return this->HaloedPiece->GetBuildCount();
}

const char* vtkGPUVertexSmoothing::GetMethodName(int method)
{
  return ChoiceName(methodNames, method);
}

const char* vtkGPUVertexSmoothing::GetBoundaryName(int boundary)
{
  return ChoiceName(boundaryNames, boundary);
}

const char* vtkGPUVertexSmoothing::GetPreventInversionName(int preventInversion)
{
  return ChoiceName(preventInversionNames, preventInversion);
}

void vtkGPUVertexSmoothing::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  RequireChoice("Method", this->Method, methodNames);
  RequireChoice("Boundary", this->Boundary, boundaryNames);
  RequireChoice("PreventInversion", this->PreventInversion, preventInversionNames);
  gpumesh::SmoothingOptions options = toOptions(
    this->Method, this->Boundary, this->Iterations, this->RelaxationFactor, this->PassBand);
  // Automatic is resolved once the mesh is known (never on for WindowedSinc, whose steps are not
  // positions); the fraction is checked whatever it gives.
  const bool sinc = options.method == gpumesh::SmoothingMethod::WindowedSinc;
  const bool automaticGuard = this->PreventInversion == PREVENT_INVERSION_AUTOMATIC && !sinc;
  options.preventInversion = this->PreventInversion == PREVENT_INVERSION_ON || automaticGuard;
  options.minimumVolumeFraction = this->MinimumVolumeFraction;
  options.featureEdgeSmoothing = this->FeatureEdgeSmoothing != 0;
  options.featureAngle = this->FeatureAngle;
  options.edgeAngle = this->EdgeAngle;
  options.nonManifoldSmoothing = this->NonManifoldSmoothing != 0;
  options.validate();
  const std::string fixedName = this->FixedPointsArray ? this->FixedPointsArray : "";
  vtkPoints* points = input->GetPoints();
  vtkDataArray* coordinates = points ? points->GetData() : nullptr;
  if (vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController())
  {
    // Collective whatever this piece holds.
    std::uint64_t bytesExchanged = 0;
    // Its meshes hold surface and volume cells (minimum dimension 2), as the input's kept there.
    const vtkGPUMeshDistributed::PieceDevice device{ &run, 2 };
    const vtkGPUMeshHaloedPiece::Parts haloed =
      this->HaloedPiece->Get(input, controller, output->GetFieldData(), &device);
    smoothDistributed(run, input, haloed.Piece, haloed.Halo, options, automaticGuard, this->NormalizeCoordinates != 0,
      fixedName, controller, this, output, bytesExchanged);
    vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "HaloBytesExchanged", bytesExchanged);
    this->UpdateProgress(0.9);
    return;
  }
  std::vector<std::uint8_t> pinned;
  if (!fixedName.empty() && fixedName != "None")
  {
    pinned = pinnedPoints(vtkGPUMeshPiece::Of(input), fixedName);
  }

  if (!coordinates || coordinates->GetNumberOfTuples() == 0)
  {
    vtkNew<vtkFloatArray> none;
    none->SetName("Displacement");
    none->SetNumberOfComponents(3);
    output->GetPointData()->AddArray(none);
    return;
  }
  auto description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
  this->UpdateProgress(0.1);
  if (this->NormalizeCoordinates)
  {
    double* centre = input->GetCenter();
    options.windowedSincCentre = { centre[0], centre[1], centre[2] };
  }
  vtkTimerLog::MarkStartEvent("GPUMesh: upload mesh");
  const auto kept = vtkGPUMeshKeptMesh::Get(run, vtkGPUMeshPiece::Of(input), std::move(description), 2);
  const gpumesh::DeviceMesh& mesh = *kept;
  vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
  if (automaticGuard)
  {
    options.preventInversion = hasVolumeCells(mesh);
  }
  vtkTimerLog::MarkStartEvent("GPUMesh: smoother set-up");
  gpumesh::VertexSmoother smoother(run, mesh, options, pinned);
  vtkTimerLog::MarkEndEvent("GPUMesh: smoother set-up");
  // Progress from 0.1 to 0.9 over the steps, reported each time the smoothing has advanced by
  // 1% (a million steps must not mean a million events); an abort stops between two steps.
  int reportedPercent = 0;
  int abortedAt = 0;
  // A progress callback, not a step observer: it needs no state, so a renumbered smoother
  // (SmoothingVertexOrder) makes no copy of it per step.
  const gpumesh::SmoothingProgress observeStep = [&](int step, int steps) {
    const int percent = static_cast<int>(100.0 * step / steps);
    if (percent > reportedPercent)
    {
      reportedPercent = percent;
      this->UpdateProgress(0.1 + 0.8 * percent / 100.0);
    }
    if (this->GetAbortExecute())
    {
      abortedAt = step;
      return false;
    }
    return true;
  };
  vtkTimerLog::MarkStartEvent("GPUMesh: smoothing steps");
  const auto& smoothed = smoother.smooth(run, observeStep);
  vtkTimerLog::MarkEndEvent("GPUMesh: smoothing steps");
  if (abortedAt)
  {
    const int perIteration = options.method == gpumesh::SmoothingMethod::Taubin ? 2 : 1;
    throw gpumesh::Error("Smoothing was aborted after " + std::to_string(abortedAt / perIteration) +
      " of " + std::to_string(options.iterations) + " iterations; the output is empty");
  }
  reportGuard(output->GetFieldData(), options, smoother.shortenedMoves(), smoother.guardRounds());
  vtkTimerLogScope scope("GPUMesh: smoothed points");
  const gpumesh::VertexSmoother::Result moved = smoother.finalMovedPoints(run, smoothed);
  this->UpdateProgress(0.9);
  setSmoothedPoints(run, mesh, moved, coordinates, output);
}

void vtkGPUVertexSmoothing::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Iterations: " << this->Iterations << "\n";
  os << indent << "RelaxationFactor: " << this->RelaxationFactor << "\n";
  os << indent << "Method: " << GetMethodName(this->Method) << "\n";
  os << indent << "PassBand: " << this->PassBand << "\n";
  os << indent << "NormalizeCoordinates: " << this->NormalizeCoordinates << "\n";
  os << indent << "Boundary: " << GetBoundaryName(this->Boundary) << "\n";
  os << indent << "FeatureEdgeSmoothing: " << this->FeatureEdgeSmoothing << "\n";
  os << indent << "FeatureAngle: " << this->FeatureAngle << "\n";
  os << indent << "EdgeAngle: " << this->EdgeAngle << "\n";
  os << indent << "NonManifoldSmoothing: " << this->NonManifoldSmoothing << "\n";
  os << indent << "PreventInversion: " << GetPreventInversionName(this->PreventInversion) << "\n";
  os << indent << "MinimumVolumeFraction: " << this->MinimumVolumeFraction << "\n";
  os << indent << "FixedPointsArray: " << (this->FixedPointsArray ? this->FixedPointsArray : "(none)") << "\n";
  os << indent << "GhostedPieceBuildCount: " << this->HaloedPiece->GetBuildCount() << "\n";
}
