// One filter timed end to end, as a user waits for it: a fresh filter, SetInputData, Update,
// the output in hand (VTK dataset in, VTK dataset out; everything the filter builds, the core's
// mesh description and the output arrays included, is inside the timer; generating the input
// is not). A warm-up run of the same filter comes first in the same process, so that context
// creation and kernel compilation stay out of the timed run. Prints one JSON line.
//
//   gpumesh-filter-benchmark --filter NAME --mesh NAME --cells N [--device SPEC]
//       [--warmup full|small|none] [--marked-fraction F] [--fan-degree D]
//       [--point-type float|double] [--id-type 32|64] [--mesh-cache DIR] [--cell-arrays none|three]
//   gpumesh-filter-benchmark --list        (filters and meshes)
//   gpumesh-filter-benchmark --devices     (OpenCL devices, as the Device property names them)
//
// Beside the times, the line holds the bytes the filter must read (input points, cell arrays,
// the arrays it uses) and write (every output array that is not the input's, passed by
// reference) at the least, and the time of one memcpy of that many bytes measured in the same
// process: the floor that the filter's host time (wall - kernel time) is compared with.
//
// VTK's own filters run threaded: unless VTK_SMP_BACKEND_IN_USE is set, this program sets it to
// STDThread before VTK starts (Debian's VTK is otherwise sequential).
#include "MeshGenerators.h"

#include "vtkGPUCellReduction.h"
#include "vtkGPUDecimation.h"
#include "vtkGPUExtractEdges.h"
#include "vtkGPUExtractSurface.h"
#include "vtkGPULongestEdgeRefinement.h"
#include "vtkGPUNeighborDistance.h"
#include "vtkGPUMeshKernel.h"
#include "vtkGPUMeshQuality.h"
#include "vtkGPUVertexSmoothing.h"

