#include "vtkGPUDecimation.h"

#include "vtkArrayDispatch.h"
#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkCommunicator.h"
#include "vtkDataArrayRange.h"
#include "vtkFieldData.h"
#include "vtkDataSetAttributes.h"
#include "vtkIdList.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkMath.h"
#include "vtkPolyData.h"
#include "vtkSmartPointer.h"
#include "vtkTypeInt32Array.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshKeptMesh.h"
#include "vtkGPUMeshOutputArrays.h"
#include "vtkGPUMeshPiece.h"
#include "vtkGPUMeshPieceInterface.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/algorithms/Decimation.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <string>

vtkStandardNewMacro(vtkGPUDecimation);

namespace
{
// Every cell a triangle, else an error naming the first that is not.
void RequireTriangles(vtkPointSet* input)
{
  for (vtkIdType c = 0; c < input->GetNumberOfCells(); ++c)
  {
    const int type = input->GetCellType(c);
    if (type != VTK_TRIANGLE)
    {
      throw gpumesh::Error("Cell " + std::to_string(c) + " is a " + vtkGPUMeshAdapter::CellTypeName(type) +
        ": GPU Decimation takes triangles only (apply Triangulate first)");
    }
  }
}

// The owned triangles of a piece with ghost cells (the ghosts are another process's), on the same
// points; `owned` lists the input cell of each.
vtkSmartPointer<vtkPointSet> OwnedCells(vtkPointSet* input, const std::vector<std::int32_t>& ghosts,
  std::vector<vtkIdType>& owned)
{
  vtkNew<vtkCellArray> cells;
  std::size_t g = 0;
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < input->GetNumberOfCells(); ++c)
  {
    if (g < ghosts.size() && ghosts[g] == c)
    {
      ++g;
      continue;
    }
    input->GetCellPoints(c, ids);
    cells->InsertNextCell(ids);
    owned.push_back(c);
  }
  if (vtkPolyData::SafeDownCast(input))
  {
    auto poly = vtkSmartPointer<vtkPolyData>::New();
    poly->SetPoints(input->GetPoints());
    poly->SetPolys(cells);
    return poly;
  }
  auto grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->SetPoints(input->GetPoints());
  grid->SetCells(VTK_TRIANGLE, cells);
  return grid;
}

// Where `p` projects on the segment from `a` to `b`, as a weight of b in [0, 1].
double EdgeWeight(const double a[3], const double b[3], const double p[3])
{
  double ab2 = 0.0, ap = 0.0;
  for (int k = 0; k < 3; ++k)
  {
    ab2 += (b[k] - a[k]) * (b[k] - a[k]);
    ap += (p[k] - a[k]) * (b[k] - a[k]);
  }
  return ab2 > 0.0 ? std::min(1.0, std::max(0.0, ap / ab2)) : 0.0;
}

// Tuple i of `to` (of `from`'s type): tuple source[i] of `from` where partner[i] < 0, else the
// interpolation between tuples source[i] and partner[i] at weight[i] with the arithmetic of
// vtkGenericDataArray::InterpolateTuple, so the values are VTK's to the bit.
struct EdgeInterpolation
{
  template <typename Array>
  void operator()(Array* to, vtkDataArray* fromArray, const std::vector<cl_int>& source,
    const std::vector<cl_int>& partner, const std::vector<double>& weight) const
  {
    using Value = vtk::GetAPIType<Array>;
    auto* from = vtkArrayDownCast<Array>(fromArray);
    const auto in = vtk::DataArrayValueRange(from);
    auto out = vtk::DataArrayValueRange(to);
    const int components = to->GetNumberOfComponents();
    vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(source.size()), [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType i = begin; i < end; ++i)
      {
        const vtkIdType a = static_cast<vtkIdType>(source[i]) * components;
        if (partner[i] < 0)
        {
          for (int c = 0; c < components; ++c)
            out[i * components + c] = in[a + c];
          continue;
        }
        const vtkIdType b = static_cast<vtkIdType>(partner[i]) * components;
        const double t = weight[i], oneMinusT = 1.0 - t;
        for (int c = 0; c < components; ++c)
        {
          Value value;
          vtkMath::RoundDoubleToIntegralIfNecessary(in[a + c] * oneMinusT + in[b + c] * t, &value);
          out[i * components + c] = value;
        }
      }
    });
  }
};

