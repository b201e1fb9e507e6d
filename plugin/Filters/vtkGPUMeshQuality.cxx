#include "vtkGPUMeshQuality.h"

#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkCommunicator.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkType.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshOwnedValues.h"
#include "vtkGPUMeshPiece.h"

#include "gpumesh/algorithms/MeshQuality.h"
#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/primitives/Reduce.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

vtkStandardNewMacro(vtkGPUMeshQuality);

namespace
{
using gpumesh::CellKind;

// A kind that has a measure: its property, the field data array of its statistics and the
// measure chosen.
struct MeasuredKind
{
  CellKind kind;
  const char* property;
  const char* fieldName;
  int measure;
};

constexpr int kindCount = gpumesh::cellKindCount;

const char* const pointQualityNames[] = { "None", "Minimum", "Maximum", "Mean" };
static_assert(std::size(pointQualityNames) == vtkGPUMeshQuality::POINT_QUALITY_MEAN + 1, "a name per PointQuality");
const char* const badCellSideNames[] = { "None", "Below", "Above" };
static_assert(std::size(badCellSideNames) == vtkGPUMeshQuality::BAD_CELLS_ABOVE + 1, "a name per BadCellSide");

// `bins` equal bins over [first, last] placed as numpy.histogram places them: edges as
// numpy.linspace gives them, a value's bin from its scaled offset then corrected against the
// edges, the last bin closed; a range of one value is widened by 0.5 on each side.
class UniformBins
{
public:
  UniformBins(int bins, double first, double last)
    : Count(bins)
  {
    if (first == last)
    {
      first -= 0.5;
      last += 0.5;
    }
    this->First = first;
    this->Norm = bins / (last - first);
    const double step = (last - first) / bins;
    this->Edges.resize(static_cast<std::size_t>(bins) + 1);
    for (int i = 0; i < bins; ++i)
    {
      const double offset = i * step; // two roundings, as numpy's y * step then y += start
      this->Edges[i] = offset + first;
    }
    this->Edges[bins] = last;
  }