#include "vtkCallbackCommand.h"
#include "vtkBinnedDecimation.h"
#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellSizeFilter.h"
#include "vtkCellType.h"
#include "vtkCommand.h"
#include "vtkDataArray.h"
#include "vtkDataSetSurfaceFilter.h"
#include "vtkDecimatePro.h"
#include "vtkDoubleArray.h"
#include "vtkExtractEdges.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkIdTypeArray.h"
#include "vtkIntArray.h"
#include "vtkMeshQuality.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkQuadricClustering.h"
#include "vtkQuadricDecimation.h"
#include "vtkSMPTools.h"
#include "vtkSmartPointer.h"
#include "vtkSmoothPolyDataFilter.h"
#include "vtkStringArray.h"
#include "vtkTypeInt32Array.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"
#include "vtkWindowedSincPolyDataFilter.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <memory>
#include <random>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace
{
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point start)
{
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Options
{
  std::string filter;
  std::string mesh;
  std::size_t cells = 0;
  std::string device = "auto";
  std::string warmup = "full";
  double markedFraction = 0.001;
  int fanDegree = 16384;
  std::string pointType = "double";
  int idBits = 64;
  std::string meshCache; // a folder: generated meshes are kept there for later processes
  std::string cellArrays = "none"; // "three": an int, a float and a 3-component double cell array
};

// ---- Meshes --------------------------------------------------------------------------------

struct MeshKind
{
  std::string name;
  std::string description;
  bool tetrahedra;
  bool shuffled;
  bool fan;
  bool wavy = false; ///< the grid lifted to a smooth height field: curvature for decimation
};

const std::vector<MeshKind>& meshKinds()
{
  static const std::vector<MeshKind> kinds = {
    { "triangles", "vtkPolyData, a jittered grid split into triangles, row order", false, false, false },
    { "triangles-shuffled", "the same, points and cells renumbered at random", false, true, false },
    { "triangles-wavy", "the same grid lifted to z = 3 sin(x / 9) cos(y / 13) (a curved surface, for decimation)",
      false, false, false, true },
    { "triangles-fan", "the grid plus a separate fan of --fan-degree triangles around one vertex", false,
      false, true },
    { "tetrahedra", "vtkUnstructuredGrid, a jittered box of cubes, six tetrahedra each, row order", true,
      false, false },
    { "tetrahedra-shuffled", "the same, points and cells renumbered at random", true, true, false },
  };
  return kinds;
}

const MeshKind& meshKind(const std::string& name)
{
  for (const auto& kind : meshKinds())
  {
    if (kind.name == name)
      return kind;
  }
  throw std::invalid_argument("unknown --mesh '" + name + "' (see --list)");
}

// A disk of `degree` triangles around one new centre point, beside the grid (x beyond its
// extent): a vertex of that degree, as at the pole of a UV sphere or in a triangulated n-gon.
void addFan(gpumesh::benchmark::GeneratedMesh& mesh, int degree)
{
  double extent = 0.0;
  for (std::size_t p = 0; p < mesh.pointCount(); ++p)
    extent = std::max(extent, mesh.xyz[3 * p]);
  const double radius = std::max(1.0, extent / 2.0);
  const double centre[2] = { extent + 2.0 + radius, radius };
  const auto centreId = static_cast<std::int64_t>(mesh.pointCount());
  mesh.xyz.insert(mesh.xyz.end(), { centre[0], centre[1], 0.0 });
  const double pi = std::acos(-1.0);
  for (int k = 0; k < degree; ++k)
  {
    const double angle = 2.0 * pi * k / degree;
    mesh.xyz.insert(mesh.xyz.end(), { centre[0] + radius * std::cos(angle), centre[1] + radius * std::sin(angle), 0.0 });
  }
  for (int k = 0; k < degree; ++k)
    mesh.connectivity.insert(mesh.connectivity.end(), { centreId, centreId + 1 + k, centreId + 1 + (k + 1) % degree });
}

template <typename ArrayType, typename Value>
vtkSmartPointer<ArrayType> arrayOf(const std::vector<Value>& values, int components)
{
  auto array = vtkSmartPointer<ArrayType>::New();
  array->SetNumberOfComponents(components);
  array->SetNumberOfTuples(static_cast<vtkIdType>(values.size() / components));
  auto* out = array->GetPointer(0);
  for (std::size_t i = 0; i < values.size(); ++i)
    out[i] = static_cast<typename ArrayType::ValueType>(values[i]);
  return array;
}

template <typename ArrayType>
vtkSmartPointer<vtkCellArray> cellArrayOf(const gpumesh::benchmark::GeneratedMesh& mesh)
{
  std::vector<std::int64_t> offsets(mesh.cellCount() + 1);
  for (std::size_t c = 0; c < offsets.size(); ++c)
    offsets[c] = static_cast<std::int64_t>(c) * mesh.verticesPerCell;
  auto cells = vtkSmartPointer<vtkCellArray>::New();
  cells->SetData(arrayOf<ArrayType>(offsets, 1), arrayOf<ArrayType>(mesh.connectivity, 1));
  return cells;
}

gpumesh::benchmark::GeneratedMesh generatedMesh(const Options& options, const MeshKind& kind, std::size_t cells)
{
  gpumesh::benchmark::GeneratedMesh mesh;
  if (kind.tetrahedra)
    mesh = gpumesh::benchmark::tetrahedronBox(cells);
  else if (kind.fan)
  {
    if (cells <= static_cast<std::size_t>(options.fanDegree))
      throw std::invalid_argument("--cells must exceed --fan-degree for " + kind.name);
    mesh = gpumesh::benchmark::triangleGrid(cells - static_cast<std::size_t>(options.fanDegree));
    addFan(mesh, options.fanDegree);
  }
  else
    mesh = gpumesh::benchmark::triangleGrid(cells);
  if (kind.wavy)
    for (std::size_t p = 0; p < mesh.pointCount(); ++p)
      mesh.xyz[3 * p + 2] = 3.0 * std::sin(mesh.xyz[3 * p] / 9.0) * std::cos(mesh.xyz[3 * p + 1] / 13.0);
  if (kind.shuffled)
    gpumesh::benchmark::shuffle(mesh);
  return mesh;
}

// The mesh cache: generating 30M triangles takes longer than most filters, and every process
// of a case (and every case on that mesh) needs the same mesh. A file holds the sizes, then
// the points and the connectivity as they are in memory; written under a temporary name and
// renamed, so a process that is killed leaves no partial file.
const char cacheMagic[8] = { 'G', 'M', 'B', 'M', 'E', 'S', 'H', '1' };

bool readCachedMesh(const std::string& path, gpumesh::benchmark::GeneratedMesh& mesh)
{
  std::ifstream in(path, std::ios::binary);
  char magic[sizeof(cacheMagic)] = {};
  std::uint64_t sizes[3] = {};
  if (!in.read(magic, sizeof(magic)) || std::memcmp(magic, cacheMagic, sizeof(magic)) != 0 ||
    !in.read(reinterpret_cast<char*>(sizes), sizeof(sizes)))
    return false;
  mesh.verticesPerCell = static_cast<int>(sizes[0]);
  mesh.kind = mesh.verticesPerCell == 4 ? gpumesh::CellKind::Tetra : gpumesh::CellKind::Triangle;
  mesh.xyz.resize(sizes[1]);
  mesh.connectivity.resize(sizes[2]);
  return static_cast<bool>(in.read(reinterpret_cast<char*>(mesh.xyz.data()), sizes[1] * sizeof(double))) &&
    static_cast<bool>(
      in.read(reinterpret_cast<char*>(mesh.connectivity.data()), sizes[2] * sizeof(std::int64_t)));
}

void writeCachedMesh(const std::string& path, const gpumesh::benchmark::GeneratedMesh& mesh)
{
  const std::string partial = path + ".partial." + std::to_string(::getpid());
  {
    std::ofstream out(partial, std::ios::binary);
    const std::uint64_t sizes[3] = { static_cast<std::uint64_t>(mesh.verticesPerCell), mesh.xyz.size(),
      mesh.connectivity.size() };
    out.write(cacheMagic, sizeof(cacheMagic));
    out.write(reinterpret_cast<const char*>(sizes), sizeof(sizes));
    out.write(reinterpret_cast<const char*>(mesh.xyz.data()), static_cast<std::streamsize>(mesh.xyz.size() * sizeof(double)));
    out.write(reinterpret_cast<const char*>(mesh.connectivity.data()),
      static_cast<std::streamsize>(mesh.connectivity.size() * sizeof(std::int64_t)));
    if (!out)
    {
      std::remove(partial.c_str());
      throw std::runtime_error("could not write the mesh cache file " + partial);
    }
  }
  std::rename(partial.c_str(), path.c_str());
}

vtkSmartPointer<vtkPointSet> generateMesh(const Options& options, std::size_t cells)
{
  const MeshKind& kind = meshKind(options.mesh);
  gpumesh::benchmark::GeneratedMesh mesh;
  const std::string cached = options.meshCache.empty()
    ? std::string()
    : options.meshCache + "/" + kind.name + "_" + std::to_string(cells) +
      (kind.fan ? "_fan" + std::to_string(options.fanDegree) : std::string()) + ".bin";
  if (cached.empty() || !readCachedMesh(cached, mesh))
  {
    mesh = generatedMesh(options, kind, cells);
    if (!cached.empty())
      writeCachedMesh(cached, mesh);
  }

  vtkNew<vtkPoints> points;
  if (options.pointType == "float")
    points->SetData(arrayOf<vtkFloatArray>(mesh.xyz, 3));
  else
    points->SetData(arrayOf<vtkDoubleArray>(mesh.xyz, 3));
  const auto cellArray =
    options.idBits == 32 ? cellArrayOf<vtkTypeInt32Array>(mesh) : cellArrayOf<vtkIdTypeArray>(mesh);

  if (kind.tetrahedra)
  {
    auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
    grid->SetPoints(points);
    grid->SetCells(VTK_TETRA, cellArray);
    return grid;
  }
  auto polydata = vtkSmartPointer<vtkPolyData>::New();
  polydata->SetPoints(points);
  polydata->SetPolys(cellArray);
  return polydata;
}

// The cell array "Mark": 1 for round(fraction * cells) cells chosen at random (fixed seed), else 0.
vtkSmartPointer<vtkFloatArray> markArray(vtkIdType cells, double fraction)
{
  auto marks = vtkSmartPointer<vtkFloatArray>::New();
  marks->SetName("Mark");
  marks->SetNumberOfTuples(cells);
  marks->FillValue(0.0f);
  const auto wanted = static_cast<vtkIdType>(std::llround(fraction * static_cast<double>(cells)));
  std::mt19937_64 generator(11);
  std::uniform_int_distribution<vtkIdType> cell(0, cells - 1);
  for (vtkIdType marked = 0; marked < wanted;)
  {
    const vtkIdType c = cell(generator);
    if (marks->GetValue(c) == 0.0f)
    {
      marks->SetValue(c, 1.0f);
      ++marked;
    }
  }
  return marks;
}

// The cell arrays real data carries, for --cell-arrays three: an int, a float and a 3-component
// double, different in every cell (what a filter that creates cells must give its children).
std::vector<vtkSmartPointer<vtkDataArray>> carriedCellArrays(vtkIdType cells)
{
  auto region = vtkSmartPointer<vtkIntArray>::New();
  auto quality = vtkSmartPointer<vtkFloatArray>::New();
  auto direction = vtkSmartPointer<vtkDoubleArray>::New();
  region->SetName("Region");
  quality->SetName("Quality");
  direction->SetName("Direction");
  direction->SetNumberOfComponents(3);
  region->SetNumberOfTuples(cells);
  quality->SetNumberOfTuples(cells);
  direction->SetNumberOfTuples(cells);
  vtkSMPTools::For(0, cells, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType c = begin; c < end; ++c)
    {
      region->SetValue(c, static_cast<int>(c % 97));
      quality->SetValue(c, 0.5f * static_cast<float>(c));
      direction->SetTypedTuple(c, std::array<double, 3>{ double(c), -double(c), 2.0 * double(c) }.data());
    }
  });
  return { region, quality, direction };
}

