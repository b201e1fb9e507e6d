#include "vtkGPUMeshHaloedPiece.h"

#include "vtkTimerLog.h"

vtkGPUMeshHaloedPiece::Parts vtkGPUMeshHaloedPiece::Get(vtkPointSet* input, vtkMultiProcessController* controller,
  vtkFieldData* report, const vtkGPUMeshDistributed::PieceDevice* device)
{
  const vtkGPUMeshDistributed::GhostedPiece& piece = this->Cache.Get(input, controller, report, device);
  if (!this->Cache.LastReused())
  {
    this->Halo.reset();
    try
    {
      vtkTimerLogScope scope("GPUMesh: point halo plan");
      this->Halo = std::make_unique<vtkGPUMeshPointHalo>(piece, controller);
    }
    catch (...)
    {
      this->Cache.Release(); // so that every process builds both next time
      throw;
    }
  }
  return { piece, *this->Halo };
}
