// Runs a GPUMesh filter on a .vtu or .vtp file and writes the result.
//
//   gpumesh_filter cell-reduction <input.vtu|vtp> <output.vtu|vtp>
//       [--quantity size|area|volume|length|array] [--array <cell array>] [--device <spec>]
//   gpumesh_filter --list-devices
#include "vtkGPUCellReduction.h"

#include "vtkCommand.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkNew.h"
#include "vtkPointSet.h"
#include "vtkPolyData.h"
#include "vtkSmartPointer.h"
#include "vtkStringArray.h"
#include "vtkUnstructuredGrid.h"
#include "vtkXMLPolyDataReader.h"
#include "vtkXMLPolyDataWriter.h"
#include "vtkXMLUnstructuredGridReader.h"
#include "vtkXMLUnstructuredGridWriter.h"

#include <iostream>
#include <map>
#include <string>

namespace
{
bool endsWith(const std::string& text, const std::string& suffix)
{
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

vtkSmartPointer<vtkPointSet> read(const std::string& path)
{
  if (endsWith(path, ".vtp"))
  {
    vtkNew<vtkXMLPolyDataReader> reader;
    reader->SetFileName(path.c_str());
    reader->Update();
    return reader->GetOutput();
  }
  vtkNew<vtkXMLUnstructuredGridReader> reader;
  reader->SetFileName(path.c_str());
  reader->Update();
  return reader->GetOutput();
}

bool write(vtkDataObject* data, const std::string& path)
{
  if (endsWith(path, ".vtp"))
  {
    vtkNew<vtkXMLPolyDataWriter> writer;
    writer->SetFileName(path.c_str());
    writer->SetInputData(data);
    return writer->Write() == 1;
  }
  vtkNew<vtkXMLUnstructuredGridWriter> writer;
  writer->SetFileName(path.c_str());
  writer->SetInputData(data);
  return writer->Write() == 1;
}

int usage()
{
  std::cerr << "usage: gpumesh_filter cell-reduction <input.vtu|vtp> <output.vtu|vtp>\n"
               "         [--quantity size|area|volume|length|array] [--array <cell array>]\n"
               "         [--device auto|<index>|<name part>]\n"
               "       gpumesh_filter --list-devices\n";
  return 2;
}
} // namespace

int main(int argc, char* argv[])
{
  if (argc == 2 && std::string(argv[1]) == "--list-devices")
  {
    vtkNew<vtkGPUCellReduction> any;
    vtkStringArray* devices = any->GetAvailableDevices();
    for (vtkIdType i = 0; i < devices->GetNumberOfValues(); ++i)
    {
      std::cout << devices->GetValue(i) << "\n";
    }
    return 0;
  }
  if (argc < 4 || std::string(argv[1]) != "cell-reduction")
  {
    return usage();
  }
  std::map<std::string, std::string> options;
  for (int i = 4; i + 1 < argc; i += 2)
  {
    options[argv[i]] = argv[i + 1];
  }
  const std::map<std::string, int> quantities = { { "size", vtkGPUCellReduction::SIZE },
    { "area", vtkGPUCellReduction::AREA }, { "volume", vtkGPUCellReduction::VOLUME },
    { "length", vtkGPUCellReduction::LENGTH }, { "array", vtkGPUCellReduction::ARRAY } };

  vtkSmartPointer<vtkPointSet> input = read(argv[2]);
  if (!input)
  {
    std::cerr << "could not read " << argv[2] << "\n";
    return 1;
  }
  vtkNew<vtkGPUCellReduction> reduction;
  reduction->SetInputData(input);
  if (options.count("--quantity"))
  {
    const auto found = quantities.find(options["--quantity"]);
    if (found == quantities.end())
    {
      return usage();
    }
    reduction->SetQuantity(found->second);
  }
  if (options.count("--array"))
  {
    reduction->SetInputArrayToProcess(
      0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, options["--array"].c_str());
  }
  if (options.count("--device"))
  {
    reduction->SetDevice(options["--device"].c_str());
  }
  reduction->Update();
  vtkDataObject* output = reduction->GetOutputDataObject(0);
  vtkFieldData* fields = output->GetFieldData();
  if (!fields->GetAbstractArray("Count"))
  {
    std::cerr << "GPU Cell Reduction failed (see the error above)\n";
    return 1;
  }
  for (const char* name : { "Count", "Min", "Max", "Sum", "Mean", "L2", "KernelTimeMs" })
  {
    std::cout << name << " " << fields->GetArray(name)->GetTuple1(0) << "\n";
  }
  std::cout << "Device " << vtkStringArray::SafeDownCast(fields->GetAbstractArray("Device"))->GetValue(0) << "\n";
  return write(output, argv[3]) ? 0 : 1;
}