// ---- Filters -------------------------------------------------------------------------------

struct FilterCase
{
  std::string name;
  std::string description;
  bool gpu;
  bool polydataOnly;
  bool trianglesOnly;
  std::vector<std::string> arraysRead; // input arrays the filter reads besides points and cells
  std::function<vtkSmartPointer<vtkAlgorithm>(const Options&, bool tetrahedra)> make;
  /// Iterated filters: the field data KernelTimeMs_<kernel> arrays whose names start with
  /// this prefix are the Jacobi step's kernels, run `steps` times (reported as step_kernel_ms).
  std::string stepKernelPrefix = {};
  int steps = 0;
};

// The Laplacian step of gpu-vertex-smoothing written by a user, for GPU Mesh Kernel.
const char* const userLaplacian = "REAL3 mean = 0;\n"
                                  "for (int k = 0; k < neighbour_count; ++k)\n"
                                  "  mean += neighbours_x(k);\n"
                                  "result = x + 0.5 * (mean / neighbour_count - x);\n";

// The bins per side of vtk-quadric-clustering and vtk-binned-decimation: about 10% of the
// triangles of a triangle grid of `cells` triangles left.
int clusteringDivisions(std::size_t cells)
{
  return std::max(1, static_cast<int>(std::lround(std::sqrt(0.05 * static_cast<double>(cells)))));
}

