#include "vtkGPUVertexSmoothing.h"

#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkSmartPointer.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshPointHalo.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/DeviceMesh.h"
#include "gpumesh/Smoothing.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkGPUVertexSmoothing);

namespace
{
gpumesh::SmoothingOptions toOptions(int method, int boundary, int iterations, double lambda, double passBand)
{
  gpumesh::SmoothingOptions options;
  options.method = method == vtkGPUVertexSmoothing::TAUBIN ? gpumesh::SmoothingMethod::Taubin
    : method == vtkGPUVertexSmoothing::BARYCENTRIC         ? gpumesh::SmoothingMethod::Barycentric
                                                           : gpumesh::SmoothingMethod::Laplacian;
  options.boundary = boundary == vtkGPUVertexSmoothing::FREE ? gpumesh::SmoothingBoundary::Free
    : boundary == vtkGPUVertexSmoothing::SMOOTH              ? gpumesh::SmoothingBoundary::Smooth
                                                             : gpumesh::SmoothingBoundary::Fixed;
  options.iterations = iterations;
  options.relaxationFactor = lambda;
  options.passBand = passBand;
  return options;
}

// One flag per point: 1 where any component of the named point array is nonzero (or NaN).
std::vector<std::uint8_t> pinnedPoints(vtkPointSet* input, const std::string& name)
{
  vtkPointData* pointData = input->GetPointData();
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
  const vtkIdType points = input->GetNumberOfPoints();
  const int components = array->GetNumberOfComponents();
  std::vector<std::uint8_t> pinned(static_cast<std::size_t>(points), 0);
  for (vtkIdType p = 0; p < points; ++p)
  {
    for (int c = 0; c < components && !pinned[p]; ++c)
    {
      pinned[p] = array->GetComponent(p, c) != 0.0;
    }
  }
  return pinned;
}

// Output points = input + displacement, added in double: points that did not move come back
// bit for bit. `moved` and `before` are the device's float4 points, relative to the origin.
template <typename Real, typename ArrayType>
void movePoints(vtkDataArray* input, const std::vector<float>& moved, const std::vector<float>& before,
  vtkPointSet* output)
{
  const vtkIdType n = input->GetNumberOfTuples();
  vtkNew<ArrayType> coordinates;
  coordinates->SetNumberOfComponents(3);
  coordinates->SetNumberOfTuples(n);
  vtkNew<ArrayType> displacement;
  displacement->SetName("Displacement");
  displacement->SetNumberOfComponents(3);
  displacement->SetNumberOfTuples(n);
  Real* out = coordinates->GetPointer(0);
  Real* delta = displacement->GetPointer(0);
  for (vtkIdType p = 0; p < n; ++p)
  {
    for (int k = 0; k < 3; ++k)
    {
      const std::size_t device = 4 * static_cast<std::size_t>(p) + k;
      const double old = input->GetComponent(p, k);
      const double d = static_cast<double>(moved[device]) - static_cast<double>(before[device]);
      out[3 * p + k] = static_cast<Real>(old + d);
      delta[3 * p + k] = static_cast<Real>(static_cast<double>(out[3 * p + k]) - old);
    }
  }
  vtkNew<vtkPoints> points;
  points->SetData(coordinates);
  output->SetPoints(points);
  output->GetPointData()->AddArray(displacement);
}
// Distributed: smooths the owned cells plus one layer of ghost cells, so every point a process
// owns has its whole ball (Fixed/Free/Smooth then see the true boundary, never a cut), and
// refreshes the copies of other processes' points after every step. Returns the input's
// points moved (x, y, z, 0 relative to `origin`), and the input's points before, in float.
std::vector<float> smoothDistributed(gpumesh::DeviceRun& run, vtkPointSet* input,
  const gpumesh::SmoothingOptions& options, const std::string& fixedName,
  vtkMultiProcessController* controller, std::vector<float>& before, std::uint64_t& bytesExchanged)
{
  const vtkGPUMeshDistributed::GhostedPiece piece =
    vtkGPUMeshDistributed::BuildGhostedPiece(input, controller);
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller);
  vtkGPUMeshPointHalo halo(piece, controller);