void InterpolateAlongEdges(vtkAbstractArray* to, vtkAbstractArray* from, const std::vector<cl_int>& source,
  const std::vector<cl_int>& partner, const std::vector<double>& weight)
{
  auto* values = vtkDataArray::SafeDownCast(to);
  auto* fromValues = vtkDataArray::SafeDownCast(from);
  if (values && fromValues && values->GetDataType() == fromValues->GetDataType() &&
    vtkArrayDispatch::Dispatch::Execute(values, EdgeInterpolation{}, fromValues, source, partner, weight))
    return;
  // Other layouts: VTK's own calls, one tuple at a time.
  for (std::size_t i = 0; i < source.size(); ++i)
  {
    const auto t = static_cast<vtkIdType>(i);
    if (partner[i] < 0)
      to->SetTuple(t, source[i], from);
    else
      to->InterpolateTuple(t, source[i], from, partner[i], from, weight[i]);
  }
}
} // namespace

void vtkGPUDecimation::CheckProperties()
{
  if (!(this->TargetReduction >= 0.0 && this->TargetReduction < 1.0))
  {
    std::ostringstream message;
    message << "Target Reduction " << this->TargetReduction << " is outside [0, 1): it is the fraction of the "
            << "triangles to remove";
    throw gpumesh::Error(message.str());
  }
  if (this->TargetCount < 0)
  {
    throw gpumesh::Error("Target Count " + std::to_string(this->TargetCount) + " is negative");
  }
  if (!(this->MaximumError >= 0.0))
  {
    std::ostringstream message;
    message << "Maximum Error " << this->MaximumError << " must be at least 0";
    throw gpumesh::Error(message.str());
  }
  if (!(this->FeatureAngle >= 0.0 && this->FeatureAngle <= 180.0))
  {
    std::ostringstream message;
    message << "Feature Angle " << this->FeatureAngle << " is outside [0, 180] degrees";
    throw gpumesh::Error(message.str());
  }
}

