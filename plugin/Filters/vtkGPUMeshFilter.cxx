#include "vtkGPUMeshFilter.h"

#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkPointSet.h"
#include "vtkStringArray.h"

#include "vtkGPUMeshRunReport.h"

#include "gpumesh/DeviceRun.h"

#include <exception>

vtkGPUMeshFilter::vtkGPUMeshFilter()
  : AvailableDevices(vtkSmartPointer<vtkStringArray>::New())
{
  this->SetDevice("auto");
}

vtkGPUMeshFilter::~vtkGPUMeshFilter()
{
  this->SetDevice(nullptr);
}

vtkStringArray* vtkGPUMeshFilter::GetAvailableDevices()
{
  this->AvailableDevices->Initialize();
  this->AvailableDevices->InsertNextValue("auto");
  for (const auto& device : gpumesh::listDevices())
  {
    this->AvailableDevices->InsertNextValue(device.label());
  }
  return this->AvailableDevices;
}

int vtkGPUMeshFilter::FillInputPortInformation(int, vtkInformation* info)
{
  info->Remove(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE());
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkPolyData");
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkUnstructuredGrid");
  return 1;
}

int vtkGPUMeshFilter::RequestData(
  vtkInformation*, vtkInformationVector** inputVector, vtkInformationVector* outputVector)
{
  vtkPointSet* input = vtkPointSet::GetData(inputVector[0]);
  vtkPointSet* output = vtkPointSet::GetData(outputVector);
  output->ShallowCopy(input);
  try
  {
    this->UpdateProgress(0.0);
    gpumesh::DeviceRun run(gpumesh::DeviceContext::acquire(this->Device ? this->Device : "auto"));
    this->ExecuteOnDevice(inputVector, input, output, run);
    vtkGPUMeshRunReport::AddToFieldData(run, output->GetFieldData());
    this->UpdateProgress(1.0);
  }
  catch (const std::exception& error)
  {
    vtkErrorMacro(<< error.what());
    output->Initialize();
    return 0;
  }
  return 1;
}

void vtkGPUMeshFilter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Device: " << (this->Device ? this->Device : "(none)") << "\n";
}
