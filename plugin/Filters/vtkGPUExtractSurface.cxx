#include "vtkGPUExtractSurface.h"

#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkPolyData.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshPiece.h"
#include "vtkGPUMeshExtractedPolyData.h"
#include "vtkGPUMeshGhostLayer.h"

#include "gpumesh/algorithms/SurfaceExtraction.h"

#include <array>

vtkStandardNewMacro(vtkGPUExtractSurface);

namespace
{
// The boundary faces of the first `cells` cells of `piece`, matched among all its 3D cells.
gpumesh::BoundaryFaces boundaryFaces(
  gpumesh::DeviceRun& run, const vtkGPUMeshPiece& piece, const std::array<double, 3>* origin, vtkIdType cells)
{
  if (piece.GetNumberOfCells() == 0)
  {
    return {};
  }
  auto description = vtkGPUMeshAdapter::DescribeMesh(piece, run.precision());
  if (origin)
  {
    description.view.points.origin = *origin;
  }
  vtkTimerLog::MarkStartEvent("GPUMesh: upload mesh");
  // Only volume cells have faces to match; the others are passed on by the host.
  const auto kept = vtkGPUMeshKeptMesh::Get(run, piece, std::move(description), 3);
  const gpumesh::DeviceMesh& mesh = *kept;
  vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
  vtkTimerLogScope scope("GPUMesh: boundary faces");
  return gpumesh::extractBoundaryFaces(run, mesh, cells);
}
} // namespace

vtkGPUExtractSurface::vtkGPUExtractSurface() = default;

vtkGPUExtractSurface::~vtkGPUExtractSurface() = default;

void vtkGPUExtractSurface::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  // The base class started the output as a copy of the input: the surface replaces it.
  output->Initialize();
  vtkPolyData* surface = vtkPolyData::SafeDownCast(output);
  const vtkGPUMeshExtractedPolyData::Options options = this->OutputOptions();
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  if (!controller)
  {
    const vtkIdType cells = input->GetNumberOfCells();
    const gpumesh::BoundaryFaces faces = boundaryFaces(run, vtkGPUMeshPiece::Of(input), nullptr, -1);
    this->UpdateProgress(0.6);
    if (this->GetAbortExecute())
    {
      throw gpumesh::Error("GPU Extract Surface was aborted after matching the faces");
    }
    vtkTimerLogScope scope("GPUMesh: surface output");
    vtkGPUMeshExtractedPolyData::Build(input, input, cells, {}, faces, options, surface);
    return;
  }
  // Under MPI: the faces of the owned cells matched against the ghost layer too, so that a face
  // on a cut, which the neighbour's ghost cell has, is inner (collective).
  const vtkGPUMeshDistributed::GhostedPiece& piece = this->GhostedPieceOf(input, controller, output->GetFieldData(), run, 3);
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(piece.InputBox, controller);
  this->UpdateProgress(0.2);
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    const gpumesh::BoundaryFaces faces = boundaryFaces(run, piece.View(), &origin, piece.OwnedCells);
    this->UpdateProgress(0.6);
    vtkTimerLogScope scope("GPUMesh: surface output");
    vtkGPUMeshExtractedPolyData::Build(input, piece.Mesh, piece.OwnedCells, piece.OwnedInputCell, faces, options, surface);
  });
}

void vtkGPUExtractSurface::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
}