const std::vector<FilterCase>& filterCases()
{
  static const std::vector<FilterCase> cases = {
    { "gpu-cell-reduction", "vtkGPUCellReduction, Quantity Area (Volume for tetrahedra)", true, false, false, {},
      [](const Options& options, bool tetrahedra) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUCellReduction> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetQuantity(tetrahedra ? vtkGPUCellReduction::VOLUME : vtkGPUCellReduction::AREA);
        return filter.GetPointer();
      } },
    // Mesh Quality's measures by number (vtkMeshQuality::QualityMeasureTypes): the radius ratio
    // of triangles and tetrahedra (2), one of Verdict's costlier ones (inradius and circumradius).
    { "gpu-mesh-quality", "vtkGPUMeshQuality, Radius Ratio of triangles and tetrahedra, with its statistics", true,
      false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUMeshQuality> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetTriangleQualityMeasure(2);
        filter->SetTetQualityMeasure(2);
        return filter.GetPointer();
      } },
    { "gpu-neighbor-distance", "vtkGPUNeighborDistance, defaults", true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUNeighborDistance> filter;
        filter->SetDevice(options.device.c_str());
        return filter.GetPointer();
      } },
    { "gpu-vertex-smoothing", "vtkGPUVertexSmoothing, Laplacian, 10 iterations", true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUVertexSmoothing> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetMethod(vtkGPUVertexSmoothing::LAPLACIAN);
        filter->SetIterations(10);
        return filter.GetPointer();
      },
      "KernelTimeMs_relax", 10 },
    // Issue 27's case: WindowedSinc as a ParaView user applies it (PassBand 0.1; Boundary Fixed,
    // no features, NonManifoldSmoothing off, NormalizeCoordinates off, Precision Auto: the
    // filter's defaults), beside vtk-windowed-sinc-20 with the same options.
    { "gpu-windowed-sinc", "vtkGPUVertexSmoothing, WindowedSinc, 20 iterations, PassBand 0.1, other properties default",
      true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUVertexSmoothing> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetMethod(vtkGPUVertexSmoothing::WINDOWED_SINC);
        filter->SetIterations(20);
        filter->SetPassBand(0.1);
        return filter.GetPointer();
      },
      "KernelTimeMs_relax", 20 },
    { "gpu-kernel-laplacian",
      "vtkGPUMeshKernel, the Laplacian step of gpu-vertex-smoothing (every point moves) written as a kernel, 10 "
      "iterations",
      true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUMeshKernel> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetKernel(userLaplacian);
        filter->SetResultArrayName("Points");
        filter->SetResultComponents(3);
        filter->SetIterations(10);
        return filter.GetPointer();
      },
      "KernelTimeMs_mesh_kernel", 10 },
    { "gpu-kernel-laplacian-unchecked", "gpu-kernel-laplacian with CheckIndices off (the cost of the index checks)",
      true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUMeshKernel> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetKernel(userLaplacian);
        filter->SetResultArrayName("Points");
        filter->SetResultComponents(3);
        filter->SetIterations(10);
        filter->CheckIndicesOff();
        return filter.GetPointer();
      },
      "KernelTimeMs_mesh_kernel", 10 },
    { "gpu-refinement-marked", "vtkGPULongestEdgeRefinement, cells of the cell array Mark (--marked-fraction)",
      true, false, false, { "Mark" },
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPULongestEdgeRefinement> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, "Mark");
        return filter.GetPointer();
      } },
    { "gpu-refinement-all", "vtkGPULongestEdgeRefinement, RefineAll", true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPULongestEdgeRefinement> filter;
        filter->SetDevice(options.device.c_str());
        filter->RefineAllOn();
        return filter.GetPointer();
      } },
    { "gpu-extract-surface", "vtkGPUExtractSurface, defaults (the boundary faces of tetrahedra; triangles pass as they are)",
      true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUExtractSurface> filter;
        filter->SetDevice(options.device.c_str());
        return filter.GetPointer();
      } },
    { "vtk-dataset-surface", "vtkDataSetSurfaceFilter (ParaView's Extract Surface), defaults", false, false, false, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkDataSetSurfaceFilter> filter;
        return filter.GetPointer();
      } },
    { "gpu-extract-edges", "vtkGPUExtractEdges, defaults (every edge once)", true, false, false, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUExtractEdges> filter;
        filter->SetDevice(options.device.c_str());
        return filter.GetPointer();
      } },
    { "vtk-extract-edges", "vtkExtractEdges (ParaView's Extract Edges), defaults", false, false, false, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkExtractEdges> filter;
        return filter.GetPointer();
      } },
    { "vtk-cell-size", "vtkCellSizeFilter (ParaView's Cell Size), area (volume for tetrahedra) and its sum",
      false, false, false, {},
      [](const Options&, bool tetrahedra) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkCellSizeFilter> filter;
        filter->SetComputeVertexCount(false);
        filter->SetComputeLength(false);
        filter->SetComputeArea(!tetrahedra);
        filter->SetComputeVolume(tetrahedra);
        filter->SetComputeSum(true);
        return filter.GetPointer();
      } },
    { "vtk-mesh-quality", "vtkMeshQuality (ParaView's Mesh Quality), Radius Ratio of triangles and tetrahedra",
      false, false, false, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkMeshQuality> filter;
        filter->SetTriangleQualityMeasureToRadiusRatio();
        filter->SetTetQualityMeasureToRadiusRatio();
        return filter.GetPointer();
      } },
    { "vtk-smooth", "vtkSmoothPolyDataFilter (ParaView's Smooth), 10 iterations, relaxation 0.5", false, true,
      false, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkSmoothPolyDataFilter> filter;
        filter->SetNumberOfIterations(10);
        filter->SetRelaxationFactor(0.5);
        return filter.GetPointer();
      } },
    { "gpu-decimation", "vtkGPUDecimation, TargetReduction 0.9 (PreserveTopology on, its default)", true, false, true,
      {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUDecimation> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetTargetReduction(0.9);
        return filter.GetPointer();
      } },
    { "gpu-decimation-99", "vtkGPUDecimation, TargetReduction 0.99 (1% of the triangles left)", true, false, true,
      {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkGPUDecimation> filter;
        filter->SetDevice(options.device.c_str());
        filter->SetTargetReduction(0.99);
        return filter.GetPointer();
      } },
    { "vtk-quadric-decimation", "vtkQuadricDecimation (ParaView's Quadric Decimation), TargetReduction 0.9", false,
      true, true, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkQuadricDecimation> filter;
        filter->SetTargetReduction(0.9);
        return filter.GetPointer();
      } },
    // Vertex clustering (issue 28's threaded CPU baselines): no target reduction, a grid of bins.
    // d x d x 1 bins with d = round(sqrt(0.05 x cells)) leave about 10% of the triangles of the
    // triangle grids (2 d^2 for the n x n grid of 2 n^2 triangles; one bin across z, the wavy
    // surface's height being 6 against n).
    { "vtk-quadric-clustering",
      "vtkQuadricClustering (ParaView's Quadric Clustering), d x d x 1 bins, d = sqrt(0.05 x cells): about 10% "
      "of a triangle grid",
      false, true, true, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkQuadricClustering> filter;
        const int d = clusteringDivisions(options.cells);
        filter->AutoAdjustNumberOfDivisionsOff();
        filter->SetNumberOfDivisions(d, d, 1);
        return filter.GetPointer();
      } },
    { "vtk-binned-decimation",
      "vtkBinnedDecimation (threaded vertex clustering), d x d x 1 bins as vtk-quadric-clustering, bin averages",
      false, true, true, {},
      [](const Options& options, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkBinnedDecimation> filter;
        const int d = clusteringDivisions(options.cells);
        filter->AutoAdjustNumberOfDivisionsOff();
        filter->SetNumberOfDivisions(d, d, 1);
        filter->SetPointGenerationModeToBinAverages();
        return filter.GetPointer();
      } },
    { "vtk-decimate-pro", "vtkDecimatePro (ParaView's Decimate), TargetReduction 0.9, PreserveTopology on", false,
      true, true, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkDecimatePro> filter;
        filter->SetTargetReduction(0.9);
        filter->PreserveTopologyOn();
        return filter.GetPointer();
      } },
    { "vtk-windowed-sinc", "vtkWindowedSincPolyDataFilter, 10 iterations", false, true, false, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkWindowedSincPolyDataFilter> filter;
        filter->SetNumberOfIterations(10);
        return filter.GetPointer();
      } },
    // gpu-windowed-sinc's options: BoundarySmoothing off is its Boundary Fixed (VTK's default
    // is on), FeatureEdgeSmoothing, NonManifoldSmoothing and NormalizeCoordinates off as both
    // filters' defaults.
    { "vtk-windowed-sinc-20",
      "vtkWindowedSincPolyDataFilter, 20 iterations, PassBand 0.1, BoundarySmoothing off (gpu-windowed-sinc's options)",
      false, true, false, {},
      [](const Options&, bool) -> vtkSmartPointer<vtkAlgorithm> {
        vtkNew<vtkWindowedSincPolyDataFilter> filter;
        filter->SetNumberOfIterations(20);
        filter->SetPassBand(0.1);
        filter->BoundarySmoothingOff();
        filter->FeatureEdgeSmoothingOff();
        filter->NonManifoldSmoothingOff();
        filter->NormalizeCoordinatesOff();
        return filter.GetPointer();
      } },
  };
  return cases;
}