void vtkGPUDecimation::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  vtkMultiProcessController* controller = vtkGPUMeshDistributed::GetController();
  // Checks of this piece first: under MPI every process learns whether one failed before the
  // collective steps.
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    this->CheckProperties();
    RequireTriangles(input);
  });
  // Under MPI: the piece's own triangles (ghost cells are other processes'), and its interface
  // frozen: the points another process holds too neither move nor go, so the decimated pieces
  // still meet along the same points and edges.
  std::vector<vtkIdType> owned;
  vtkSmartPointer<vtkPointSet> piece = input;
  const std::vector<std::int32_t> ghosts = vtkGPUMeshDistributed::GhostCellIds(input);
  if (!ghosts.empty())
  {
    piece = OwnedCells(input, ghosts, owned);
  }
  gpumesh::DecimationOptions options;
  long long counts[2] = { static_cast<long long>(piece->GetNumberOfCells()), 0 };
  if (controller)
  {
    const vtkGPUMeshPieceInterface cut = vtkGPUMeshPieceInterface::Find(input, controller);
    options.frozen.assign(static_cast<std::size_t>(input->GetNumberOfPoints()), 0);
    for (const auto& shared : cut.Shared)
      for (vtkIdType p : shared)
        options.frozen[static_cast<std::size_t>(p)] = 1;
    vtkGPUMeshDistributed::AllReduce(controller, counts, 1, vtkCommunicator::SUM_OP);
  }
  const vtkIdType trianglesIn = piece->GetNumberOfCells();
  const double globalIn = controller ? static_cast<double>(counts[0]) : static_cast<double>(trianglesIn);
  // TargetCount is the whole mesh's: each piece takes its share.
  options.targetTriangles = this->TargetCount > 0
    ? static_cast<std::int64_t>(std::llround(static_cast<double>(this->TargetCount) * trianglesIn / std::max(globalIn, 1.0)))
    : static_cast<std::int64_t>(std::ceil(static_cast<double>(trianglesIn) * (1.0 - this->TargetReduction) - 1e-9));
  options.preserveBoundary = this->PreserveBoundary;
  options.preserveTopology = this->PreserveTopology;
  options.preserveFeatures = this->PreserveFeatures;
  options.featureAngle = this->FeatureAngle;
  options.maximumError = this->MaximumError;
  // Progress from 0.1 to 0.8 as the triangles go; an abort stops between two rounds (under MPI
  // the other processes finish their pieces, then every process reports the error).
  const double toRemove = std::max(1.0, static_cast<double>(trianglesIn - options.targetTriangles));
  options.afterRound = [&](std::size_t triangles) {
    this->UpdateProgress(0.1 + 0.7 * std::min(1.0, (static_cast<double>(trianglesIn) - triangles) / toRemove));
    return !this->GetAbortExecute();
  };

  gpumesh::DecimatedSurface result;
  vtkGPUMeshDistributed::AllSucceed(controller, [&] {
    if (trianglesIn == 0)
    {
      result.reachedTarget = true;
      return;
    }
    // The input's mesh is kept for the next execution; a piece's owned cells are a copy made
    // for this one.
    vtkGPUMeshAdapter::MeshDescription description = vtkGPUMeshAdapter::DescribeMesh(piece, run.precision());
    const auto mesh = piece == input
      ? vtkGPUMeshKeptMesh::Get(run, vtkGPUMeshPiece::Of(piece), std::move(description))
      : std::make_shared<const gpumesh::DeviceMesh>(run, description.view);
    this->UpdateProgress(0.1);
    result = gpumesh::decimateTriangles(run, *mesh, options);
  });
  if (!owned.empty())
  {
    for (cl_int& parent : result.cellParent)
      parent = static_cast<cl_int>(owned[static_cast<std::size_t>(parent)]);
  }
  this->UpdateProgress(0.8);
  // The output's assembly, timed apart (field data HostTimeMs_output).
  const auto outputStart = std::chrono::steady_clock::now();

  // The output, assembled on all threads (vtkSMPTools): points, point data, cells, cell data.
  const auto pointCount = static_cast<vtkIdType>(result.pointSource.size());
  const auto triangleCount = static_cast<vtkIdType>(result.cellParent.size());
  const std::vector<cl_int>& source = result.pointSource;
  const std::vector<cl_int>& partner = result.pointPartner;

  // Points: an unmerged point exactly as in the input, a merged one where the collapses put it.
  // Its point data is interpolated along the input edge of its last collapse, at the weight of
  // the new position's projection on it.
  vtkNew<vtkPoints> points;
  points->SetDataType(input->GetPoints() ? input->GetPoints()->GetDataType() : VTK_FLOAT);
  points->SetData(vtkGPUMeshOutputArrays::NewLike(points->GetData(), pointCount));
  std::vector<double> weight(static_cast<std::size_t>(pointCount), 0.0);
  vtkDataArray* xyz = points->GetData();
  vtkGPUMeshHostLoops::For(0, pointCount, [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType i = begin; i < end; ++i)
    {
      double p[3];
      if (partner[i] < 0)
        input->GetPoint(source[i], p);
      else
      {
        std::copy_n(&result.points[3 * i], 3, p);
        double a[3], b[3];
        input->GetPoint(source[i], a);
        input->GetPoint(partner[i], b);
        weight[i] = EdgeWeight(a, b, p);
      }
      xyz->SetTuple(i, p);
    }
  });

  // Point data: the arrays VTK interpolates (as InterpolateAllocate picks them) interpolated;
  // the others (id arrays, global and pedigree ids, strings) gathered from the input point whose
  // id survived, never interpolated.
  vtkPointData* inPD = input->GetPointData();
  vtkNew<vtkPointData> outPD;
  {
    vtkNew<vtkPointData> interpolated;
    interpolated->InterpolateAllocate(inPD, 0);
    std::vector<vtkAbstractArray*> gatherTo, gatherFrom;
    std::vector<vtkSmartPointer<vtkAbstractArray>> arrays;
    for (int a = 0; a < inPD->GetNumberOfArrays(); ++a)
    {
      vtkAbstractArray* in = inPD->GetAbstractArray(a);
      if (!in->GetName())
        continue;
      arrays.push_back(vtkGPUMeshOutputArrays::NewOutputLike(in, pointCount));
      if (interpolated->GetAbstractArray(in->GetName()))
        InterpolateAlongEdges(arrays.back(), in, source, partner, weight);
      else
      {
        gatherTo.push_back(arrays.back());
        gatherFrom.push_back(in);
      }
    }
    vtkGPUMeshOutputArrays::GatherArrays(gatherTo, gatherFrom, pointCount, 0, source.data());
    for (const auto& array : arrays)
      outPD->AddArray(array);
    vtkGPUMeshOutputArrays::PassActiveAttributes(inPD, outPD);
  }
  if (this->PassThroughPointIds)
  {
    auto ids = vtkGPUMeshOutputArrays::New<vtkIdTypeArray>(pointCount);
    ids->SetName("vtkOriginalPointIds");
    vtkIdType* values = ids->GetPointer(0);
    vtkGPUMeshHostLoops::For(0, pointCount, [&](vtkIdType begin, vtkIdType end) {
      std::copy(source.begin() + begin, source.begin() + end, values + begin);
    });
    outPD->AddArray(ids);
  }

  // Triangles, 32-bit, straight from the device's.
  vtkNew<vtkCellArray> cells;
  {
    auto offsets = vtkGPUMeshOutputArrays::New<vtkTypeInt32Array>(triangleCount + 1);
    auto connectivity = vtkGPUMeshOutputArrays::New<vtkTypeInt32Array>(3 * triangleCount);
    vtkTypeInt32* offset = offsets->GetPointer(0);
    vtkGPUMeshHostLoops::For(0, triangleCount + 1, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType t = begin; t < end; ++t)
        offset[t] = static_cast<vtkTypeInt32>(3 * t);
    });
    vtkGPUMeshOutputArrays::Copy(
      connectivity->GetPointer(0), result.triangles.data(), result.triangles.size() * sizeof(vtkTypeInt32));
    cells->SetData(offsets, connectivity);
  }
  // Cell data from each triangle's input cell (its global id too: a surviving triangle keeps its
  // parent's, so the ids stay unique), all arrays in one pass.
  vtkNew<vtkCellData> outCD;
  {
    auto parentIds = vtkGPUMeshOutputArrays::New<vtkIdTypeArray>(triangleCount);
    parentIds->SetName("vtkOriginalCellIds");
    vtkGPUMeshOutputArrays::CopyParentCellData(
      input->GetCellData(), outCD, parentIds, 0, result.cellParent.data(), true);
    if (this->PassThroughCellIds)
      outCD->AddArray(parentIds);
  }

  output->Initialize();
  output->SetPoints(points);
  if (auto* poly = vtkPolyData::SafeDownCast(output))
  {
    poly->SetPolys(cells);
  }
  else if (auto* grid = vtkUnstructuredGrid::SafeDownCast(output))
  {
    grid->SetCells(VTK_TRIANGLE, cells);
  }
  // The output holds no ghosts (only a piece's own triangles are decimated).
  outPD->RemoveArray(vtkDataSetAttributes::GhostArrayName());
  outCD->RemoveArray(vtkDataSetAttributes::GhostArrayName());
  output->GetPointData()->ShallowCopy(outPD);
  output->GetCellData()->ShallowCopy(outCD);
  const double outputMs =
    std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - outputStart).count();
  vtkFieldData* field = output->GetFieldData();
  field->PassData(input->GetFieldData());
  // Under MPI the whole mesh's: sums of the pieces' counts, the most rounds, the largest error.
  long long sums[2] = { static_cast<long long>(trianglesIn), static_cast<long long>(triangleCount) };
  long long rounds = static_cast<long long>(result.rounds);
  double largest = result.largestError;
  vtkGPUMeshDistributed::AllReduce(controller, sums, 2, vtkCommunicator::SUM_OP);
  vtkGPUMeshDistributed::AllReduce(controller, &rounds, 1, vtkCommunicator::MAX_OP);
  vtkGPUMeshDistributed::AllReduce(controller, &largest, 1, vtkCommunicator::MAX_OP);
  vtkGPUMeshRunReport::SetFieldCount(field, "TrianglesIn", static_cast<std::uint64_t>(sums[0]));
  vtkGPUMeshRunReport::SetFieldCount(field, "TrianglesOut", static_cast<std::uint64_t>(sums[1]));
  vtkGPUMeshRunReport::SetFieldCount(field, "Rounds", static_cast<std::uint64_t>(rounds));
  const double achieved = sums[0] > 0 ? 1.0 - static_cast<double>(sums[1]) / static_cast<double>(sums[0]) : 0.0;
  vtkGPUMeshRunReport::SetFieldValue(field, "AchievedReduction", achieved);
  vtkGPUMeshRunReport::SetFieldValue(field, "LargestQuadricError", largest);
  vtkGPUMeshRunReport::SetFieldValue(field, "HostTimeMs_output", outputMs);
  if (!result.reachedTarget)
  {
    std::ostringstream why;
    why << "GPU Decimation stopped at " << triangleCount << " triangles" << (controller ? " on this process" : "")
        << " short of its target of " << options.targetTriangles << ": no edge may collapse any more under";
    if (this->PreserveBoundary)
      why << " Preserve Boundary,";
    if (this->PreserveTopology)
      why << " Preserve Topology (the link condition),";
    if (this->PreserveFeatures)
      why << " Preserve Features (Feature Angle " << this->FeatureAngle << "),";
    if (this->MaximumError < DBL_MAX)
      why << " Maximum Error " << this->MaximumError << ",";
    why << " the checks against flipped, degenerate or duplicate triangles and the boundary's corners";
    if (controller)
      why << ", and the piece's interface with the other processes (frozen)";
    vtkWarningMacro(<< why.str());
  }
}

void vtkGPUDecimation::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "TargetReduction: " << this->TargetReduction << "\n";
  os << indent << "TargetCount: " << this->TargetCount << "\n";
  os << indent << "PreserveBoundary: " << this->PreserveBoundary << "\n";
  os << indent << "PreserveTopology: " << this->PreserveTopology << "\n";
  os << indent << "PreserveFeatures: " << this->PreserveFeatures << "\n";
  os << indent << "FeatureAngle: " << this->FeatureAngle << "\n";
  os << indent << "MaximumError: " << this->MaximumError << "\n";
  os << indent << "PassThroughPointIds: " << this->PassThroughPointIds << "\n";
  os << indent << "PassThroughCellIds: " << this->PassThroughCellIds << "\n";
}
