// Runs a GPUMesh filter, chosen on the command line, on a .vtu or .vtp file and writes the result.
//
//   gpumesh_filter <filter> <input.vtu|vtp> <output.vtu|vtp> [options] [--device <spec>]
//   gpumesh_filter --list-devices
//   gpumesh_filter --help
//
// Each filter is one entry of the table in filters(): its name, its options and how they set
// the filter's properties, and what it prints. vertex-smoothing is compiled in when the
// installed GPUMesh has vtkGPUVertexSmoothing.h.
#include "vtkGPUCellReduction.h"
#include "vtkGPULongestEdgeRefinement.h"
#include "vtkGPUNeighborDistance.h"
#if __has_include("vtkGPUVertexSmoothing.h")
#include "vtkGPUVertexSmoothing.h"
#define GPUMESH_APP_HAS_SMOOTHING 1
#endif

#include "vtkCellData.h"
#include "vtkDataArray.h"
#include "vtkDataObject.h"
#include "vtkFieldData.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPolyData.h"
#include "vtkSmartPointer.h"
#include "vtkStringArray.h"
#include "vtkUnstructuredGrid.h"
#include "vtkXMLPolyDataReader.h"
#include "vtkXMLPolyDataWriter.h"
#include "vtkXMLUnstructuredGridReader.h"
#include "vtkXMLUnstructuredGridWriter.h"

#include <cmath>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace
{
using Options = std::map<std::string, std::string>; // "--name" -> value ("" for a flag)

struct Filter
{
  std::string name;
  std::string usage;              // options, for --help
  std::set<std::string> values;   // options taking a value
  std::set<std::string> flags;    // options without one
  std::function<vtkSmartPointer<vtkGPUMeshFilter>(const Options&)> make;
  std::function<void(vtkPointSet* output)> print;
};

int choice(const Options& options, const std::string& option, const std::map<std::string, int>& names)
{
  const auto found = names.find(options.at(option));
  if (found == names.end())
  {
    throw std::invalid_argument("unknown value for " + option + ": " + options.at(option));
  }
  return found->second;
}

double number(const Options& options, const std::string& option)
{
  try
  {
    return std::stod(options.at(option));
  }
  catch (const std::exception&)
  {
    throw std::invalid_argument(option + " needs a number, not " + options.at(option));
  }
}

void selectCellArray(vtkGPUMeshFilter* filter, const std::string& name)
{
  filter->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, name.c_str());
}

double fieldValue(vtkPointSet* output, const char* name)
{
  vtkDataArray* array = output->GetFieldData()->GetArray(name);
  if (!array)
  {
    throw std::runtime_error(std::string("the output has no field data ") + name);
  }
  return array->GetTuple1(0);
}

