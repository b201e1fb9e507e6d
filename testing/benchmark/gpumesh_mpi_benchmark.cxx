// One GPUMesh filter under MPI, one device per process, as a distributed application runs it:
// every process generates its own piece of one global triangle grid (rows of squares split by
// rank; the points of a cut row are on both processes) with global point ids, so the filters
// generate none, and runs the filter on it with Device='auto' (the processes of a node take
// different GPUs). A warm-up run comes first (context creation, kernel compilation), then
// --runs timed runs, each between barriers. Rank 0 prints one JSON line per timed run: the wall
// time of the slowest process, the filters' own times and exchange (maximum and sum over
// processes), every process's device, and a checksum that does not depend on the number of
// processes, so that runs with 1 and N processes can be compared (run_mpi_benchmarks.sh):
//
//   cell-reduction      Count (exact) and Sum of the cell areas (the filter's global results)
//   neighbor-distance   total NeighborCount (exact), sum of MeanNeighborDistance
//   vertex-smoothing    10 Laplacian iterations: sum of x + y + z of the smoothed points, each
//                       point counted once (a cut row belongs to the lower rank)
//   refinement-marked   0.1% of the cells marked (a hash of the global cell id): cells out
//   refinement-all      every cell refined: cells out
//   mesh-kernel         one Laplacian step written by the user (GPU Mesh Kernel, Points): as
//                       vertex-smoothing
//
// Each line also holds "closed_form": what the generated mesh fixes whatever the partition
// (closedForm below: the total area of the output's cells, and counts where they are fixed),
// with "ok", so a run too large for one process (a billion triangles) is still checked.
//
// With --tetrahedra instead of --triangles, the mesh is a box of jittered cubes of six
// tetrahedra each (as MeshGenerators.h's tetrahedronBox), split by layers of cubes, as a
// vtkUnstructuredGrid; cell-reduction then sums volumes, and the refinement refines tetrahedra.
//
// Without --reexecute, every run is a new filter on a new input, what a time step of a
// distributed simulation costs: the piece's arrays are marked modified before each run, so
// nothing computed from them earlier (VTK's cached ranges included) is reused.
// With --reexecute, every run re-executes one filter made for the warm-up (Modified(), as a
// property change in ParaView does) on the same input, instead of a new filter: Neighbor
// Distance, Vertex Smoothing and GPU Mesh Kernel then reuse the ghosted piece of the warm-up
// (the JSON's ghosted_piece_reused_processes counts the processes that did).
//
// Each line holds the slowest and the summed CPU time (user + system, all threads) of the
// processes during the filter (cpu_ms_max, cpu_ms_sum) and the machine's 1-minute load average
// (load_average): on a shared machine, wall times move with others' work; CPU time much less.
//
// With --phases, each line also holds every process's time in each phase the filters mark in
// vtkTimerLog ("GPUMesh: ..."; nested phases are inside their parents' times).
//
//   mpirun -np N gpumesh-mpi-benchmark --filter NAME (--triangles T | --tetrahedra T) [--runs R]
//       [--device SPEC] [--point-type float|double] [--reexecute] [--phases]
#include "vtkGPUCellReduction.h"
#include "vtkGPULongestEdgeRefinement.h"
#include "vtkGPUMeshKernel.h"
#include "vtkGPUNeighborDistance.h"
#include "vtkGPUVertexSmoothing.h"

#include "vtkCallbackCommand.h"
#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkCommand.h"
#include "vtkCommunicator.h"
#include "vtkDataArray.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkIdTypeArray.h"
#include "vtkMPIController.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkSMPThreadLocal.h"
#include "vtkSMPTools.h"
#include "vtkSmartPointer.h"
#include "vtkStringArray.h"
#include "vtkTimerLog.h"
#include "vtkUnstructuredGrid.h"

