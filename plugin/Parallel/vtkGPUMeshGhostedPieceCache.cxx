#include "vtkGPUMeshGhostedPieceCache.h"

#include "vtkGPUMeshRunReport.h"

#include "vtkTimerLog.h"

#include <chrono>

const vtkGPUMeshDistributed::GhostedPiece& vtkGPUMeshGhostedPieceCache::Get(vtkPointSet* input,
  vtkMultiProcessController* controller, vtkFieldData* report, const vtkGPUMeshDistributed::PieceDevice* device)
{
  vtkGPUMeshInputKey key = vtkGPUMeshInputKey::Of(input, controller);
  // Building is collective: reuse only when every process can.
  this->Reused = vtkGPUMeshInputKey::EveryProcess(this->Piece && key.Matches(this->PieceKey), controller);
  vtkGPUMeshRunReport::SetFieldCount(report, "GhostedPieceReused", this->Reused);
  if (this->Reused)
  {
    return *this->Piece;
  }
  this->Release(); // a failed build keeps nothing
  const auto start = std::chrono::steady_clock::now();
  vtkTimerLogScope scope("GPUMesh: build ghosted piece");
  auto piece = std::make_unique<vtkGPUMeshDistributed::GhostedPiece>(
    vtkGPUMeshDistributed::BuildGhostedPiece(input, controller, device));
  vtkGPUMeshRunReport::SetFieldValue(report, "GhostedPieceBuildMs",
    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  vtkGPUMeshRunReport::SetFieldCount(report, "GhostedPieceBytesExchanged", piece->BytesExchanged);
  vtkGPUMeshRunReport::SetFieldCount(report, "GhostedPieceCellsFoundOnDevice", piece->InterfaceCellsOnDevice);
  ++this->Builds;
  this->PieceKey = std::move(key);
  this->Piece = std::move(piece);
  return *this->Piece;
}

void vtkGPUMeshGhostedPieceCache::Release()
{
  this->Piece.reset();
  this->PieceKey = vtkGPUMeshInputKey();
}