const FilterCase& filterCase(const std::string& name)
{
  for (const auto& candidate : filterCases())
  {
    if (candidate.name == name)
      return candidate;
  }
  throw std::invalid_argument("unknown --filter '" + name + "' (see --list)");
}

// ---- Bytes read and written ----------------------------------------------------------------

std::uint64_t bytesOf(vtkDataArray* array)
{
  return array ? static_cast<std::uint64_t>(array->GetNumberOfValues()) *
      static_cast<std::uint64_t>(array->GetDataTypeSize())
               : 0;
}

// The points' and cells' arrays of a dataset: what describes its mesh.
std::vector<vtkDataArray*> meshArrays(vtkPointSet* dataset)
{
  std::vector<vtkDataArray*> arrays;
  if (dataset->GetPoints())
    arrays.push_back(dataset->GetPoints()->GetData());
  const auto addCells = [&arrays](vtkCellArray* cells) {
    if (cells)
    {
      arrays.push_back(cells->GetOffsetsArray());
      arrays.push_back(cells->GetConnectivityArray());
    }
  };
  if (auto* polydata = vtkPolyData::SafeDownCast(dataset))
  {
    addCells(polydata->GetVerts());
    addCells(polydata->GetLines());
    addCells(polydata->GetPolys());
    addCells(polydata->GetStrips());
  }
  else if (auto* grid = vtkUnstructuredGrid::SafeDownCast(dataset))
  {
    addCells(grid->GetCells());
    arrays.push_back(grid->GetCellTypesArray());
  }
  return arrays;
}

// Every data array of a dataset: mesh, point data and cell data.
std::vector<vtkDataArray*> allArrays(vtkPointSet* dataset)
{
  std::vector<vtkDataArray*> arrays = meshArrays(dataset);
  for (vtkFieldData* data : { static_cast<vtkFieldData*>(dataset->GetPointData()),
         static_cast<vtkFieldData*>(dataset->GetCellData()) })
  {
    for (int a = 0; a < data->GetNumberOfArrays(); ++a)
      arrays.push_back(data->GetArray(a));
  }
  return arrays;
}

std::uint64_t bytesRead(vtkPointSet* input, const FilterCase& filter)
{
  std::uint64_t bytes = 0;
  for (vtkDataArray* array : meshArrays(input))
    bytes += bytesOf(array);
  for (const auto& name : filter.arraysRead)
    bytes += bytesOf(input->GetCellData()->GetArray(name.c_str()));
  // A refinement reads every cell array it carries to the children.
  if (filter.name.rfind("gpu-refinement", 0) == 0)
  {
    for (const char* name : { "Region", "Quality", "Direction" })
      bytes += bytesOf(input->GetCellData()->GetArray(name));
  }
  return bytes;
}

// The output's arrays that are not the input's (passed by reference): what the filter wrote.
std::uint64_t bytesWritten(vtkPointSet* input, vtkPointSet* output)
{
  const std::vector<vtkDataArray*> inputArrays = allArrays(input);
  const std::set<vtkDataArray*> shared(inputArrays.begin(), inputArrays.end());
  std::set<vtkDataArray*> counted;
  std::uint64_t bytes = 0;
  for (vtkDataArray* array : allArrays(output))
  {
    if (array && !shared.count(array) && counted.insert(array).second)
      bytes += bytesOf(array);
  }
  return bytes;
}

// The fastest of a few single-threaded memcpy calls of `bytes` bytes between buffers already
// touched (no page faults timed): the floor a filter's host time is compared with.
double memcpyMilliseconds(std::uint64_t bytes)
{
  if (bytes == 0)
    return 0.0;
  std::unique_ptr<char[]> from(new char[bytes]);
  std::unique_ptr<char[]> to(new char[bytes]);
  std::memset(from.get(), 1, bytes);
  std::memset(to.get(), 2, bytes);
  double best = 0.0;
  for (int repeat = 0; repeat < 3; ++repeat)
  {
    const auto start = Clock::now();
    std::memcpy(to.get(), from.get(), bytes);
    const double elapsed = millisecondsSince(start);
    best = repeat == 0 ? elapsed : std::min(best, elapsed);
  }
  if (to[bytes - 1] != 1)
    throw std::runtime_error("memcpy check failed");
  return best;
}

// ---- One run -------------------------------------------------------------------------------

struct Run
{
  double wallMs = 0.0;
  vtkSmartPointer<vtkPointSet> output;
  std::string error;
};

void recordError(vtkObject*, unsigned long, void* clientData, void* callData)
{
  auto* error = static_cast<std::string*>(clientData);
  if (error->empty())
    *error = callData ? static_cast<const char*>(callData) : "unknown VTK error";
}

Run runFilter(const FilterCase& filter, const Options& options, vtkPointSet* input, bool tetrahedra)
{
  Run run;
  vtkNew<vtkCallbackCommand> onError;
  onError->SetCallback(recordError);
  onError->SetClientData(&run.error);

  const auto start = Clock::now();
  vtkSmartPointer<vtkAlgorithm> algorithm = filter.make(options, tetrahedra);
  algorithm->AddObserver(vtkCommand::ErrorEvent, onError);
  algorithm->SetInputDataObject(0, input);
  algorithm->Update();
  run.output = vtkPointSet::SafeDownCast(algorithm->GetOutputDataObject(0));
  run.wallMs = millisecondsSince(start);

  if (run.error.empty() && (!run.output || run.output->GetNumberOfCells() == 0))
    run.error = "the filter produced an empty output";
  return run;
}