#include <chrono>
#include <sys/resource.h>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iomanip>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace
{
using Clock = std::chrono::steady_clock;

struct Options
{
  std::string filter;
  long long triangles = 0; // or tetrahedra, when `tetrahedra`
  bool tetrahedra = false;
  int runs = 1;
  std::string device = "auto";
  bool doublePoints = false;
  bool reexecute = false;
  bool phases = false;
};

// splitmix64: a point's jitter and a cell's mark depend on its global id alone, so every
// process generates the same values for the same point or cell, whatever the partition.
std::uint64_t mix(std::uint64_t x)
{
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

double unitInterval(std::uint64_t bits)
{
  return static_cast<double>(bits >> 11) * (1.0 / 9007199254740992.0);
}

/// The piece of rank `rank` of an n x n grid of jittered squares split along alternating
/// diagonals (as MeshGenerators.h's triangleGrid): square rows [first, last) and point rows
/// [first, last]. The cell array Mark is 1 on 0.1% of the cells (a hash of the global cell id),
/// in the tetrahedron box too.
struct Piece
{
  vtkSmartPointer<vtkPointSet> mesh;
  long long n = 0;
  long long firstRow = 0, lastRow = 0;
  long long ownedPoints = 0; // the first ownedPoints points (the last rank owns its top row too)
};

// The arrays of one generated piece: points (float or double) with their global ids, cells of
// one size, and the "Mark" cell array; attach() gives them to the piece's dataset.
struct PieceArrays
{
  vtkSmartPointer<vtkDataArray> xyz;
  vtkNew<vtkIdTypeArray> globalIds;
  vtkNew<vtkIdTypeArray> offsets;
  vtkNew<vtkIdTypeArray> connectivity;
  vtkNew<vtkFloatArray> marks;

  PieceArrays(long long pointCount, bool doublePoints)
  {
    if (doublePoints)
      xyz = vtkSmartPointer<vtkDoubleArray>::New();
    else
      xyz = vtkSmartPointer<vtkFloatArray>::New();
    xyz->SetNumberOfComponents(3);
    xyz->SetNumberOfTuples(pointCount);
    globalIds->SetName("GlobalPointIds");
    globalIds->SetNumberOfTuples(pointCount);
  }

  void allocateCells(long long cellCount, int verticesPerCell)
  {
    offsets->SetNumberOfTuples(cellCount + 1);
    vtkIdType* first = offsets->GetPointer(0);
    vtkSMPTools::For(0, cellCount + 1, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType c = begin; c < end; ++c)
        first[c] = verticesPerCell * c;
    });
    connectivity->SetNumberOfTuples(verticesPerCell * cellCount);
    marks->SetName("Mark");
    marks->SetNumberOfTuples(cellCount);
  }

  /// Sets `rows` rows of `perRow` points on all threads: point(row, i, xyz) writes the i-th
  /// point of a row and returns its global id.
  template <typename Point>
  void fillPoints(long long rows, long long perRow, Point point)
  {
    vtkIdType* ids = globalIds->GetPointer(0);
    const auto fill = [&](auto* out) {
      vtkSMPTools::For(0, rows, [&](long long first, long long last) {
        for (long long row = first; row < last; ++row)
          for (long long i = 0; i < perRow; ++i)
          {
            const long long local = row * perRow + i;
            double x[3];
            ids[local] = point(row, i, x);
            for (int k = 0; k < 3; ++k)
              out[3 * local + k] = static_cast<std::remove_pointer_t<decltype(out)>>(x[k]);
          }
      });
    };
    if (auto* d = vtkDoubleArray::SafeDownCast(xyz))
      fill(d->GetPointer(0));
    else
      fill(vtkFloatArray::SafeDownCast(xyz)->GetPointer(0));
  }

  /// Sets the points, global ids and marks on `mesh`; returns the cells for it to take.
  vtkSmartPointer<vtkCellArray> attach(vtkPointSet* mesh)
  {
    vtkNew<vtkPoints> points;
    points->SetData(xyz);
    mesh->SetPoints(points);
    mesh->GetPointData()->SetGlobalIds(globalIds);
    mesh->GetCellData()->AddArray(marks);
    auto cells = vtkSmartPointer<vtkCellArray>::New();
    cells->SetData(offsets, connectivity);
    return cells;
  }
};

