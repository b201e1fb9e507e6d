#include "vtkGPULongestEdgeRefinement.h"

#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkDataSetAttributes.h"
#include "vtkFieldData.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkTimerLog.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshDistributedRefinement.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshPiece.h"
#include "vtkGPUMeshPieceInterface.h"
#include "vtkGPUMeshRefinedMesh.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/algorithms/refinement/LongestEdgeRefinement.h"
#include "gpumesh/algorithms/refinement/TetraRefinement.h"
#include "gpumesh/mesh/DeviceMeshCopy.h"

#include <array>
#include <future>
#include <optional>
#include <string>
#include <utility>

vtkStandardNewMacro(vtkGPULongestEdgeRefinement);

namespace
{
// The mesh to refine, which the refinement modifies in place: a copy, made on the device, of
// the input's kept mesh (vtkGPUMeshKeptMesh), so that a re-execution on the same input sends
// none of it. Where the copy does not fit beside the kept mesh, the kept meshes are dropped and
// the mesh is uploaded as its own, as without kept meshes (gpumesh::copyOrImport); later, the
// refinement's own buffers (measured: 3 to 14 times the mesh's memory) drop the kept mesh when
// they need its memory.
gpumesh::DeviceMesh MeshToRefine(
  gpumesh::DeviceRun& run, vtkPointSet* input, const vtkGPUMeshAdapter::MeshDescription& description)
{
  return gpumesh::copyOrImport(
    run, vtkGPUMeshKeptMesh::Get(run, vtkGPUMeshPiece::Of(input), description), description.view);
}
} // namespace

vtkGPULongestEdgeRefinement::vtkGPULongestEdgeRefinement()
  : FirstCut(std::make_unique<vtkGPUMeshDistributedRefinement::FirstCut>())
{
  this->SetInputArrayToProcess(
    0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, vtkDataSetAttributes::SCALARS);
}

vtkGPULongestEdgeRefinement::~vtkGPULongestEdgeRefinement() = default;