// ---- Output --------------------------------------------------------------------------------

std::string jsonString(const std::string& text)
{
  std::ostringstream out;
  out << '"';
  for (const char c : text)
  {
    if (c == '"' || c == '\\')
      out << '\\' << c;
    else if (static_cast<unsigned char>(c) < 0x20)
      out << "\\u" << std::hex << std::setw(4) << std::setfill('0') << int(c) << std::dec;
    else
      out << c;
  }
  out << '"';
  return out.str();
}

// JSON fields in insertion order; numbers that are NaN become null.
class JsonLine
{
public:
  void text(const std::string& key, const std::string& value) { add(key, jsonString(value)); }
  void number(const std::string& key, double value)
  {
    std::ostringstream out;
    out << std::setprecision(10) << value;
    add(key, std::isfinite(value) ? out.str() : "null");
  }
  void count(const std::string& key, std::uint64_t value) { add(key, std::to_string(value)); }
  void boolean(const std::string& key, bool value) { add(key, value ? "true" : "false"); }
  std::string str() const { return "{" + Body + "}"; }

private:
  void add(const std::string& key, const std::string& value)
  {
    Body += (Body.empty() ? "" : ", ") + jsonString(key) + ": " + value;
  }
  std::string Body;
};

// A 64-bit hash of the output's geometry: each point's coordinates as doubles (their bits), then
// each cell's size and point ids, every value mixed in as one 64-bit word (FNV-1a's step on words).
// Two devices gave the same output exactly when their hashes agree (GPU Decimation's promise).
std::string outputHash(vtkPointSet* output)
{
  std::uint64_t h = 14695981039346656037ull;
  const auto mix = [&h](std::uint64_t word) {
    h ^= word;
    h *= 1099511628211ull;
  };
  vtkPoints* points = output->GetPoints();
  const vtkIdType n = points ? points->GetNumberOfPoints() : 0;
  mix(static_cast<std::uint64_t>(n));
  for (vtkIdType i = 0; i < n; ++i)
  {
    double x[3];
    points->GetPoint(i, x);
    for (double c : x)
    {
      std::uint64_t bits;
      std::memcpy(&bits, &c, sizeof bits);
      mix(bits);
    }
  }
  vtkCellArray* cells = nullptr;
  if (auto* poly = vtkPolyData::SafeDownCast(output))
    cells = poly->GetNumberOfPolys() == poly->GetNumberOfCells() ? poly->GetPolys() : nullptr;
  else if (auto* grid = vtkUnstructuredGrid::SafeDownCast(output))
    cells = grid->GetCells();
  if (!cells)
    return "n/a";
  mix(static_cast<std::uint64_t>(cells->GetNumberOfCells()));
  vtkIdType size = 0;
  const vtkIdType* ids = nullptr;
  for (vtkIdType c = 0; c < cells->GetNumberOfCells(); ++c)
  {
    cells->GetCellAtId(c, size, ids);
    mix(static_cast<std::uint64_t>(size));
    for (vtkIdType k = 0; k < size; ++k)
      mix(static_cast<std::uint64_t>(ids[k]));
  }
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h));
  return text;
}

double fieldNumber(vtkPointSet* output, const char* name)
{
  vtkDataArray* array = output ? output->GetFieldData()->GetArray(name) : nullptr;
  return array ? array->GetTuple1(0) : std::nan("");
}

std::string fieldText(vtkPointSet* output, const char* name)
{
  auto* array = output ? vtkStringArray::SafeDownCast(output->GetFieldData()->GetAbstractArray(name)) : nullptr;
  return array && array->GetNumberOfValues() ? array->GetValue(0) : std::string();
}

std::string cpuModel()
{
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
  {
    if (line.rfind("model name", 0) == 0)
    {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(line.find_first_not_of(' ', colon + 1));
    }
  }
  return "unknown";
}

// The 1-minute load average: other work on the machine shows in the timings.
double loadAverage()
{
  std::ifstream loadavg("/proc/loadavg");
  double load = std::nan("");
  loadavg >> load;
  return load;
}