Piece generatePiece(long long triangles, int rank, int processes, bool doublePoints)
{
  Piece piece;
  const long long n = static_cast<long long>(std::ceil(std::sqrt(triangles / 2.0)));
  piece.n = n;
  piece.firstRow = n * rank / processes;
  piece.lastRow = n * (rank + 1) / processes;
  const long long pointRows = piece.lastRow - piece.firstRow + 1;
  const long long pointCount = pointRows * (n + 1);
  piece.ownedPoints = (rank == processes - 1 ? pointRows : pointRows - 1) * (n + 1);

  PieceArrays arrays(pointCount, doublePoints);
  arrays.fillPoints(pointRows, n + 1, [&](long long row, long long i, double xyz[3]) {
    const long long j = piece.firstRow + row;
    const long long id = j * (n + 1) + i;
    const bool inside = i > 0 && j > 0 && i < n && j < n;
    const std::uint64_t bits = mix(static_cast<std::uint64_t>(id));
    xyz[0] = double(i) + (inside ? 0.5 * unitInterval(bits) - 0.25 : 0.0);
    xyz[1] = double(j) + (inside ? 0.5 * unitInterval(mix(bits)) - 0.25 : 0.0);
    xyz[2] = 0.0;
    return id;
  });

  const long long cellCount = 2 * n * (piece.lastRow - piece.firstRow);
  arrays.allocateCells(cellCount, 3);
  float* marks = arrays.marks->GetPointer(0);
  vtkIdType* connectivity = arrays.connectivity->GetPointer(0);
  const auto local = [&](long long i, long long j) { return (j - piece.firstRow) * (n + 1) + i; };
  vtkSMPTools::For(piece.firstRow, piece.lastRow, [&](long long firstRow, long long lastRow) {
    for (long long j = firstRow; j < lastRow; ++j)
      for (long long i = 0; i < n; ++i)
      {
        const long long square = (j - piece.firstRow) * n + i;
        const vtkIdType a = local(i, j), b = local(i + 1, j), cc = local(i + 1, j + 1), d = local(i, j + 1);
        const vtkIdType corners[6] = { a, b, cc, a, cc, d };
        const vtkIdType other[6] = { a, b, d, b, cc, d };
        std::memcpy(connectivity + 6 * square, (i + j) % 2 == 0 ? corners : other, sizeof corners);
        for (int t = 0; t < 2; ++t)
        {
          const long long globalCell = 2 * (j * n + i) + t;
          marks[2 * square + t] = mix(static_cast<std::uint64_t>(globalCell) ^ 0x5bd1e995ull) % 1000 == 0 ? 1.0f : 0.0f;
        }
      }
  });
  auto polydata = vtkSmartPointer<vtkPolyData>::New();
  polydata->SetPolys(arrays.attach(polydata));
  piece.mesh = polydata;
  return piece;
}

/// The piece of rank `rank` of an n^3 box of jittered cubes of six tetrahedra: cube layers
/// [first, last) and point layers [first, last].
Piece generateTetrahedronPiece(long long tetrahedra, int rank, int processes, bool doublePoints)
{
  Piece piece;
  const long long n = static_cast<long long>(std::ceil(std::cbrt(tetrahedra / 6.0)));
  piece.n = n;
  piece.firstRow = n * rank / processes;
  piece.lastRow = n * (rank + 1) / processes;
  const long long layerPoints = (n + 1) * (n + 1);
  const long long pointLayers = piece.lastRow - piece.firstRow + 1;
  const long long pointCount = pointLayers * layerPoints;
  piece.ownedPoints = (rank == processes - 1 ? pointLayers : pointLayers - 1) * layerPoints;

  PieceArrays arrays(pointCount, doublePoints);
  arrays.fillPoints(pointLayers * (n + 1), n + 1, [&](long long row, long long i, double xyz[3]) {
    const long long k = piece.firstRow + row / (n + 1), j = row % (n + 1);
    const long long id = (k * (n + 1) + j) * (n + 1) + i;
    const bool inside = i > 0 && j > 0 && k > 0 && i < n && j < n && k < n;
    const std::uint64_t a = mix(static_cast<std::uint64_t>(id)), b = mix(a), c = mix(b);
    const auto jitter = [inside](std::uint64_t bits) { return inside ? 0.4 * unitInterval(bits) - 0.2 : 0.0; };
    xyz[0] = double(i) + jitter(a);
    xyz[1] = double(j) + jitter(b);
    xyz[2] = double(k) + jitter(c);
    return id;
  });

  const long long cellCount = 6 * n * n * (piece.lastRow - piece.firstRow);
  arrays.allocateCells(cellCount, 4);
  float* marks = arrays.marks->GetPointer(0);
  const auto id = [&](long long i, long long j, long long k) { return ((k - piece.firstRow) * (n + 1) + j) * (n + 1) + i; };
  const int paths[6][2] = { { 1, 2 }, { 2, 3 }, { 3, 7 }, { 7, 4 }, { 4, 5 }, { 5, 1 } };
  vtkIdType* connectivity = arrays.connectivity->GetPointer(0);
  vtkSMPTools::For(piece.firstRow * n, piece.lastRow * n, [&](long long firstRow, long long lastRow) {
    for (long long row = firstRow; row < lastRow; ++row) // a row of cubes: layer k, row j
    {
      const long long k = row / n, j = row % n;
      vtkIdType* out = connectivity + 24 * n * (row - piece.firstRow * n);
      for (long long i = 0; i < n; ++i)
      {
        const vtkIdType v[8] = { id(i, j, k), id(i + 1, j, k), id(i + 1, j + 1, k), id(i, j + 1, k),
          id(i, j, k + 1), id(i + 1, j, k + 1), id(i + 1, j + 1, k + 1), id(i, j + 1, k + 1) };
        for (const auto& p : paths)
        {
          *out++ = v[0];
          *out++ = v[p[0]];
          *out++ = v[p[1]];
          *out++ = v[6];
        }
        // Marks as the triangles': 0.1% by a hash of the global cell id.
        const long long cube = (k * n + j) * n + i;
        for (int t = 0; t < 6; ++t)
        {
          const long long globalCell = 6 * cube + t;
          marks[6 * (n * (row - piece.firstRow * n) + i) + t] =
            mix(static_cast<std::uint64_t>(globalCell) ^ 0x5bd1e995ull) % 1000 == 0 ? 1.0f : 0.0f;
        }
      }
    }
  });
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetCells(VTK_TETRA, arrays.attach(grid));
  piece.mesh = grid;
  return piece;
}