std::vector<Filter> filters()
{
  std::vector<Filter> table;
  table.push_back({ "cell-reduction", "[--quantity size|area|volume|length|array] [--array <cell array>]",
    { "--quantity", "--array" }, {},
    [](const Options& options) {
      vtkNew<vtkGPUCellReduction> filter;
      if (options.count("--quantity"))
      {
        filter->SetQuantity(choice(options, "--quantity",
          { { "size", vtkGPUCellReduction::SIZE }, { "area", vtkGPUCellReduction::AREA },
            { "volume", vtkGPUCellReduction::VOLUME }, { "length", vtkGPUCellReduction::LENGTH },
            { "array", vtkGPUCellReduction::ARRAY } }));
      }
      if (options.count("--array"))
      {
        selectCellArray(filter, options.at("--array"));
      }
      return vtkSmartPointer<vtkGPUMeshFilter>(filter.Get());
    },
    [](vtkPointSet* output) {
      for (const char* name : { "Count", "Min", "Max", "Sum", "Mean", "L2" })
      {
        std::cout << name << " " << fieldValue(output, name) << "\n";
      }
    } });

  table.push_back({ "neighbor-distance", "[--centroids]", {}, { "--centroids" },
    [](const Options& options) {
      vtkNew<vtkGPUNeighborDistance> filter;
      filter->SetComputeCentroids(options.count("--centroids") > 0);
      return vtkSmartPointer<vtkGPUMeshFilter>(filter.Get());
    },
    [](vtkPointSet* output) {
      vtkDataArray* count = output->GetCellData()->GetArray("NeighborCount");
      vtkDataArray* mean = output->GetCellData()->GetArray("MeanNeighborDistance");
      if (!count || !mean)
      {
        throw std::runtime_error("the output lacks NeighborCount or MeanNeighborDistance");
      }
      double sum = 0.0;
      for (vtkIdType i = 0; i < count->GetNumberOfTuples(); ++i)
      {
        sum += count->GetTuple1(i);
      }
      double range[2];
      mean->GetRange(range); // NaN (cells without neighbours) is left out
      std::cout << "NeighborCountSum " << sum << "\nMeanNeighborDistanceMin " << range[0]
                << "\nMeanNeighborDistanceMax " << range[1] << "\n";
      if (output->GetCellData()->GetArray("Centroid"))
      {
        std::cout << "Centroid yes\n";
      }
    } });

  table.push_back({ "longest-edge-refinement",
    "[--mark-array <cell array>] [--threshold <value>] [--refine-all] [--passes <n>]",
    { "--mark-array", "--threshold", "--passes" }, { "--refine-all" },
    [](const Options& options) {
      vtkNew<vtkGPULongestEdgeRefinement> filter;
      if (options.count("--mark-array"))
      {
        selectCellArray(filter, options.at("--mark-array"));
      }
      if (options.count("--threshold"))
      {
        filter->SetMarkThreshold(number(options, "--threshold"));
      }
      if (options.count("--passes"))
      {
        filter->SetPasses(static_cast<int>(number(options, "--passes")));
      }
      filter->SetRefineAll(options.count("--refine-all") > 0);
      return vtkSmartPointer<vtkGPUMeshFilter>(filter.Get());
    },
    [](vtkPointSet* output) {
      std::cout << "MarkedCells " << fieldValue(output, "MarkedCells") << "\nCreatedCells "
                << fieldValue(output, "CreatedCells") << "\nCells " << output->GetNumberOfCells() << "\n";
    } });

#ifdef GPUMESH_APP_HAS_SMOOTHING
  table.push_back({ "vertex-smoothing",
    "[--iterations <n>] [--relaxation <lambda>] [--method laplacian|taubin|barycentric]\n"
    "      [--pass-band <k>] [--boundary fixed|free|smooth] [--fixed-points <point array>]",
    { "--iterations", "--relaxation", "--method", "--pass-band", "--boundary", "--fixed-points" }, {},
    [](const Options& options) {
      vtkNew<vtkGPUVertexSmoothing> filter;
      if (options.count("--iterations"))
      {
        filter->SetIterations(static_cast<int>(number(options, "--iterations")));
      }
      if (options.count("--relaxation"))
      {
        filter->SetRelaxationFactor(number(options, "--relaxation"));
      }
      if (options.count("--method"))
      {
        filter->SetMethod(choice(options, "--method",
          { { "laplacian", vtkGPUVertexSmoothing::LAPLACIAN }, { "taubin", vtkGPUVertexSmoothing::TAUBIN },
            { "barycentric", vtkGPUVertexSmoothing::BARYCENTRIC } }));
      }
      if (options.count("--pass-band"))
      {
        filter->SetPassBand(number(options, "--pass-band"));
      }
      if (options.count("--boundary"))
      {
        filter->SetBoundary(choice(options, "--boundary",
          { { "fixed", vtkGPUVertexSmoothing::FIXED }, { "free", vtkGPUVertexSmoothing::FREE },
            { "smooth", vtkGPUVertexSmoothing::SMOOTH } }));
      }
      if (options.count("--fixed-points"))
      {
        filter->SetFixedPointsArray(options.at("--fixed-points").c_str());
      }
      return vtkSmartPointer<vtkGPUMeshFilter>(filter.Get());
    },
    [](vtkPointSet* output) {
      vtkDataArray* displacement = output->GetPointData()->GetArray("Displacement");
      if (!displacement)
      {
        throw std::runtime_error("the output has no point array Displacement");
      }
      vtkIdType moved = 0;
      for (vtkIdType i = 0; i < displacement->GetNumberOfTuples(); ++i)
      {
        double d[3];
        displacement->GetTuple(i, d);
        moved += (d[0] != 0.0 || d[1] != 0.0 || d[2] != 0.0) ? 1 : 0;
      }
      std::cout << "MovedPoints " << moved << "\nMaxDisplacement " << displacement->GetMaxNorm() << "\n";
    } });
#endif
  return table;
}

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

