#include "vtkGPUMeshQuality.h"

#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkCommunicator.h"
#include "vtkDataSetAttributes.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointSet.h"
#include "vtkType.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"

#include "gpumesh/algorithms/MeshQuality.h"
#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/primitives/Reduce.h"

#include <array>
#include <cmath>
#include <memory>
#include <string>

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

// How many of the ghost cells are of each kind.
std::array<long long, kindCount> ghostsByKind(vtkPointSet* input, const std::vector<std::int32_t>& ghosts)
{
  std::array<long long, kindCount> counts{};
  for (std::int32_t id : ghosts)
  {
    const int kind = measuredKindOf(input->GetCellType(id));
    if (kind >= 0)
    {
      ++counts[kind];
    }
  }
  return counts;
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
} // namespace

vtkGPUMeshQuality::vtkGPUMeshQuality()
{
  // Exact comparison with vtkMeshQuality, which computes in double, whatever the points' type.
  this->Precision = PRECISION_DOUBLE;
}

void vtkGPUMeshQuality::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  const MeasuredKind kinds[] = {
    { CellKind::Triangle, "TriangleQualityMeasure", "Mesh Triangle Quality", this->TriangleQualityMeasure },
    { CellKind::Quad, "QuadQualityMeasure", "Mesh Quadrilateral Quality", this->QuadQualityMeasure },
    { CellKind::Tetra, "TetQualityMeasure", "Mesh Tetrahedron Quality", this->TetQualityMeasure },
    { CellKind::Pyramid, "PyramidQualityMeasure", "Mesh Pyramid Quality", this->PyramidQualityMeasure },
    { CellKind::Wedge, "WedgeQualityMeasure", "Mesh Wedge Quality", this->WedgeQualityMeasure },
    { CellKind::Hexahedron, "HexQualityMeasure", "Mesh Hexahedron Quality", this->HexQualityMeasure } };
  std::array<const MeasuredKind*, kindCount> byKind{};
  bool averageSizes = false;
  for (const MeasuredKind& k : kinds)
  {
    byKind[static_cast<int>(k.kind)] = &k;
    averageSizes = averageSizes || gpumesh::qualityMeasureNeedsAverageSize(k.measure);
  }

  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  const std::size_t cells = static_cast<std::size_t>(input->GetNumberOfCells());
  // Under MPI one origin for all processes (used when double points run in Single precision).
  const std::array<double, 3> origin = controller
    ? vtkGPUMeshDistributed::GlobalBoundsCentre(input, controller)
    : std::array<double, 3>{ 0.0, 0.0, 0.0 };
  const std::vector<std::int32_t> ghosts = vtkGPUMeshDistributed::GhostCellIds(input);
  std::array<long long, kindCount> owned{};

  std::unique_ptr<gpumesh::DeviceMesh> mesh;
  vtkGPUMeshAdapter::MeshDescription description;
  // Sums and counts of the sizes (areas, volumes) of the owned cells, per kind.
  std::array<double, kindCount> sizeSums{};
  std::array<long long, kindCount> sizeCounts{};
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    for (const MeasuredKind& k : kinds)
    {
      if (!gpumesh::qualityMeasureOffered(k.kind, k.measure))
      {
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
    if (cells == 0)
    {
      return;
    }
    description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
    if (controller)
    {
      description.view.points.origin = origin;
    }
    mesh = std::make_unique<gpumesh::DeviceMesh>(run, description.view, 2);
    const std::array<long long, kindCount> ghostCounts = ghostsByKind(input, ghosts);
    for (const gpumesh::DeviceCellGroup& group : mesh->groups())
    {
      const MeasuredKind* k = byKind[static_cast<int>(group.kind)];
      if (!k)
      {
        continue;
      }
      owned[static_cast<int>(group.kind)] += static_cast<long long>(group.count) - ghostCounts[static_cast<int>(group.kind)];
    }
    this->UpdateProgress(0.2);
    if (!averageSizes)
    {
      return;
    }
    // The sizes the relative measures compare with: the average over the owned cells.
    gpumesh::RealBuffer sizes = run.allocateReal(cells, "cell sizes");
    run.fillReal(sizes, NAN, "cell sizes");
    for (const gpumesh::DeviceCellGroup& group : mesh->groups())
    {
      const MeasuredKind* k = byKind[static_cast<int>(group.kind)];
      if (k && gpumesh::qualityMeasureNeedsAverageSize(k->measure))
      {
        gpumesh::computeGroupQuality(run, group, mesh->points(),
          static_cast<int>(gpumesh::sizeMeasureOf(group.kind)), 0.0, sizes);
      }
    }
    if (!ghosts.empty())
    {
      gpumesh::fillAt(run, sizes, ghosts, NAN, "ghost cells");
    }
    for (const gpumesh::DeviceCellGroup& group : mesh->groups())
    {
      const MeasuredKind* k = byKind[static_cast<int>(group.kind)];
      if (k && gpumesh::qualityMeasureNeedsAverageSize(k->measure))
      {
        const gpumesh::Statistics s = groupStatistics(run, group, sizes);
        sizeSums[static_cast<int>(group.kind)] += s.sum;
        sizeCounts[static_cast<int>(group.kind)] += static_cast<long long>(s.count);
      }
    }
  });
  if (averageSizes)
  {
    vtkGPUMeshDistributed::AllReduce(controller, sizeSums.data(), kindCount, vtkCommunicator::SUM_OP);
    vtkGPUMeshDistributed::AllReduce(controller, sizeCounts.data(), kindCount, vtkCommunicator::SUM_OP);
  }
  this->UpdateProgress(0.3);

  gpumesh::RealBuffer quality;
  std::array<gpumesh::Statistics, kindCount> statistics{};
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    if (cells == 0)
    {
      return;
    }
    quality = run.allocateReal(cells, "cell quality");
    run.fillReal(quality, NAN, "cell quality");
    for (const gpumesh::DeviceCellGroup& group : mesh->groups())
    {
      const MeasuredKind* k = byKind[static_cast<int>(group.kind)];
      if (k)
      {
        const int kind = static_cast<int>(group.kind);
        // vtkMeshQuality's average: the sum over the count (NaN without cells, then unused).
        const double average = sizeCounts[kind] ? sizeSums[kind] / static_cast<double>(sizeCounts[kind]) : 0.0;
        gpumesh::computeGroupQuality(run, group, mesh->points(), k->measure, average, quality);
      }
    }
    this->UpdateProgress(0.6);
    const gpumesh::RealBuffer maskedCopy = ghosts.empty() ? gpumesh::RealBuffer() : ownedValues(run, quality, cells, ghosts);
    const gpumesh::RealBuffer& ownedQuality = ghosts.empty() ? quality : maskedCopy;
    for (const gpumesh::DeviceCellGroup& group : mesh->groups())
    {
      if (byKind[static_cast<int>(group.kind)])
      {
        statistics[static_cast<int>(group.kind)].merge(groupStatistics(run, group, ownedQuality));
      }
    }
  });
  // Every process reports the statistics of the whole mesh.
  vtkGPUMeshDistributed::AllReduce(controller, owned.data(), kindCount, vtkCommunicator::SUM_OP);
  for (const MeasuredKind& k : kinds)
  {
    const int kind = static_cast<int>(k.kind);
    statistics[kind] = vtkGPUMeshDistributed::AllReduceStatistics(controller, statistics[kind]);
  }
  this->UpdateProgress(0.8);

  // An empty piece of a distributed mesh gets an empty Quality array, as the others' type.
  vtkSmartPointer<vtkDataArray> array;
  if (cells > 0)
  {
    array = vtkGPUMeshAdapter::DownloadArray(run, quality, static_cast<vtkIdType>(cells), 1, "Quality");
  }
  else
  {
    array = vtkSmartPointer<vtkDataArray>::Take(run.precision() == gpumesh::Precision::Double
        ? static_cast<vtkDataArray*>(vtkDoubleArray::New())
        : static_cast<vtkDataArray*>(vtkFloatArray::New()));
    array->SetName("Quality");
  }
  output->GetCellData()->AddArray(array);
  output->GetCellData()->SetActiveAttribute("Quality", vtkDataSetAttributes::SCALARS);
  for (const MeasuredKind& k : kinds)
  {
    const int kind = static_cast<int>(k.kind);
    const std::array<double, 5> tuple = meshQualityTuple(statistics[kind], owned[kind]);
    vtkNew<vtkDoubleArray> field;
    field->SetName(k.fieldName);
    field->SetNumberOfComponents(5);
    field->InsertNextTuple(tuple.data());
    output->GetFieldData()->AddArray(field);
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
}