vtkSmartPointer<vtkAlgorithm> makeFilter(const Options& options)
{
  if (options.filter == "cell-reduction")
  {
    auto filter = vtkSmartPointer<vtkGPUCellReduction>::New();
    filter->SetDevice(options.device.c_str());
    filter->SetQuantity(options.tetrahedra ? vtkGPUCellReduction::VOLUME : vtkGPUCellReduction::AREA);
    return filter;
  }
  if (options.filter == "neighbor-distance")
  {
    auto filter = vtkSmartPointer<vtkGPUNeighborDistance>::New();
    filter->SetDevice(options.device.c_str());
    return filter;
  }
  if (options.filter == "vertex-smoothing")
  {
    auto filter = vtkSmartPointer<vtkGPUVertexSmoothing>::New();
    filter->SetDevice(options.device.c_str());
    filter->SetMethod(vtkGPUVertexSmoothing::LAPLACIAN);
    filter->SetIterations(10);
    return filter;
  }
  if (options.filter == "refinement-marked")
  {
    auto filter = vtkSmartPointer<vtkGPULongestEdgeRefinement>::New();
    filter->SetDevice(options.device.c_str());
    filter->SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, "Mark");
    return filter;
  }
  if (options.filter == "refinement-all")
  {
    auto filter = vtkSmartPointer<vtkGPULongestEdgeRefinement>::New();
    filter->SetDevice(options.device.c_str());
    filter->SetRefineAll(true);
    return filter;
  }
  if (options.filter == "mesh-kernel")
  {
    auto filter = vtkSmartPointer<vtkGPUMeshKernel>::New();
    filter->SetDevice(options.device.c_str());
    filter->SetDomain(vtkGPUMeshKernel::POINTS);
    filter->SetResultArrayName("Points");
    filter->SetResultComponents(3);
    filter->SetKernel("REAL3 mean = 0;\n"
                      "for (int k = 0; k < neighbour_count; ++k)\n"
                      "  mean += neighbours_x(k);\n"
                      "result = neighbour_count > 0 ? x + 0.5 * (mean / neighbour_count - x) : x;");
    return filter;
  }
  throw std::runtime_error("unknown --filter '" + options.filter +
    "' (cell-reduction, neighbor-distance, vertex-smoothing, mesh-kernel, refinement-marked, refinement-all)");
}

void recordError(vtkObject*, unsigned long, void* clientData, void* callData)
{
  auto* error = static_cast<std::string*>(clientData);
  if (error->empty())
    *error = callData ? static_cast<const char*>(callData) : "unknown VTK error";
}

double fieldNumber(vtkDataObject* output, const char* name)
{
  vtkDataArray* array = output ? output->GetFieldData()->GetArray(name) : nullptr;
  return array ? array->GetTuple1(0) : 0.0;
}

std::string fieldText(vtkDataObject* output, const char* name)
{
  auto* array = output ? vtkStringArray::SafeDownCast(output->GetFieldData()->GetAbstractArray(name)) : nullptr;
  return array && array->GetNumberOfValues() ? array->GetValue(0) : std::string();
}