int usage(const std::string& problem = "")
{
  if (!problem.empty())
  {
    std::cerr << "gpumesh_filter: " << problem << "\n";
  }
  std::ostream& out = problem.empty() ? std::cout : std::cerr;
  out << "usage: gpumesh_filter <filter> <input.vtu|vtp> <output.vtu|vtp> [options] [--device <spec>]\n"
         "       gpumesh_filter --list-devices\n"
         "filters and their options:\n";
  for (const Filter& filter : filters())
  {
    out << "  " << filter.name << " " << filter.usage << "\n";
  }
  out << "--device: auto (default), gpu or cpu (the first of that type), an index from --list-devices, or part of a device name\n";
  return problem.empty() ? 0 : 2;
}

int listDevices()
{
  vtkNew<vtkGPUCellReduction> any;
  vtkStringArray* devices = any->GetAvailableDevices();
  for (vtkIdType i = 0; i < devices->GetNumberOfValues(); ++i)
  {
    std::cout << devices->GetValue(i) << "\n";
  }
  return 0;
}
} // namespace

int main(int argc, char* argv[])
{
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--list-devices")
  {
    return listDevices();
  }
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h"))
  {
    return usage();
  }
  if (args.size() < 3)
  {
    return usage("a filter, an input and an output are needed");
  }
  const std::vector<Filter> table = filters();
  const Filter* chosen = nullptr;
  for (const Filter& filter : table)
  {
    chosen = filter.name == args[0] ? &filter : chosen;
  }
  if (!chosen)
  {
    return usage("unknown filter " + args[0]);
  }

  Options options;
  for (size_t i = 3; i < args.size(); ++i)
  {
    if (chosen->flags.count(args[i]))
    {
      options[args[i]] = "";
    }
    else if ((chosen->values.count(args[i]) || args[i] == "--device") && i + 1 < args.size())
    {
      options[args[i]] = args[i + 1];
      ++i;
    }
    else
    {
      return usage("unknown option or missing value for " + chosen->name + ": " + args[i]);
    }
  }

  vtkSmartPointer<vtkPointSet> input = read(args[1]);
  if (!input || input->GetNumberOfPoints() == 0)
  {
    std::cerr << "could not read a mesh from " << args[1] << "\n";
    return 1;
  }
  try
  {
    vtkSmartPointer<vtkGPUMeshFilter> filter = chosen->make(options);
    filter->SetInputData(input);
    if (options.count("--device"))
    {
      filter->SetDevice(options.at("--device").c_str());
    }
    filter->Update();
    auto* output = vtkPointSet::SafeDownCast(filter->GetOutputDataObject(0));
    auto* device = output ? vtkStringArray::SafeDownCast(output->GetFieldData()->GetAbstractArray("Device")) : nullptr;
    if (!device || (output->GetNumberOfCells() == 0 && input->GetNumberOfCells() > 0))
    {
      std::cerr << chosen->name << " failed (see the error above)\n";
      return 1;
    }
    std::cout << "Filter " << chosen->name << "\nDevice " << device->GetValue(0) << "\nKernelTimeMs "
              << fieldValue(output, "KernelTimeMs") << "\n";
    chosen->print(output);
    return write(output, args[2]) ? 0 : 1;
  }
  catch (const std::invalid_argument& error) // a bad option value
  {
    return usage(error.what());
  }
  catch (const std::exception& error)
  {
    std::cerr << "gpumesh_filter: " << error.what() << "\n";
    return 1;
  }
}