  /// The bin of x, or -1 outside [first, last] or NaN.
  int BinOf(double x) const
  {
    if (!(x >= this->Edges.front() && x <= this->Edges.back()))
    {
      return -1;
    }
    const double scaled = (x - this->First) * this->Norm;
    int i = static_cast<int>(scaled);
    i = std::min(std::max(i, 0), this->Count);
    if (i == this->Count)
    {
      --i;
    }
    if (x < this->Edges[i])
    {
      --i;
    }
    else if (i != this->Count - 1 && x >= this->Edges[i + 1])
    {
      ++i;
    }
    return i;
  }

private:
  int Count;
  double First = 0.0;
  double Norm = 0.0;
  std::vector<double> Edges;
};

// The measured kind a VTK cell type counts as (pixels and voxels: quads and hexahedra), or -1.
int measuredKindOf(int vtkCellType)
{
  switch (vtkCellType)
  {
    case VTK_TRIANGLE:
      return static_cast<int>(CellKind::Triangle);
    case VTK_QUAD:
    case VTK_PIXEL:
      return static_cast<int>(CellKind::Quad);
    case VTK_TETRA:
      return static_cast<int>(CellKind::Tetra);
    case VTK_PYRAMID:
      return static_cast<int>(CellKind::Pyramid);
    case VTK_WEDGE:
      return static_cast<int>(CellKind::Wedge);
    case VTK_HEXAHEDRON:
    case VTK_VOXEL:
      return static_cast<int>(CellKind::Hexahedron);
    default:
      return -1;
  }
}

// `values` (one per cell) where this process owns the cell, NaN in its ghost cells.
gpumesh::RealBuffer ownedValues(gpumesh::DeviceRun& run, const gpumesh::RealBuffer& values,
  std::size_t cells, const std::vector<std::int32_t>& ghosts)
{
  gpumesh::RealBuffer owned = run.allocateReal(cells, "owned cell values");
  run.copyReal(values, owned, cells, "owned cell values");
  gpumesh::fillAt(run, owned, ghosts, NAN, "ghost cells");
  return owned;
}

// The statistics of one group's values (ghosts already NaN).
gpumesh::Statistics groupStatistics(
  gpumesh::DeviceRun& run, const gpumesh::DeviceCellGroup& group, const gpumesh::RealBuffer& values)
{
  return gpumesh::reduceStatistics(run, gpumesh::groupValues(run, group, values), group.count);
}

// vtkMeshQuality's tuple: minimum, average, maximum, unbiased variance (from the sum of
// squares, as it computes it) and count. `cells` counts every owned cell of the kind, NaN
// qualities included: like vtkMeshQuality, a NaN makes the average and variance NaN and leaves
// the minimum and maximum to the other values (VTK_DOUBLE_MAX and VTK_DOUBLE_MIN without any).
std::array<double, 5> meshQualityTuple(const gpumesh::Statistics& s, long long cells)
{
  if (cells == 0)
  {
    return { 0.0, 0.0, 0.0, 0.0, 0.0 };
  }
  const double n = static_cast<double>(cells);
  const double minimum = s.count ? s.minimum : VTK_DOUBLE_MAX;
  const double maximum = s.count ? s.maximum : VTK_DOUBLE_MIN;
  if (static_cast<long long>(s.count) < cells)
  {
    return { minimum, NAN, maximum, NAN, n };
  }
  const double mean = s.sum / n;
  const double squares = s.normScale * s.normScale * s.normScaledSquares;
  const double variance = (squares - n * mean * mean) / (cells > 1 ? n - 1.0 : n);
  return { minimum, mean, maximum, variance, n };
}

// Per kind (indexed by CellKind): the measured kinds' table, sums and counts.
template <typename T>
using PerKind = std::array<T, kindCount>;

// The measure of each kind that has one (nullptr for the others).
PerKind<const MeasuredKind*> byKind(const MeasuredKind (&kinds)[6])
{
  PerKind<const MeasuredKind*> table{};
  for (const MeasuredKind& k : kinds)
  {
    table[static_cast<int>(k.kind)] = &k;
  }
  return table;
}

// Throws gpumesh::Error for a measure ParaView's Mesh Quality does not offer for its kind,
// naming the property, the value and the choices.
void requireOffered(const MeasuredKind (&kinds)[6])
{
  for (const MeasuredKind& k : kinds)
  {
    if (gpumesh::qualityMeasureOffered(k.kind, k.measure))
    {
      continue;
    }
    std::string choices;
    for (int m = 0; m < gpumesh::qualityMeasureCount; ++m)
    {
      if (gpumesh::qualityMeasureOffered(k.kind, m))
      {
        choices += (choices.empty() ? "" : ", ") + std::to_string(m) + " (" + gpumesh::qualityMeasureName(m) + ")";
      }
    }
    throw gpumesh::Error(std::string(k.property) + " " + std::to_string(k.measure) +
      " is not a measure Mesh Quality offers for " + gpumesh::cellKindName(k.kind) + " cells: " + choices);
  }
}

// The cells of each measured kind this process owns (its ghost cells left out).
PerKind<long long> ownedCells(const gpumesh::DeviceMesh& mesh, vtkPointSet* input, const std::vector<std::int32_t>& ghosts)
{
  PerKind<long long> owned{};
  for (const gpumesh::DeviceCellGroup& group : mesh.groups())
  {
    owned[static_cast<int>(group.kind)] += static_cast<long long>(group.count);
  }
  for (std::int32_t id : ghosts)
  {
    const int kind = measuredKindOf(input->GetCellType(id));
    if (kind >= 0)
    {
      --owned[kind];
    }
  }
  return owned;
}

// The sum and number of the sizes (areas, volumes as Verdict measures them) of the owned cells
// of each kind whose measure compares cells with their average size.
struct SizeSums
{
  PerKind<double> sum{};
  PerKind<long long> count{};
};

SizeSums ownedSizes(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh, const PerKind<const MeasuredKind*>& kinds,
  const std::vector<std::int32_t>& ghosts)
{
  SizeSums sums;
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  gpumesh::RealBuffer sizes = run.allocateReal(cells, "cell sizes");
  run.fillReal(sizes, NAN, "cell sizes");
  for (const gpumesh::DeviceCellGroup& group : mesh.groups())
  {
    const MeasuredKind* k = kinds[static_cast<int>(group.kind)];
    if (k && gpumesh::qualityMeasureNeedsAverageSize(k->measure))
    {
      gpumesh::computeGroupQuality(
        run, group, mesh.points(), static_cast<int>(gpumesh::sizeMeasureOf(group.kind)), 0.0, sizes);
    }
  }
  gpumesh::fillAt(run, sizes, ghosts, NAN, "ghost cells");
  for (const gpumesh::DeviceCellGroup& group : mesh.groups())
  {
    const MeasuredKind* k = kinds[static_cast<int>(group.kind)];
    if (k && gpumesh::qualityMeasureNeedsAverageSize(k->measure))
    {
      const gpumesh::Statistics s = groupStatistics(run, group, sizes);
      sums.sum[static_cast<int>(group.kind)] += s.sum;
      sums.count[static_cast<int>(group.kind)] += static_cast<long long>(s.count);
    }
  }
  return sums;
}

// vtkMeshQuality's average size of each kind: the sum over the count (0 without cells: unused).
PerKind<double> averageSizes(const SizeSums& sums)
{
  PerKind<double> averages{};
  for (int kind = 0; kind < kindCount; ++kind)
  {
    averages[kind] = sums.count[kind] ? sums.sum[kind] / static_cast<double>(sums.count[kind]) : 0.0;
  }
  return averages;
}

// The quality of every cell (NaN for cells of kinds without a measure).
gpumesh::RealBuffer measureCells(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh,
  const PerKind<const MeasuredKind*>& kinds, const PerKind<double>& averages)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  gpumesh::RealBuffer quality = run.allocateReal(cells, "cell quality");
  run.fillReal(quality, NAN, "cell quality");
  for (const gpumesh::DeviceCellGroup& group : mesh.groups())
  {
    if (const MeasuredKind* k = kinds[static_cast<int>(group.kind)])
    {
      gpumesh::computeGroupQuality(run, group, mesh.points(), k->measure, averages[static_cast<int>(group.kind)], quality);
    }
  }
  return quality;
}