std::string utcNow()
{
  const std::time_t now = std::time(nullptr);
  char text[32];
  std::strftime(text, sizeof(text), "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  return text;
}

// ---- Command line --------------------------------------------------------------------------

void printList()
{
  std::cout << "Filters (--filter):\n";
  for (const auto& filter : filterCases())
    std::cout << "  " << std::left << std::setw(24) << filter.name << filter.description
              << (filter.trianglesOnly ? " [triangle meshes]" : filter.polydataOnly ? " [polydata meshes]" : "")
              << "\n";
  std::cout << "Meshes (--mesh):\n";
  for (const auto& kind : meshKinds())
    std::cout << "  " << std::left << std::setw(24) << kind.name << kind.description << "\n";
}

const char* usage =
  "usage: gpumesh-filter-benchmark --filter NAME --mesh NAME --cells N [--device SPEC]\n"
  "         [--warmup full|small|none] [--marked-fraction F] [--fan-degree D]\n"
  "         [--point-type float|double] [--id-type 32|64] [--mesh-cache DIR]\n"
  "         [--cell-arrays none|three]\n"
  "       gpumesh-filter-benchmark --list | --devices\n"
  "--warmup: full (default) runs the filter once on an identical input first (its wall time is\n"
  "reported as warmup_wall_ms: a first run in a process), small on a mesh of the same kind with\n"
  "min(N, 100000) cells (compiles the kernels, but buffers sized for the input are then first\n"
  "made in the timed run), none not at all.\n"
  "--mesh-cache: keep generated meshes in DIR (an existing folder) and read them back there.\n"
  "--cell-arrays three: the input carries an int, a float and a 3-component double cell array.\n";

template <typename Number>
Number numberOf(const std::string& option, const std::string& value, Number (*convert)(const std::string&, std::size_t*, int))
{
  std::size_t used = 0;
  try
  {
    const Number number = convert(value, &used, 10);
    if (used == value.size())
      return number;
  }
  catch (const std::logic_error&)
  {
  }
  throw std::invalid_argument(option + " needs a whole number, not '" + value + "'");
}

double realOf(const std::string& option, const std::string& value)
{
  std::size_t used = 0;
  try
  {
    const double number = std::stod(value, &used);
    if (used == value.size())
      return number;
  }
  catch (const std::logic_error&)
  {
  }
  throw std::invalid_argument(option + " needs a number, not '" + value + "'");
}

Options parse(int argc, char* argv[])
{
  Options options;
  for (int i = 1; i < argc; ++i)
  {
    const std::string argument = argv[i];
    if (i + 1 >= argc)
      throw std::invalid_argument("missing value after " + argument + "\n" + usage);
    const std::string value = argv[++i];
    if (argument == "--filter")
      options.filter = value;
    else if (argument == "--mesh")
      options.mesh = value;
    else if (argument == "--cells")
      options.cells = numberOf<unsigned long long>(argument, value, std::stoull);
    else if (argument == "--device")
      options.device = value;
    else if (argument == "--warmup")
      options.warmup = value;
    else if (argument == "--marked-fraction")
      options.markedFraction = realOf(argument, value);
    else if (argument == "--fan-degree")
      options.fanDegree = numberOf<int>(argument, value, std::stoi);
    else if (argument == "--point-type")
      options.pointType = value;
    else if (argument == "--id-type")
      options.idBits = numberOf<int>(argument, value, std::stoi);
    else if (argument == "--mesh-cache")
      options.meshCache = value;
    else if (argument == "--cell-arrays")
      options.cellArrays = value;
    else
      throw std::invalid_argument("unknown option " + argument + "\n" + usage);
  }
  if (options.filter.empty() || options.mesh.empty() || options.cells == 0)
    throw std::invalid_argument(std::string("--filter, --mesh and --cells (> 0) are required\n") + usage);
  if (options.warmup != "small" && options.warmup != "full" && options.warmup != "none")
    throw std::invalid_argument("--warmup must be small, full or none, not '" + options.warmup + "'");
  if (options.pointType != "float" && options.pointType != "double")
    throw std::invalid_argument("--point-type must be float or double, not '" + options.pointType + "'");
  if (options.cellArrays != "none" && options.cellArrays != "three")
    throw std::invalid_argument("--cell-arrays must be none or three, not '" + options.cellArrays + "'");
  if (options.idBits != 32 && options.idBits != 64)
    throw std::invalid_argument("--id-type must be 32 or 64");
  if (!(options.markedFraction > 0.0 && options.markedFraction <= 1.0))
    throw std::invalid_argument("--marked-fraction must be in (0, 1]");
  if (options.fanDegree < 3)
    throw std::invalid_argument("--fan-degree must be at least 3");
  return options;
}

vtkSmartPointer<vtkPointSet> benchmarkInput(const Options& options, const FilterCase& filter, std::size_t cells)
{
  vtkSmartPointer<vtkPointSet> input = generateMesh(options, cells);
  for (const auto& name : filter.arraysRead)
  {
    if (name == "Mark")
      input->GetCellData()->AddArray(markArray(input->GetNumberOfCells(), options.markedFraction));
  }
  if (options.cellArrays == "three")
  {
    for (const auto& array : carriedCellArrays(input->GetNumberOfCells()))
      input->GetCellData()->AddArray(array);
  }
  return input;
}

int benchmark(const Options& options)
{
  const FilterCase& filter = filterCase(options.filter);
  const MeshKind& kind = meshKind(options.mesh);
  if (kind.tetrahedra && (filter.polydataOnly || filter.trianglesOnly))
    throw std::invalid_argument(filter.name + " does not run on " + kind.name);

  const auto generationStart = Clock::now();
  vtkSmartPointer<vtkPointSet> input = benchmarkInput(options, filter, options.cells);
  const double generationMs = millisecondsSince(generationStart);

  // The warm-up gets an input of its own (a deep copy, made while the input is untouched):
  // a dataset caches what filters ask of it (cell maps, links), and a user's input arrives
  // without them.
  double warmupMs = std::nan("");
  if (options.warmup != "none")
  {
    vtkSmartPointer<vtkPointSet> warmupInput;
    if (options.warmup == "full")
    {
      warmupInput.TakeReference(input->NewInstance());
      warmupInput->DeepCopy(input);
    }
    else
      warmupInput = benchmarkInput(options, filter, std::min<std::size_t>(options.cells, 100000));
    const Run warmup = runFilter(filter, options, warmupInput, kind.tetrahedra);
    if (!warmup.error.empty())
    {
      std::cerr << "warm-up run of " << filter.name << " failed: " << warmup.error << "\n";
      return 1;
    }
    warmupMs = warmup.wallMs;
  }

  Run run = runFilter(filter, options, input, kind.tetrahedra);
  if (!run.error.empty())
  {
    std::cerr << filter.name << " on " << kind.name << " failed: " << run.error << "\n";
    return 1;
  }
  vtkPointSet* output = run.output;

  // The filter's own accounting must fit inside the wall time measured around it.
  if (filter.gpu)
  {
    const double kernel = fieldNumber(output, "KernelTimeMs"), host = fieldNumber(output, "HostTimeMs");
    if (!(kernel >= 0.0 && host >= 0.0 && kernel + host <= run.wallMs))
    {
      std::cerr << filter.name << ": field data KernelTimeMs " << kernel << " + HostTimeMs " << host
                << " does not fit in the wall time " << run.wallMs << " ms\n";
      return 1;
    }
  }

  const std::uint64_t read = bytesRead(input, filter);
  const std::uint64_t written = bytesWritten(input, output);
  const double kernelMs = filter.gpu ? fieldNumber(output, "KernelTimeMs") : 0.0;
  const double hostMs = run.wallMs - kernelMs;

  JsonLine line;
  line.text("filter", filter.name);
  line.text("mesh", kind.name);
  line.count("cells_requested", options.cells);
  line.count("input_points", static_cast<std::uint64_t>(input->GetNumberOfPoints()));
  line.count("input_cells", static_cast<std::uint64_t>(input->GetNumberOfCells()));
  line.count("output_points", static_cast<std::uint64_t>(output->GetNumberOfPoints()));
  line.count("output_cells", static_cast<std::uint64_t>(output->GetNumberOfCells()));
  line.text("output_hash", outputHash(output));
  line.text("point_type", options.pointType);
  line.count("id_bits", static_cast<std::uint64_t>(options.idBits));
  line.text("cell_arrays", options.cellArrays);
  if (filter.name == "gpu-refinement-marked")
    line.number("marked_fraction", options.markedFraction);
  if (kind.fan)
    line.count("fan_degree", static_cast<std::uint64_t>(options.fanDegree));
  line.text("device", filter.gpu ? fieldText(output, "Device") : "CPU (VTK)");
  line.text("precision", filter.gpu ? fieldText(output, "Precision") : options.pointType);
  line.text("smp_backend", vtkSMPTools::GetBackend());
  line.count("smp_threads", static_cast<std::uint64_t>(vtkSMPTools::GetEstimatedNumberOfThreads()));
  line.text("cpu", cpuModel());
  line.count("hardware_threads", std::thread::hardware_concurrency());
  line.text("date", utcNow());
  line.number("load_average", loadAverage());
  line.text("warmup", options.warmup);
  line.number("warmup_wall_ms", warmupMs);
  line.number("generation_ms", generationMs);
  line.number("wall_ms", run.wallMs);
  line.number("kernel_ms", kernelMs);
  line.number("host_ms", hostMs);
  line.number("filter_host_ms", filter.gpu ? fieldNumber(output, "HostTimeMs") : std::nan(""));
  if (filter.steps > 0)
  {
    // Device time of one Jacobi step: comparable between a built-in and a user-written kernel.
    double stepMs = 0.0;
    vtkFieldData* fields = output->GetFieldData();
    for (int a = 0; a < fields->GetNumberOfArrays(); ++a)
    {
      const char* name = fields->GetArrayName(a);
      if (name && std::string(name).rfind(filter.stepKernelPrefix, 0) == 0)
        stepMs += fields->GetArray(a)->GetTuple1(0);
    }
    line.number("step_kernel_ms", stepMs / filter.steps);
  }
  // The programs the timed run built or loaded (with --warmup none, a first use's builds).
  line.number("program_build_ms", filter.gpu ? fieldNumber(output, "ProgramBuildTimeMs") : std::nan(""));
  line.number("programs_built", filter.gpu ? fieldNumber(output, "ProgramsBuilt") : std::nan(""));
  line.number(
    "programs_from_binary_cache", filter.gpu ? fieldNumber(output, "ProgramsFromBinaryCache") : std::nan(""));
  line.number(
    "programs_built_on_demand", filter.gpu ? fieldNumber(output, "ProgramsBuiltOnDemand") : std::nan(""));
  line.number("upload_ms", filter.gpu ? fieldNumber(output, "UploadTimeMs") : std::nan(""));
  line.number("download_ms", filter.gpu ? fieldNumber(output, "DownloadTimeMs") : std::nan(""));
  line.number("bytes_uploaded", filter.gpu ? fieldNumber(output, "BytesUploaded") : std::nan(""));
  line.number("bytes_downloaded", filter.gpu ? fieldNumber(output, "BytesDownloaded") : std::nan(""));
  if (filter.gpu) // the device time of each step the filter reports (KernelTimeMs_<step>)
  {
    vtkFieldData* fields = output->GetFieldData();
    const std::string prefix = "KernelTimeMs_";
    for (int i = 0; i < fields->GetNumberOfArrays(); ++i)
    {
      const char* name = fields->GetArrayName(i);
      if (name && std::string(name).rfind(prefix, 0) == 0)
        line.number("kernel_ms_" + std::string(name).substr(prefix.size()), fieldNumber(output, name));
      // Host steps a filter times apart (HostTimeMs_<step>).
      if (name && std::string(name).rfind("HostTimeMs_", 0) == 0)
        line.number("host_ms_" + std::string(name).substr(11), fieldNumber(output, name));
    }
  }
  line.count("bytes_read", read);
  line.count("bytes_written", written);

  // The floor, measured with the output released so that both fit in memory.
  run.output = nullptr;
  const double copyMs = memcpyMilliseconds(read + written);
  line.number("memcpy_ms", copyMs);
  line.number("memcpy_gb_per_s", copyMs > 0.0 ? static_cast<double>(read + written) / copyMs / 1e6 : std::nan(""));
  line.number("host_over_memcpy", copyMs > 0.0 ? hostMs / copyMs : std::nan(""));
  std::cout << line.str() << std::endl;
  return 0;
}

} // namespace

int main(int argc, char* argv[])
{
  // Before any VTK call: Debian's VTK runs vtkSMPTools sequentially without this.
  setenv("VTK_SMP_BACKEND_IN_USE", "STDThread", /*overwrite=*/0);
  try
  {
    if (argc == 2 && std::string(argv[1]) == "--list")
    {
      printList();
      return 0;
    }
    if (argc == 2 && std::string(argv[1]) == "--devices")
    {
      vtkNew<vtkGPUCellReduction> filter;
      vtkStringArray* devices = filter->GetAvailableDevices();
      for (vtkIdType d = 0; d < devices->GetNumberOfValues(); ++d)
        std::cout << devices->GetValue(d) << "\n";
      return 0;
    }
    if (argc == 2 && (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h"))
    {
      std::cout << usage;
      return 0;
    }
    return benchmark(parse(argc, argv));
  }
  catch (const std::exception& error)
  {
    std::cerr << "gpumesh-filter-benchmark: " << error.what() << "\n";
    return 2;
  }
}