void vtkGPULongestEdgeRefinement::ExecuteOnDevice(
  vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  if (this->Passes < 1)
  {
    throw gpumesh::Error("Passes must be at least 1 (it is " + std::to_string(this->Passes) + ")");
  }
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  // Under MPI one origin for all processes whose points are rounded to float relative to it
  // (double points in Single precision), so edge lengths, and so the longest edges, are the
  // same on both sides of a cut: the centre of their pieces' bounds. The piece's box, found
  // once, serves the piece's interface later: by a pass over the points where they are rounded
  // (the upload needs the origin), else on the device after the upload (and with it the
  // piece's points in its neighbours' boxes: no pass over them on the host); or kept with the
  // first cut of an earlier execution on the same input.
  const bool rounded = vtkGPUMeshDistributed::PointsRoundedIn(input, run.precision());
  vtkTimerLog::MarkStartEvent("GPUMesh: global bounds");
  const bool cutKept = controller && this->FirstCut->Reusable(input, controller);
  vtkGPUMeshPieceBox box = cutKept ? this->FirstCut->Box()
    : controller && rounded        ? vtkGPUMeshPieceBox::Of(input)
                                   : vtkGPUMeshPieceBox();
  const std::array<double, 3> origin = controller
    ? vtkGPUMeshDistributed::GlobalBoundsCentre(box.Box, controller)
    : std::array<double, 3>{ 0.0, 0.0, 0.0 };
  vtkTimerLog::MarkEndEvent("GPUMesh: global bounds");
  vtkGPUMeshAdapter::MeshDescription description;
  std::optional<gpumesh::DeviceMesh> mesh;
  gpumesh::MarkedCells marked;
  gpumesh::CellKind kind = gpumesh::CellKind::Triangle;
  // Checks of this piece: under MPI every process learns whether one failed before any
  // exchange starts.
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
    if (controller)
    {
      description.view.points.origin = origin;
    }
    vtkTimerLog::MarkStartEvent("GPUMesh: upload mesh");
    mesh.emplace(MeshToRefine(run, input, description));
    vtkTimerLog::MarkEndEvent("GPUMesh: upload mesh");
    if (controller && !rounded && !cutKept)
    {
      box = vtkGPUMeshPieceBox::OnDevice(run, *mesh);
    }
    kind = vtkGPUMeshRefinedMesh::RefinedKind(input, *mesh);
    if (!this->RefineAll && (!controller || input->GetNumberOfCells() > 0)) // an empty piece may carry no arrays
    {
      vtkDataArray* marks = this->GetRequiredCellArray(inputVector, "Mark Array (or turn Refine All on)");
      vtkTimerLogScope marking("GPUMesh: mark cells");
      marked = vtkGPUMeshRefinedMesh::MarkCells(run, marks, this->MarkThreshold);
    }
    else if (this->RefineAll)
    {
      marked = gpumesh::allCells(run, static_cast<std::size_t>(input->GetNumberOfCells()));
    }
  });
  vtkTimerLog::MarkStartEvent("GPUMesh: agree on cell kind");
  kind = vtkGPUMeshDistributedRefinement::AgreedKind(kind, input->GetNumberOfCells() > 0, controller);
  vtkTimerLog::MarkEndEvent("GPUMesh: agree on cell kind");
  this->UpdateProgress(0.1);

  std::future<vtkGPUMeshRefinedMesh::NarrowedTriangles> inputTriangles;
  if (kind == gpumesh::CellKind::Triangle)
  {
    // The piece's interface passes over its points on the host where they are rounded (box.Mesh
    // null) and its first cut is not kept; from the device otherwise.
    inputTriangles = vtkGPUMeshRefinedMesh::NarrowTrianglesMeanwhile(
      run, input, marked.count, this->Passes, controller && !box.Mesh && !cutKept);
  }
  vtkTimerLog::MarkStartEvent("GPUMesh: refine");
  const gpumesh::RefinedSimplices refined = vtkGPUMeshDistributedRefinement::RefinePiece(
    input, box, controller, run, *mesh, *this->FirstCut,
    [&](const gpumesh::DistributedRefinement* distributed) {
      return kind == gpumesh::CellKind::Tetra
        ? gpumesh::refineTetrahedra(run, std::move(*mesh), std::move(marked), this->Passes, distributed)
        : gpumesh::refineLongestEdges(run, std::move(*mesh), std::move(marked), this->Passes, distributed);
    });
  vtkTimerLog::MarkEndEvent("GPUMesh: refine");
  this->UpdateProgress(0.6);

  output->Initialize();
  vtkTimerLog::MarkStartEvent("GPUMesh: output points");
  vtkGPUMeshRefinedMesh::BuildPoints(run, input, output, refined);
  vtkTimerLog::MarkEndEvent("GPUMesh: output points");
  this->UpdateProgress(0.8);
  vtkTimerLogScope scope("GPUMesh: output cells");
  vtkGPUMeshRefinedMesh::BuildCells(run, input, output, refined, inputTriangles);
  output->GetFieldData()->PassData(input->GetFieldData());
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "MarkedCells", refined.markedCount);
  if (controller)
  {
    vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "FirstCutReused", cutKept);
  }
  vtkGPUMeshRunReport::SetFieldCount(output->GetFieldData(), "CreatedCells",
    refined.cellCount - static_cast<std::size_t>(input->GetNumberOfCells()));
}

void vtkGPULongestEdgeRefinement::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  const char* array = this->GetChosenArrayName();
  os << indent << "MarkArray: " << (array ? array : "(active cell scalars)") << "\n";
  os << indent << "MarkThreshold: " << this->MarkThreshold << "\n";
  os << indent << "RefineAll: " << this->RefineAll << "\n";
  os << indent << "Passes: " << this->Passes << "\n";
}