// The statistics of the quality of the owned cells of each kind.
// `owned`: the quality, NaN in ghost cells.
PerKind<gpumesh::Statistics> ownedStatistics(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh,
  const PerKind<const MeasuredKind*>& kinds, const gpumesh::RealBuffer& owned)
{
  PerKind<gpumesh::Statistics> statistics{};
  for (const gpumesh::DeviceCellGroup& group : mesh.groups())
  {
    if (kinds[static_cast<int>(group.kind)])
    {
      statistics[static_cast<int>(group.kind)].merge(groupStatistics(run, group, owned));
    }
  }
  return statistics;
}

// The Quality array (double or float as the run; empty on a process without cells).
vtkSmartPointer<vtkDataArray> qualityArray(gpumesh::DeviceRun& run, const gpumesh::RealBuffer& quality, std::size_t cells)
{
  if (cells > 0)
  {
    return vtkGPUMeshAdapter::DownloadArray(run, quality, static_cast<vtkIdType>(cells), 1, "Quality");
  }
  vtkSmartPointer<vtkDataArray> empty = vtkSmartPointer<vtkDataArray>::Take(run.precision() == gpumesh::Precision::Double
      ? static_cast<vtkDataArray*>(vtkDoubleArray::New())
      : static_cast<vtkDataArray*>(vtkFloatArray::New()));
  empty->SetName("Quality");
  return empty;
}

// The owned values of one group on the host (ghosts NaN), in group order.
std::vector<double> hostGroupValues(
  gpumesh::DeviceRun& run, const gpumesh::DeviceCellGroup& group, const gpumesh::RealBuffer& owned)
{
  std::vector<double> values(group.count);
  if (group.count > 0)
  {
    run.download(gpumesh::groupValues(run, group, owned), values.data(), group.count, "group quality");
  }
  return values;
}

// An array of `tuples` NaN values, of the run's type.
vtkSmartPointer<vtkDataArray> nanArray(gpumesh::DeviceRun& run, vtkIdType tuples, const char* name)
{
  vtkSmartPointer<vtkDataArray> array = vtkSmartPointer<vtkDataArray>::Take(run.precision() == gpumesh::Precision::Double
      ? static_cast<vtkDataArray*>(vtkDoubleArray::New())
      : static_cast<vtkDataArray*>(vtkFloatArray::New()));
  array->SetName(name);
  array->SetNumberOfTuples(tuples);
  array->Fill(NAN);
  return array;
}

