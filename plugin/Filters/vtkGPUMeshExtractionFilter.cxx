#include "vtkGPUMeshExtractionFilter.h"

#include "vtkDataObject.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkPolyData.h"

#include "vtkGPUMeshExtractedPolyData.h"
#include "vtkGPUMeshGhostedPieceCache.h"

vtkGPUMeshExtractionFilter::vtkGPUMeshExtractionFilter()
  : GhostedPiece(std::make_unique<vtkGPUMeshGhostedPieceCache>())
{
}

vtkGPUMeshExtractionFilter::~vtkGPUMeshExtractionFilter() = default;

vtkIdType vtkGPUMeshExtractionFilter::GetGhostedPieceBuildCount()
{
  return this->GhostedPiece->GetBuildCount();
}

int vtkGPUMeshExtractionFilter::FillOutputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkDataObject::DATA_TYPE_NAME(), "vtkPolyData");
  return 1;
}

int vtkGPUMeshExtractionFilter::RequestDataObject(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  vtkInformation* info = outputVector->GetInformationObject(0);
  if (!vtkPolyData::SafeDownCast(info->Get(vtkDataObject::DATA_OBJECT())))
  {
    vtkNew<vtkPolyData> output;
    info->Set(vtkDataObject::DATA_OBJECT(), output);
  }
  return 1;
}

vtkGPUMeshExtractedPolyData::Options vtkGPUMeshExtractionFilter::OutputOptions() const
{
  vtkGPUMeshExtractedPolyData::Options options;
  options.PassCellIds = this->PassThroughCellIds;
  options.PassPointIds = this->PassThroughPointIds;
  return options;
}

const vtkGPUMeshDistributed::GhostedPiece& vtkGPUMeshExtractionFilter::GhostedPieceOf(vtkPointSet* input,
  vtkMultiProcessController* controller, vtkFieldData* report, gpumesh::DeviceRun& run, int minimumDimension)
{
  const vtkGPUMeshDistributed::PieceDevice device{ &run, minimumDimension };
  return this->GhostedPiece->Get(input, controller, report, &device);
}

void vtkGPUMeshExtractionFilter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "PassThroughCellIds: " << this->PassThroughCellIds << "\n";
  os << indent << "PassThroughPointIds: " << this->PassThroughPointIds << "\n";
  os << indent << "GhostedPieceBuildCount: " << this->GhostedPiece->GetBuildCount() << "\n";
}
