#include "vtkGPUMeshPieceFilter.h"

#include "vtkPointSet.h"

#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshOwnedValues.h"

vtkGPUMeshPieceFilter::vtkGPUMeshPieceFilter()
  : OwnedValues(std::make_unique<vtkGPUMeshOwnedValues>())
{
}

vtkGPUMeshPieceFilter::~vtkGPUMeshPieceFilter() = default;

vtkIdType vtkGPUMeshPieceFilter::GetGhostedPieceBuildCount()
{
  return this->OwnedValues->GetBuildCount();
}

void vtkGPUMeshPieceFilter::CheckInput(vtkInformationVector**, vtkPointSet*) {}

void vtkGPUMeshPieceFilter::FinishOutput(gpumesh::DeviceRun&, vtkPointSet*) {}

void vtkGPUMeshPieceFilter::ExecuteOnDevice(
  vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  vtkGPUMeshDistributed::AllSucceed(controller, [&] { this->CheckInput(inputVector, input); });
  // ComputeArrays' meshes hold every cell (minimum dimension 1), as the input's kept there.
  const vtkGPUMeshDistributed::PieceDevice device{ &run, 1 };
  this->OwnedValues->Compute(
    input, output, controller,
    [&](const vtkGPUMeshPiece& mesh, const std::array<double, 3>* origin, vtkPointSet* result) {
      this->ComputeArrays(run, mesh, origin, result);
    },
    &device);
  this->FinishOutput(run, output);
}

void vtkGPUMeshPieceFilter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "GhostedPieceBuildCount: " << this->OwnedValues->GetBuildCount() << "\n";
}
