#include "vtkGPUExtractEdges.h"

#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkMultiProcessController.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkPolyData.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshExtractedPolyData.h"
#include "vtkGPUMeshGhostLayer.h"
#include "vtkGPUMeshPiece.h"

#include "gpumesh/algorithms/EdgeExtraction.h"

#include <array>
#include <iterator>

vtkStandardNewMacro(vtkGPUExtractEdges);

namespace
{
const char* const selectionNames[] = { "All Edges", "Boundary Edges", "Feature Edges", "Boundary and Feature Edges" };
static_assert(std::size(selectionNames) == vtkGPUExtractEdges::BOUNDARY_AND_FEATURE + 1, "a name per Selection");

// The selected edges of `piece`'s 2D and 3D cells (those `owners` gives this process, if any).
gpumesh::ExtractedEdges selectedEdges(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& piece,
  const std::array<double, 3>* origin, gpumesh::EdgeSelection selection, double angle,
  const gpumesh::EdgeOwners* owners)
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
  // Lines and polylines have no edges here, as in vtkExtractEdges.
  const auto kept = vtkGPUMeshKeptMesh::Get(run, piece, std::move(description), 2);
  const gpumesh::DeviceMesh& mesh = *kept;
  vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
  vtkTimerLogScope scope("GPUMesh: edges");
  return gpumesh::extractEdges(run, mesh, selection, angle, owners);
}
} // namespace

vtkGPUExtractEdges::vtkGPUExtractEdges() = default;

vtkGPUExtractEdges::~vtkGPUExtractEdges() = default;

const char* vtkGPUExtractEdges::GetSelectionName(int selection)
{
  return ChoiceName(selectionNames, selection);
}

void vtkGPUExtractEdges::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  // The base class started the output as a copy of the input: the edges replace it.
  output->Initialize();
  vtkPolyData* edges = vtkPolyData::SafeDownCast(output);
  const vtkGPUMeshExtractedPolyData::Options options = this->OutputOptions();
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  const auto selection = static_cast<gpumesh::EdgeSelection>(this->Selection);
  vtkGPUMeshDistributed::AllSucceed(controller, [&] { RequireChoice("Selection", this->Selection, selectionNames); });
  if (!controller)
  {
    const gpumesh::ExtractedEdges found =
      selectedEdges(run, vtkGPUMeshPiece::Of(input), nullptr, selection, this->FeatureAngle, nullptr);
    this->UpdateProgress(0.6);
    if (this->GetAbortExecute())
    {
      throw gpumesh::Error("GPU Extract Edges was aborted after matching the edges");
    }
    vtkTimerLogScope scope("GPUMesh: edges output");
    vtkGPUMeshExtractedPolyData::BuildEdges(input, {}, found, options, edges);
    return;
  }
  // Under MPI: the edges of the ghosted piece, each output by the lowest-ranked process owning a
  // cell that uses it (collective).
  const vtkGPUMeshDistributed::GhostedPiece& piece = this->GhostedPieceOf(input, controller, output->GetFieldData(), run, 2);
  const std::array<double, 3> origin = vtkGPUMeshDistributed::GlobalBoundsCentre(piece.InputBox, controller);
  this->UpdateProgress(0.2);
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    gpumesh::EdgeOwners owners;
    owners.self = controller->GetLocalProcessId();
    owners.owner.assign(static_cast<std::size_t>(piece.OwnedCells), owners.self);
    for (const auto& [rank, count] : piece.GhostCellOwners)
      owners.owner.insert(owners.owner.end(), static_cast<std::size_t>(count), rank);
    const gpumesh::ExtractedEdges found =
      selectedEdges(run, piece.View(), &origin, selection, this->FeatureAngle, &owners);
    this->UpdateProgress(0.6);
    vtkTimerLogScope scope("GPUMesh: edges output");
    vtkGPUMeshExtractedPolyData::BuildEdges(input, piece.OwnedInputCell, found, options, edges);
  });
}

void vtkGPUExtractEdges::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Selection: " << GetSelectionName(this->Selection) << "\n";
  os << indent << "FeatureAngle: " << this->FeatureAngle << "\n";
}