// The PointQuality array of `mesh`'s first `points` points from the cells' `quality`.
vtkSmartPointer<vtkDataArray> pointQualityArray(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh* mesh,
  const gpumesh::RealBuffer& quality, int reduction, vtkIdType points)
{
  if (!mesh || points == 0)
  {
    return nanArray(run, points, "PointQuality");
  }
  const gpumesh::RealBuffer values =
    gpumesh::pointValuesOfCells(run, *mesh, quality, static_cast<gpumesh::PointReduction>(reduction));
  return vtkGPUMeshAdapter::DownloadArray(run, values, points, 1, "PointQuality");
}
// NaN at the points of `piece` that none of its owned cells uses (only the input's ghost cells
// do): their balls may be cut here, and their owners compute them.
void maskPointsOfNoOwnedCell(const vtkGPUMeshPiece& piece, vtkDataArray* values)
{
  const vtkIdType points = values->GetNumberOfTuples();
  std::vector<unsigned char> used(static_cast<std::size_t>(points), 0);
  const vtkIdType owned = std::min(piece.GetNumberOfResultCells(), piece.Data->GetNumberOfCells());
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < owned; ++c)
  {
    piece.Data->GetCellPoints(c, ids);
    for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k)
    {
      if (ids->GetId(k) < points)
      {
        used[ids->GetId(k)] = 1;
      }
    }
  }
  for (vtkIdType p = 0; p < points; ++p)
  {
    if (!used[p])
    {
      values->SetComponent(p, 0, NAN);
    }
  }
}
} // namespace

vtkGPUMeshQuality::~vtkGPUMeshQuality() = default;

vtkGPUMeshQuality::vtkGPUMeshQuality()
  : OwnedValues(std::make_unique<vtkGPUMeshOwnedValues>())
{
  // Exact comparison with vtkMeshQuality, which computes in double, whatever the points' type.
  this->Precision = PRECISION_DOUBLE;
}