/// The checksum of this process's part, to be summed over processes (cell-reduction's values
/// are already global: only rank 0's count). [0] is an exact count, [1] a floating-point sum.
void pieceChecksum(const Options& options, const Piece& piece, vtkPointSet* output, int rank,
  long long& count, double& sum)
{
  count = 0;
  sum = 0.0;
  if (options.filter == "cell-reduction")
  {
    if (rank == 0)
    {
      count = static_cast<long long>(fieldNumber(output, "Count"));
      sum = fieldNumber(output, "Sum");
    }
  }
  else if (options.filter == "neighbor-distance")
  {
    vtkDataArray* neighbours = output->GetCellData()->GetArray("NeighborCount");
    vtkDataArray* mean = output->GetCellData()->GetArray("MeanNeighborDistance");
    if (!neighbours || !mean)
      throw std::runtime_error("the output has no NeighborCount or MeanNeighborDistance");
    for (vtkIdType c = 0; c < output->GetNumberOfCells(); ++c)
    {
      count += static_cast<long long>(neighbours->GetTuple1(c));
      const double value = mean->GetTuple1(c);
      if (std::isfinite(value))
        sum += value;
    }
  }
  else if (options.filter == "vertex-smoothing" || options.filter == "mesh-kernel")
  {
    vtkPoints* points = output->GetPoints();
    for (vtkIdType p = 0; p < piece.ownedPoints; ++p)
    {
      double x[3];
      points->GetPoint(p, x);
      sum += x[0] + x[1] + x[2];
    }
    count = piece.ownedPoints;
  }
  else
  {
    count = output->GetNumberOfCells();
  }
}

/// The sum over the cells of `output` of their signed areas in the xy plane (triangles: the grid's
/// are counterclockwise) or absolute volumes (tetrahedra: the generator's alternate in
/// orientation), in double on all threads.
double measureSum(vtkPointSet* output, bool tetrahedra)
{
  vtkCellArray* cells = nullptr;
  if (auto* poly = vtkPolyData::SafeDownCast(output))
    cells = poly->GetPolys();
  else if (auto* grid = vtkUnstructuredGrid::SafeDownCast(output))
    cells = grid->GetCells();
  if (!cells || !output->GetPoints())
    return 0.0;
  vtkSmartPointer<vtkDataArray> xyz = output->GetPoints()->GetData();
  vtkSMPThreadLocal<double> partial(0.0);
  const auto sum = [&](const auto* offsets, const auto* ids) {
    vtkSMPTools::For(0, cells->GetNumberOfCells(), [&](vtkIdType first, vtkIdType last) {
      double& local = partial.Local();
      double p[4][3];
      for (vtkIdType c = first; c < last; ++c)
      {
        const auto begin = offsets[c];
        for (int k = 0; k < (tetrahedra ? 4 : 3); ++k)
          xyz->GetTuple(static_cast<vtkIdType>(ids[begin + k]), p[k]);
        double e[3][3];
        for (int k = 0; k < 3; ++k)
          for (int d = 0; d < 3; ++d)
            e[k][d] = p[k + 1 < (tetrahedra ? 4 : 3) ? k + 1 : 0][d] - p[0][d];
        if (tetrahedra)
          local += std::abs(e[0][0] * (e[1][1] * e[2][2] - e[1][2] * e[2][1]) -
                     e[0][1] * (e[1][0] * e[2][2] - e[1][2] * e[2][0]) +
                     e[0][2] * (e[1][0] * e[2][1] - e[1][1] * e[2][0])) / 6.0;
        else
          local += 0.5 * (e[0][0] * e[1][1] - e[0][1] * e[1][0]);
      }
    });
  };
  if (cells->IsStorage64Bit())
    sum(cells->GetOffsetsArray64()->GetPointer(0), cells->GetConnectivityArray64()->GetPointer(0));
  else
    sum(cells->GetOffsetsArray32()->GetPointer(0), cells->GetConnectivityArray32()->GetPointer(0));
  double total = 0.0;
  for (double value : partial)
    total += value;
  return total;
}