  gpumesh::HostMesh host;
  std::unique_ptr<gpumesh::DeviceMesh> mesh;
  std::unique_ptr<gpumesh::VertexSmoother> smoother;
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    halo.CheckComplete();
    std::vector<std::uint8_t> pinned;
    if (!fixedName.empty() && fixedName != "None" && piece.Mesh->GetNumberOfPoints() > 0)
    {
      pinned = pinnedPoints(piece.Mesh, fixedName);
    }
    host = vtkGPUMeshAdapter::ToHostMesh(piece.Mesh, &origin);
    before = vtkGPUMeshAdapter::ToHostMesh(input, &origin).points();
    mesh = std::make_unique<gpumesh::DeviceMesh>(run, host, 2);
    smoother = std::make_unique<gpumesh::VertexSmoother>(run, *mesh, options, pinned);
  });
  // The same number of steps on every process, each followed by the exchange.
  const gpumesh::DeviceBuffer<cl_float4>& result = smoother->smooth(
    run, [&](gpumesh::DeviceRun& stepRun, gpumesh::DeviceBuffer<cl_float4>& points, int, int) {
      halo.Exchange(stepRun, points);
      return true;
    });
  std::vector<cl_float4> smoothed(static_cast<std::size_t>(host.pointCount()));
  run.download(result, smoothed.data(), smoothed.size(), "smoothed points");
  bytesExchanged = halo.BytesExchanged();

  // Back to the input's points: through the piece, or received for points only the input's
  // own ghost cells use.
  std::vector<float> moved(before);
  std::vector<std::int64_t> pieceOfInput(static_cast<std::size_t>(input->GetNumberOfPoints()), -1);
  for (std::size_t p = 0; p < piece.InputPoint.size(); ++p)
  {
    if (piece.InputPoint[p] >= 0)
    {
      pieceOfInput[piece.InputPoint[p]] = static_cast<std::int64_t>(p);
    }
  }
  for (std::size_t p = 0; p < pieceOfInput.size(); ++p)
  {
    const cl_float4* value = pieceOfInput[p] >= 0 ? &smoothed[pieceOfInput[p]]
      : options.iterations > 0 ? halo.ReceivedInputPoint(piece.InputGlobalPointId[p])
                               : nullptr;
    if (value)
    {
      std::copy_n(value->s, 3, &moved[4 * p]);
    }
  }
  return moved;
}
} // namespace

vtkGPUVertexSmoothing::vtkGPUVertexSmoothing() = default;

vtkGPUVertexSmoothing::~vtkGPUVertexSmoothing()
{
  this->SetFixedPointsArray(nullptr);
}

const char* vtkGPUVertexSmoothing::GetMethodName(int method)
{
  switch (method)
  {
    case TAUBIN:
      return "Taubin";
    case BARYCENTRIC:
      return "Barycentric";
    default:
      return "Laplacian";
  }
}

const char* vtkGPUVertexSmoothing::GetBoundaryName(int boundary)
{
  switch (boundary)
  {
    case FREE:
      return "Free";
    case SMOOTH:
      return "Smooth";
    default:
      return "Fixed";
  }
}

void vtkGPUVertexSmoothing::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  const gpumesh::SmoothingOptions options = toOptions(
    this->Method, this->Boundary, this->Iterations, this->RelaxationFactor, this->PassBand);
  options.validate();
  const std::string fixedName = this->FixedPointsArray ? this->FixedPointsArray : "";
  std::vector<float> moved;
  std::vector<float> before;
  if (vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController())
  {
    std::uint64_t bytesExchanged = 0;
    moved = smoothDistributed(run, input, options, fixedName, controller, before, bytesExchanged);
    vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "HaloBytesExchanged", bytesExchanged);
  }
  else
  {
    std::vector<std::uint8_t> pinned;
    if (!fixedName.empty() && fixedName != "None")
    {
      pinned = pinnedPoints(input, fixedName);
    }
    const gpumesh::HostMesh host = vtkGPUMeshAdapter::ToHostMesh(input);
    this->UpdateProgress(0.1);
    moved = gpumesh::smoothVertices(run, host, options, pinned);
    before = host.points();
  }
  this->UpdateProgress(0.9);

  vtkPoints* points = input->GetPoints();
  vtkDataArray* coordinates = points ? points->GetData() : nullptr;
  if (!coordinates)
  {
    vtkNew<vtkFloatArray> none;
    none->SetName("Displacement");
    none->SetNumberOfComponents(3);
    output->GetPointData()->AddArray(none);
    return;
  }
  if (coordinates->GetDataType() == VTK_FLOAT)
    movePoints<float, vtkFloatArray>(coordinates, moved, before, output);
  else
    movePoints<double, vtkDoubleArray>(coordinates, moved, before, output);
}

void vtkGPUVertexSmoothing::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Iterations: " << this->Iterations << "\n";
  os << indent << "RelaxationFactor: " << this->RelaxationFactor << "\n";
  os << indent << "Method: " << GetMethodName(this->Method) << "\n";
  os << indent << "PassBand: " << this->PassBand << "\n";
  os << indent << "Boundary: " << GetBoundaryName(this->Boundary) << "\n";
  os << indent << "FixedPointsArray: " << (this->FixedPointsArray ? this->FixedPointsArray : "(none)") << "\n";
}
