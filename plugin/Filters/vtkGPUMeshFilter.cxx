#include "vtkGPUMeshFilter.h"

#include "vtkInformation.h"
#include "vtkStringArray.h"

#include "gpumesh/Devices.h"

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

void vtkGPUMeshFilter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "Device: " << (this->Device ? this->Device : "(none)") << "\n";
}