/// What the generated mesh fixes whatever the partition, checked on the whole output without a
/// serial run (which a billion cells could not have): the grid is n x n squares (n^3 cubes)
/// with the outer points unjittered, so its cells' total area (volume) is n^2 (n^3) after any
/// interior motion and any refinement that keeps it a tiling; Cell Reduction's count and sum
/// are then 2n^2 (6n^3) and that total; smoothing (Boundary Fixed) and refinement keep the
/// total. A JSON object, or "null" for filters without one (Neighbor Distance, and Mesh Kernel
/// whose Laplacian step moves the boundary).
std::string closedForm(const Options& options, const Piece& piece, vtkPointSet* output,
  vtkMultiProcessController* controller, long long totalCount, double totalSum)
{
  const double n = static_cast<double>(piece.n);
  const double measure = options.tetrahedra ? n * n * n : n * n;
  double expectedCount = -1.0, count = -1.0, expectedSum = measure, sum = 0.0;
  if (options.filter == "cell-reduction")
  {
    expectedCount = options.tetrahedra ? 6.0 * n * n * n : 2.0 * n * n;
    count = static_cast<double>(totalCount);
    sum = totalSum;
  }
  else if (options.filter == "vertex-smoothing" || options.filter.rfind("refinement", 0) == 0)
  {
    if (options.filter == "vertex-smoothing")
    {
      expectedCount = options.tetrahedra ? (n + 1) * (n + 1) * (n + 1) : (n + 1) * (n + 1);
      count = static_cast<double>(totalCount);
    }
    const double mine = measureSum(output, options.tetrahedra);
    controller->AllReduce(&mine, &sum, 1, vtkCommunicator::SUM_OP);
  }
  else
  {
    return "null";
  }
  const bool ok = count == expectedCount && std::abs(sum - expectedSum) <= 1e-6 * expectedSum;
  std::ostringstream json;
  json << std::setprecision(15) << "{\"count\": " << (count < 0 ? std::string("null") : std::to_string(static_cast<long long>(count)))
       << ", \"expected_count\": " << (expectedCount < 0 ? std::string("null") : std::to_string(static_cast<long long>(expectedCount)))
       << ", \"measure\": " << sum << ", \"expected_measure\": " << expectedSum << ", \"ok\": "
       << (ok ? "true" : "false") << "}";
  return json.str();
}

std::string jsonString(const std::string& text)
{
  std::string out = "\"";
  for (const char c : text)
    out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

// The phases vtkTimerLog recorded since its last reset as a JSON object of milliseconds (a
// phase entered more than once: the sum).
std::string phaseTimes()
{
  std::map<std::string, double> total;
  std::vector<std::pair<std::string, double>> open;
  for (int e = 0; e < vtkTimerLog::GetNumberOfEvents(); ++e)
  {
    const std::string name = vtkTimerLog::GetEventString(e);
    const double at = vtkTimerLog::GetEventWallTime(e);
    if (vtkTimerLog::GetEventType(e) == vtkTimerLogEntry::START)
      open.emplace_back(name, at);
    else if (vtkTimerLog::GetEventType(e) == vtkTimerLogEntry::END)
    {
      for (auto it = open.rbegin(); it != open.rend(); ++it)
      {
        if (it->first == name)
        {
          total[name] += 1000.0 * (at - it->second);
          open.erase(std::next(it).base());
          break;
        }
      }
    }
  }
  std::ostringstream json;
  json << std::setprecision(6) << "{";
  bool first = true;
  for (const auto& [name, ms] : total)
  {
    json << (first ? "" : ", ") << "\"" << name << "\": " << ms;
    first = false;
  }
  json << "}";
  return json.str();
}

// User and system CPU time of this process so far (all its threads), in milliseconds: what a
// run cost the machine's cores, which a shared machine's load does not inflate as it does wall time.
double processCpuMs()
{
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec * 1e-3; };
  return ms(usage.ru_utime) + ms(usage.ru_stime);
}

// The machine's 1-minute load average (-1 where /proc/loadavg cannot be read).
double loadAverage()
{
  double load = -1.0;
  if (FILE* file = std::fopen("/proc/loadavg", "r"))
  {
    if (std::fscanf(file, "%lf", &load) != 1)
      load = -1.0;
    std::fclose(file);
  }
  return load;
}

