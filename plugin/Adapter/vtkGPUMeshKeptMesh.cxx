#include "vtkGPUMeshKeptMesh.h"

#include "vtkCellArray.h"
#include "vtkDataArray.h"
#include "vtkIdTypeArray.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"
#include "vtkWeakPointer.h"

#include "vtkGPUMeshPiece.h"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>
#include <vector>

namespace
{
// The mesh, and where a CPU device reads the arrays where they are, what it was made from: its
// description (a converted copy included) and the VTK arrays the key names, alive as long as it.
// A GPU's mesh is a copy: the input's arrays are not held.
struct Kept
{
  /// `prefix`: the mesh of the description's head points and first `prefixSections` sections,
  /// on the device already (a piece's, which the ghost layer follows), or null.
  Kept(gpumesh::DeviceRun& run, vtkGPUMeshAdapter::MeshDescription described, int minimumDimension,
    std::vector<vtkSmartPointer<vtkObject>> from, const gpumesh::DeviceMesh* prefix = nullptr,
    std::size_t prefixSections = 0)
    : Description(std::move(described))
    , Mesh(prefix ? gpumesh::DeviceMesh(run, *prefix, Description.view, prefixSections, minimumDimension)
                  : gpumesh::DeviceMesh(run, Description.view, minimumDimension))
    , Sources(std::move(from))
  {
    if (run.info().isGPU || !Description.view.readInPlace)
    {
      Description = vtkGPUMeshAdapter::MeshDescription();
      Sources.clear();
    }
  }
  vtkGPUMeshAdapter::MeshDescription Description;
  gpumesh::DeviceMesh Mesh;
  std::vector<vtkSmartPointer<vtkObject>> Sources;
};

// An object's address, and its modification time.
void add(std::string& key, vtkObject* object)
{
  char text[64];
  std::snprintf(text, sizeof(text), "%p@%llu;", static_cast<void*>(object),
    static_cast<unsigned long long>(object ? object->GetMTime() : 0));
  key += text;
}

// The version's part for an array the mesh reads (kept alive with it: a CPU device reads it
// where it is).
void addArray(std::string& version, std::vector<vtkSmartPointer<vtkObject>>& sources, vtkObject* array)
{
  add(version, array);
  if (array)
    sources.emplace_back(array);
}

void addCells(std::string& version, std::vector<vtkSmartPointer<vtkObject>>& sources, vtkCellArray* cells)
{
  add(version, cells);
  if (cells)
  {
    addArray(version, sources, cells->GetOffsetsArray());
    addArray(version, sources, cells->GetConnectivityArray());
  }
}

// The slot (which dataset, alone or with a ghost layer, seen how; the device's own
// KeptDeviceData holds it) and the version (its arrays and their modification times: a new
// ghost layer is a new version of the ghosted slot); false for datasets whose cells are not
// arrays of their own (structured grids...).
bool keysOf(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& piece, const vtkGPUMeshAdapter::MeshDescription& description,
  int minimumDimension, std::string& slot, std::string& version, std::vector<vtkSmartPointer<vtkObject>>& sources)
{
  vtkPointSet* data = piece.Data;
  // The origin matters only to points rounded to float relative to it: filters that give
  // float points different origins share the mesh.
  const std::array<double, 3> origin = description.view.points.roundedIn(run.precision())
    ? description.view.points.origin
    : std::array<double, 3>{};
  char text[192];
  std::snprintf(text, sizeof(text), "dataset %p%s precision %d dimension %d in-place %d origin %a %a %a",
    static_cast<void*>(data), piece.MorePoints || piece.MoreCells ? " ghosted" : "",
    static_cast<int>(run.precision()), minimumDimension, description.view.readInPlace ? 1 : 0, origin[0], origin[1],
    origin[2]);
  slot = text;
  version.clear();
  addArray(version, sources, data && data->GetPoints() ? data->GetPoints()->GetData() : nullptr);
  if (auto* polydata = vtkPolyData::SafeDownCast(data))
  {
    addCells(version, sources, polydata->GetVerts());
    addCells(version, sources, polydata->GetLines());
    addCells(version, sources, polydata->GetPolys());
    addCells(version, sources, polydata->GetStrips());
  }
  else if (auto* grid = vtkUnstructuredGrid::SafeDownCast(data))
  {
    addCells(version, sources, grid->GetCells());
    addArray(version, sources, grid->GetCellTypesArray());
    addArray(version, sources, grid->GetFaces());
    addArray(version, sources, grid->GetFaceLocations());
  }
  else
  {
    return false;
  }
  addArray(version, sources, piece.MorePoints);
  addCells(version, sources, piece.MoreCells);
  addArray(version, sources, piece.MoreTypes);
  return true;
}
} // namespace

namespace vtkGPUMeshKeptMesh
{

bool ExtendsOnDevice(const gpumesh::DeviceRun& run)
{
  const char* forced = std::getenv("GPUMESH_GHOST_LAYER_ON_DEVICE");
  return run.info().isGPU || (forced && std::string(forced) == "1");
}

std::shared_ptr<const gpumesh::DeviceMesh> Get(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& piece,
  vtkGPUMeshAdapter::MeshDescription description, int minimumDimension)
{
  const bool extended = (piece.MorePoints || piece.MoreCells) && ExtendsOnDevice(run);
  vtkGPUMeshAdapter::MeshDescription own;
  if (extended)
  {
    // An empty layer adds nothing: the dataset's own kept mesh serves.
    own = vtkGPUMeshAdapter::DescribeMesh(piece.Data, run.precision());
    own.view.points.origin = description.view.points.origin;
    if (description.view.points.tailCount == 0 && description.view.sections.size() == own.view.sections.size())
      return Get(run, vtkGPUMeshPiece::Of(piece.Data), std::move(own), minimumDimension);
  }
  std::string slot, version;
  std::vector<vtkSmartPointer<vtkObject>> sources;
  const bool keepable = keysOf(run, piece, description, minimumDimension, slot, version, sources);
  if (keepable)
  {
    if (std::shared_ptr<const void> found = run.device().kept().find(slot, version))
    {
      auto kept = std::static_pointer_cast<const Kept>(found);
      return std::shared_ptr<const gpumesh::DeviceMesh>(kept, &kept->Mesh);
    }
    run.device().kept().forget(slot); // an older version's memory goes first, to be used again
  }
  // A ghosted piece not kept extends its dataset's own kept mesh (found or made) with the layer
  // alone.
  std::shared_ptr<const gpumesh::DeviceMesh> prefix;
  const std::size_t prefixSections = own.view.sections.size();
  if (extended)
    prefix = Get(run, vtkGPUMeshPiece::Of(piece.Data), std::move(own), minimumDimension);
  // What it holds: its device memory, and the host arrays a CPU device reads where they are.
  const std::uint64_t inUseBefore = run.deviceMemoryInUse();
  const std::uint64_t inPlaceBefore = run.bytesReadInPlace();
  auto made = std::make_shared<const Kept>(
    run, std::move(description), minimumDimension, std::move(sources), prefix.get(), prefixSections);
  if (keepable)
  {
    // Wanted while its dataset lives (a piece's ghosted copy is replaced when its input changes).
    vtkWeakPointer<vtkPointSet> dataset = piece.Data;
    run.device().kept().keep(slot, version, made,
      run.deviceMemoryInUse() - inUseBefore + run.bytesReadInPlace() - inPlaceBefore,
      [dataset] { return dataset != nullptr; });
  }
  return std::shared_ptr<const gpumesh::DeviceMesh>(made, &made->Mesh);
}

} // namespace vtkGPUMeshKeptMesh