void vtkGPUMeshQuality::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  const MeasuredKind chosen[] = {
    { CellKind::Triangle, "TriangleQualityMeasure", "Mesh Triangle Quality", this->TriangleQualityMeasure },
    { CellKind::Quad, "QuadQualityMeasure", "Mesh Quadrilateral Quality", this->QuadQualityMeasure },
    { CellKind::Tetra, "TetQualityMeasure", "Mesh Tetrahedron Quality", this->TetQualityMeasure },
    { CellKind::Pyramid, "PyramidQualityMeasure", "Mesh Pyramid Quality", this->PyramidQualityMeasure },
    { CellKind::Wedge, "WedgeQualityMeasure", "Mesh Wedge Quality", this->WedgeQualityMeasure },
    { CellKind::Hexahedron, "HexQualityMeasure", "Mesh Hexahedron Quality", this->HexQualityMeasure } };
  const PerKind<const MeasuredKind*> kinds = byKind(chosen);
  RequireChoice("PointQuality", this->PointQuality, pointQualityNames);
  RequireChoice("BadCellSide", this->BadCellSide, badCellSideNames);
  if (this->Bins < 0)
  {
    throw gpumesh::Error("Bins " + std::to_string(this->Bins) + " is negative: give 0 (no histogram) or more");
  }
  if (this->Bins > (1 << 24))
  {
    throw gpumesh::Error("Bins " + std::to_string(this->Bins) + " is more than the 16777216 a histogram may have");
  }
  const bool relative = std::any_of(std::begin(chosen), std::end(chosen),
    [](const MeasuredKind& k) { return gpumesh::qualityMeasureNeedsAverageSize(k.measure); });

  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  const auto cells = static_cast<std::size_t>(input->GetNumberOfCells());
  // Under MPI one origin for all processes (used when double points run in Single precision).
  const std::array<double, 3> origin = controller
    ? vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller, run.precision())
    : std::array<double, 3>{ 0.0, 0.0, 0.0 };
  const std::vector<std::int32_t> ghosts = vtkGPUMeshDistributed::GhostCellIds(input);

  std::shared_ptr<const gpumesh::DeviceMesh> mesh;
  PerKind<long long> owned{};
  SizeSums sizes;
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    requireOffered(chosen);
    if (cells == 0)
    {
      return;
    }
    vtkGPUMeshAdapter::MeshDescription description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
    if (controller)
    {
      description.view.points.origin = origin;
    }
    mesh = vtkGPUMeshKeptMesh::Get(run, vtkGPUMeshPiece::Of(input), std::move(description), 2);
    owned = ownedCells(*mesh, input, ghosts);
    if (relative)
    {
      sizes = ownedSizes(run, *mesh, kinds, ghosts);
    }
  });
  if (relative)
  {
    // The average sizes of the whole mesh, as a serial run computes them.
    vtkGPUMeshDistributed::AllReduce(controller, sizes.sum.data(), kindCount, vtkCommunicator::SUM_OP);
    vtkGPUMeshDistributed::AllReduce(controller, sizes.count.data(), kindCount, vtkCommunicator::SUM_OP);
  }
  this->UpdateProgress(0.3);

  gpumesh::RealBuffer quality;
  gpumesh::RealBuffer masked; // quality with ghost cells NaN (empty without ghosts)
  PerKind<gpumesh::Statistics> statistics{};
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    if (cells > 0)
    {
      quality = measureCells(run, *mesh, kinds, averageSizes(sizes));
      this->UpdateProgress(0.6);
      if (!ghosts.empty())
      {
        masked = ownedValues(run, quality, cells, ghosts);
      }
      statistics = ownedStatistics(run, *mesh, kinds, ghosts.empty() ? quality : masked);
    }
  });
  // Every process reports the statistics of the whole mesh.
  vtkGPUMeshDistributed::AllReduce(controller, owned.data(), kindCount, vtkCommunicator::SUM_OP);
  for (const MeasuredKind& k : chosen)
  {
    const int kind = static_cast<int>(k.kind);
    statistics[kind] = vtkGPUMeshDistributed::AllReduceStatistics(controller, statistics[kind]);
  }
  this->UpdateProgress(0.7);

  // Histograms and the bad cell count from the owned cells' values on the host, over the whole
  // mesh's ranges; summed over the processes.
  const int bins = this->Bins;
  std::vector<long long> histograms(static_cast<std::size_t>(kindCount) * bins, 0);
  long long badCells = 0;
  if (bins > 0 || this->BadCellSide != BAD_CELLS_NONE)
  {
    vtkGPUMeshDistributed::AllSucceed(controller, [&] {
      if (cells == 0)
      {
        return;
      }
      for (const gpumesh::DeviceCellGroup& group : mesh->groups())
      {
        const int kind = static_cast<int>(group.kind);
        if (!kinds[kind])
        {
          continue;
        }
        const std::vector<double> values = hostGroupValues(run, group, ghosts.empty() ? quality : masked);
        if (bins > 0 && statistics[kind].count > 0 && std::isfinite(statistics[kind].minimum) &&
          std::isfinite(statistics[kind].maximum))
        {
          const UniformBins placed(bins, statistics[kind].minimum, statistics[kind].maximum);
          long long* counts = histograms.data() + static_cast<std::size_t>(kind) * bins;
          for (double q : values)
          {
            const int b = placed.BinOf(q);
            if (b >= 0)
            {
              ++counts[b];
            }
          }
        }
        const double threshold = this->BadCellThreshold;
        if (this->BadCellSide == BAD_CELLS_BELOW)
        {
          badCells += std::count_if(values.begin(), values.end(), [&](double q) { return q < threshold; });
        }
        else if (this->BadCellSide == BAD_CELLS_ABOVE)
        {
          badCells += std::count_if(values.begin(), values.end(), [&](double q) { return q > threshold; });
        }
      }
    });
    if (bins > 0)
    {
      vtkGPUMeshDistributed::AllReduce(controller, histograms.data(), kindCount * bins, vtkCommunicator::SUM_OP);
    }
    vtkGPUMeshDistributed::AllReduce(controller, &badCells, 1, vtkCommunicator::SUM_OP);
  }

  if (this->PointQuality != POINT_QUALITY_NONE)
  {
    // Serial: the input's mesh and quality. MPI: the ghosted piece, measured with the whole
    // mesh's average sizes, so every owned point sees all its cells (collective).
    const PerKind<double> averages = averageSizes(sizes);
    // The piece's meshes hold surface and volume cells (minimum dimension 2), as the input's.
    const vtkGPUMeshDistributed::PieceDevice device{ &run, 2 };
    this->OwnedValues->Compute(
      input, output, controller,
      [&](const vtkGPUMeshPiece& piece, const std::array<double, 3>* pieceOrigin, vtkPointSet* result) {
        if (!pieceOrigin)
        {
          result->GetPointData()->AddArray(
            pointQualityArray(run, mesh.get(), quality, this->PointQuality, piece.GetNumberOfResultPoints()));
          return;
        }
        if (piece.GetNumberOfCells() == 0)
        {
          result->GetPointData()->AddArray(nanArray(run, piece.GetNumberOfResultPoints(), "PointQuality"));
          return;
        }
        auto pieceDescription = vtkGPUMeshAdapter::DescribeMesh(piece, run.precision());
        pieceDescription.view.points.origin = *pieceOrigin;
        const auto pieceMesh = vtkGPUMeshKeptMesh::Get(run, piece, std::move(pieceDescription), 2);
        const gpumesh::RealBuffer pieceQuality = measureCells(run, *pieceMesh, kinds, averages);
        vtkSmartPointer<vtkDataArray> values = pointQualityArray(
          run, pieceMesh.get(), pieceQuality, this->PointQuality, piece.GetNumberOfResultPoints());
        maskPointsOfNoOwnedCell(piece, values);
        result->GetPointData()->AddArray(values);
      },
      &device);
  }
  this->UpdateProgress(0.8);

  output->GetCellData()->AddArray(qualityArray(run, quality, cells));
  output->GetCellData()->SetActiveAttribute("Quality", vtkDataSetAttributes::SCALARS);
  for (const MeasuredKind& k : chosen)
  {
    const std::array<double, 5> tuple = meshQualityTuple(statistics[static_cast<int>(k.kind)], owned[static_cast<int>(k.kind)]);
    vtkNew<vtkDoubleArray> field;
    field->SetName(k.fieldName);
    field->SetNumberOfComponents(5);
    field->InsertNextTuple(tuple.data());
    output->GetFieldData()->AddArray(field);
    if (bins > 0)
    {
      vtkNew<vtkIdTypeArray> histogram;
      histogram->SetName((std::string(k.fieldName) + " Histogram").c_str());
      histogram->SetNumberOfTuples(bins);
      const long long* counts = histograms.data() + static_cast<std::size_t>(k.kind) * bins;
      for (int b = 0; b < bins; ++b)
      {
        histogram->SetValue(b, static_cast<vtkIdType>(counts[b]));
      }
      output->GetFieldData()->AddArray(histogram);
    }
  }
  if (this->BadCellSide != BAD_CELLS_NONE)
  {
    vtkNew<vtkIdTypeArray> bad;
    bad->SetName("BadCellCount");
    bad->InsertNextValue(static_cast<vtkIdType>(badCells));
    output->GetFieldData()->AddArray(bad);
  }
}

void vtkGPUMeshQuality::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "TriangleQualityMeasure: " << gpumesh::qualityMeasureName(this->TriangleQualityMeasure) << "\n";
  os << indent << "QuadQualityMeasure: " << gpumesh::qualityMeasureName(this->QuadQualityMeasure) << "\n";
  os << indent << "TetQualityMeasure: " << gpumesh::qualityMeasureName(this->TetQualityMeasure) << "\n";
  os << indent << "PyramidQualityMeasure: " << gpumesh::qualityMeasureName(this->PyramidQualityMeasure) << "\n";
  os << indent << "WedgeQualityMeasure: " << gpumesh::qualityMeasureName(this->WedgeQualityMeasure) << "\n";
  os << indent << "HexQualityMeasure: " << gpumesh::qualityMeasureName(this->HexQualityMeasure) << "\n";
  os << indent << "PointQuality: " << ChoiceName(pointQualityNames, this->PointQuality) << "\n";
  os << indent << "Bins: " << this->Bins << "\n";
  os << indent << "BadCellSide: " << ChoiceName(badCellSideNames, this->BadCellSide) << "\n";
  os << indent << "BadCellThreshold: " << this->BadCellThreshold << "\n";
}