int run(const Options& options, vtkMultiProcessController* controller)
{
  const int rank = controller->GetLocalProcessId();
  const int processes = controller->GetNumberOfProcesses();
  const auto generateStart = Clock::now();
  const Piece piece = options.tetrahedra
    ? generateTetrahedronPiece(options.triangles, rank, processes, options.doublePoints)
    : generatePiece(options.triangles, rank, processes, options.doublePoints);
  const double generateMs = std::chrono::duration<double, std::milli>(Clock::now() - generateStart).count();

  vtkSmartPointer<vtkAlgorithm> kept; // --reexecute: the one filter of every run
  for (int r = -1; r < options.runs; ++r) // r = -1: the warm-up
  {
    std::string error;
    vtkNew<vtkCallbackCommand> onError;
    onError->SetCallback(recordError);
    onError->SetClientData(&error);

    if (!options.reexecute)
    {
      piece.mesh->GetPoints()->GetData()->Modified();
      piece.mesh->GetPoints()->Modified();
      piece.mesh->Modified();
    }
    if (options.phases)
    {
      vtkTimerLog::SetMaxEntries(100000);
      vtkTimerLog::LoggingOn();
      vtkTimerLog::ResetLog();
    }
    controller->Barrier();
    const double cpuStart = processCpuMs();
    const auto start = Clock::now();
    vtkSmartPointer<vtkAlgorithm> filter = kept ? kept : makeFilter(options);
    if (options.reexecute)
    {
      kept = filter;
      filter->RemoveObservers(vtkCommand::ErrorEvent); // the last run's, recording into its string
      filter->Modified();
    }
    filter->AddObserver(vtkCommand::ErrorEvent, onError);
    filter->SetInputDataObject(0, piece.mesh);
    filter->Update();
    const double localMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    const double cpuMs = processCpuMs() - cpuStart;
    controller->Barrier();
    const double barrierMs = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    auto* output = vtkPointSet::SafeDownCast(filter->GetOutputDataObject(0));

    long long failed = (!error.empty() || !output) ? 1 : 0;
    long long anyFailed = 0;
    controller->AllReduce(&failed, &anyFailed, 1, vtkCommunicator::SUM_OP);
    if (anyFailed)
    {
      if (!error.empty())
        std::fprintf(stderr, "rank %d: %s\n", rank, error.c_str());
      return 1;
    }

    long long count = 0, totalCount = 0;
    double sum = 0.0, totalSum = 0.0;
    pieceChecksum(options, piece, output, rank, count, sum);
    controller->AllReduce(&count, &totalCount, 1, vtkCommunicator::SUM_OP);
    controller->AllReduce(&sum, &totalSum, 1, vtkCommunicator::SUM_OP);
    const std::string closed = closedForm(options, piece, output, controller, totalCount, totalSum);

    // Per process: wall, kernel, host, halo bytes, bytes up, bytes down, ghosted piece reused,
    // its build time and bytes, CPU time.
    constexpr int fields = 10;
    const double mine[fields] = { localMs, fieldNumber(output, "KernelTimeMs"), fieldNumber(output, "HostTimeMs"),
      fieldNumber(output, "HaloBytesExchanged"), fieldNumber(output, "BytesUploaded"),
      fieldNumber(output, "BytesDownloaded"), fieldNumber(output, "GhostedPieceReused"),
      fieldNumber(output, "GhostedPieceBuildMs"), fieldNumber(output, "GhostedPieceBytesExchanged"), cpuMs };
    double maxima[fields], sums[fields];
    controller->AllReduce(mine, maxima, fields, vtkCommunicator::MAX_OP);
    controller->AllReduce(mine, sums, fields, vtkCommunicator::SUM_OP);
    char device[128] = {};
    std::snprintf(device, sizeof device, "%s", fieldText(output, "Device").c_str());
    std::vector<char> devices(rank == 0 ? sizeof device * processes : 1);
    controller->Gather(device, devices.data(), sizeof device, 0);
    // Every process's phases, in rank order.
    std::vector<std::string> phases;
    if (options.phases)
    {
      char mine[8192] = {};
      std::snprintf(mine, sizeof mine, "%s", phaseTimes().c_str());
      std::vector<char> all(rank == 0 ? sizeof mine * processes : 1);
      controller->Gather(mine, all.data(), sizeof mine, 0);
      for (int p = 0; rank == 0 && p < processes; ++p)
        phases.emplace_back(all.data() + p * sizeof mine);
    }
    long long inputCells = piece.mesh->GetNumberOfCells(), totalCells = 0;
    controller->AllReduce(&inputCells, &totalCells, 1, vtkCommunicator::SUM_OP);

    if (rank == 0 && r >= 0)
    {
      std::ostringstream line;
      line << std::setprecision(15) << "{\"filter\": " << jsonString(options.filter)
           << ", \"processes\": " << processes << ", \"mesh\": \"" << (options.tetrahedra ? "tetrahedra" : "triangles")
           << "\", \"cells\": " << totalCells << ", \"points\": "
           << (piece.n + 1) * (piece.n + 1) * (options.tetrahedra ? piece.n + 1 : 1)
           << ", \"point_type\": \"" << (options.doublePoints ? "double" : "float") << "\""
           << ", \"run\": " << r << ", \"wall_ms\": " << barrierMs << ", \"slowest_process_ms\": " << maxima[0]
           << ", \"kernel_ms_max\": " << maxima[1] << ", \"kernel_ms_sum\": " << sums[1]
           << ", \"host_ms_max\": " << maxima[2] << ", \"host_ms_sum\": " << sums[2]
           << ", \"halo_bytes_max\": " << maxima[3] << ", \"halo_bytes_sum\": " << sums[3]
           << ", \"bytes_uploaded_sum\": " << sums[4] << ", \"bytes_downloaded_sum\": " << sums[5]
           << ", \"generate_ms_rank0\": " << generateMs << ", \"checksum_count\": " << totalCount
           << ", \"checksum_sum\": " << totalSum << ", \"reexecute\": " << (options.reexecute ? "true" : "false")
           << ", \"ghosted_piece_reused_processes\": " << sums[6] << ", \"ghost_build_ms_max\": " << maxima[7]
           << ", \"ghost_bytes_max\": " << maxima[8] << ", \"cpu_ms_max\": " << maxima[9]
           << ", \"cpu_ms_sum\": " << sums[9] << ", \"load_average\": " << loadAverage() << ", \"closed_form\": " << closed << ", \"devices\": [";
      for (int p = 0; p < processes; ++p)
        line << (p ? ", " : "") << jsonString(std::string(devices.data() + p * sizeof device));
      line << "]";
      if (options.phases)
      {
        line << ", \"phases_ms\": [";
        for (int p = 0; p < processes; ++p)
          line << (p ? ", " : "") << phases[p];
        line << "]";
      }
      line << "}";
      std::printf("%s\n", line.str().c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}

Options parse(int argc, char* argv[])
{
  Options options;
  for (int a = 1; a < argc; ++a)
  {
    const std::string arg = argv[a];
    const auto value = [&]() -> std::string {
      if (a + 1 >= argc)
        throw std::runtime_error(arg + " needs a value");
      return argv[++a];
    };
    if (arg == "--filter")
      options.filter = value();
    else if (arg == "--triangles" || arg == "--tetrahedra")
    {
      options.triangles = std::stoll(value());
      options.tetrahedra = arg == "--tetrahedra";
    }
    else if (arg == "--runs")
      options.runs = std::stoi(value());
    else if (arg == "--device")
      options.device = value();
    else if (arg == "--reexecute")
      options.reexecute = true;
    else if (arg == "--phases")
      options.phases = true;
    else if (arg == "--point-type")
    {
      const std::string type = value();
      if (type != "float" && type != "double")
        throw std::runtime_error("--point-type is float or double, not '" + type + "'");
      options.doublePoints = type == "double";
    }
    else
      throw std::runtime_error("unknown option " + arg);
  }
  if (options.filter.empty() || options.triangles < 2 || options.runs < 1)
    throw std::runtime_error("usage: gpumesh-mpi-benchmark --filter NAME (--triangles T | --tetrahedra T) "
                             "[--runs R] [--device SPEC] [--point-type float|double] [--reexecute] [--phases]");
  return options;
}
} // namespace

int main(int argc, char* argv[])
{
  vtkNew<vtkMPIController> controller;
  controller->Initialize(&argc, &argv);
  vtkMultiProcessController::SetGlobalController(controller);
  int status = 0;
  try
  {
    const Options options = parse(argc, argv);
    makeFilter(options); // an unknown filter name fails here, on every process alike
    const long long rows = static_cast<long long>(options.tetrahedra ? std::ceil(std::cbrt(options.triangles / 6.0))
                                                                     : std::ceil(std::sqrt(options.triangles / 2.0)));
    if (rows < controller->GetNumberOfProcesses())
      throw std::runtime_error("the mesh is too small for one row (layer) of squares (cubes) per process");
    status = run(options, controller);
  }
  catch (const std::exception& error)
  {
    std::fprintf(stderr, "gpumesh-mpi-benchmark (rank %d): %s\n", controller->GetLocalProcessId(), error.what());
    status = 2;
  }
  vtkMultiProcessController::SetGlobalController(nullptr);
  controller->Finalize();
  return status;
}
