#include "vtkGPUDecimation.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkFieldData.h"
#include "vtkIdTypeArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkSmartPointer.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshRunReport.h"

#include "gpumesh/algorithms/Decimation.h"

#include <algorithm>
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
} // namespace

void vtkGPUDecimation::ExecuteOnDevice(
  vtkInformationVector**, vtkPointSet* input, vtkPointSet* output, gpumesh::DeviceRun& run)
{
  if (vtkGPUMeshDistributed::GetController())
  {
    throw gpumesh::Error("GPU Decimation runs on one process only: decimating each piece with its interface "
                         "frozen is not implemented yet (apply it before distributing, or on one process)");
  }
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
  RequireTriangles(input);
  const vtkIdType trianglesIn = input->GetNumberOfCells();

  const vtkGPUMeshAdapter::MeshDescription description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
  const gpumesh::DeviceMesh mesh(run, description.view);
  this->UpdateProgress(0.1);

  gpumesh::DecimationOptions options;
  options.targetTriangles = this->TargetCount > 0
    ? static_cast<std::int64_t>(this->TargetCount)
    : static_cast<std::int64_t>(std::ceil(static_cast<double>(trianglesIn) * (1.0 - this->TargetReduction) - 1e-9));
  options.preserveBoundary = this->PreserveBoundary;
  options.preserveTopology = this->PreserveTopology;
  options.preserveFeatures = this->PreserveFeatures;
  options.featureAngle = this->FeatureAngle;
  options.maximumError = this->MaximumError;
  const gpumesh::DecimatedSurface result = gpumesh::decimateTriangles(run, mesh, options);
  this->UpdateProgress(0.8);

  // Points: an unmerged point exactly as in the input, a merged one where the collapses put it.
  const auto pointCount = static_cast<vtkIdType>(result.pointSource.size());
  vtkNew<vtkPoints> points;
  points->SetDataType(input->GetPoints() ? input->GetPoints()->GetDataType() : VTK_FLOAT);
  points->SetNumberOfPoints(pointCount);
  vtkPointData* inPD = input->GetPointData();
  vtkNew<vtkPointData> outPD;
  outPD->InterpolateAllocate(inPD, pointCount);
  for (vtkIdType i = 0; i < pointCount; ++i)
  {
    const vtkIdType source = result.pointSource[i];
    const vtkIdType partner = result.pointPartner[i];
    if (partner < 0)
    {
      double p[3];
      input->GetPoint(source, p);
      points->SetPoint(i, p);
      outPD->CopyData(inPD, source, i);
    }
    else
    {
      const double* p = &result.points[3 * i];
      points->SetPoint(i, p);
      double a[3], b[3];
      input->GetPoint(source, a);
      input->GetPoint(partner, b);
      outPD->InterpolateEdge(inPD, i, source, partner, EdgeWeight(a, b, p));
    }
  }
  if (this->PassThroughPointIds)
  {
    vtkNew<vtkIdTypeArray> ids;
    ids->SetName("vtkOriginalPointIds");
    ids->SetNumberOfTuples(pointCount);
    for (vtkIdType i = 0; i < pointCount; ++i)
      ids->SetValue(i, result.pointSource[i]);
    outPD->AddArray(ids);
  }

  // Triangles and their input cells' data.
  const auto triangleCount = static_cast<vtkIdType>(result.cellParent.size());
  vtkNew<vtkCellArray> cells;
  {
    vtkNew<vtkIdTypeArray> offsets, connectivity;
    offsets->SetNumberOfTuples(triangleCount + 1);
    connectivity->SetNumberOfTuples(3 * triangleCount);
    for (vtkIdType t = 0; t <= triangleCount; ++t)
      offsets->SetValue(t, 3 * t);
    for (vtkIdType i = 0; i < 3 * triangleCount; ++i)
      connectivity->SetValue(i, result.triangles[i]);
    cells->SetData(offsets, connectivity);
  }
  vtkCellData* inCD = input->GetCellData();
  vtkNew<vtkCellData> outCD;
  outCD->CopyAllocate(inCD, triangleCount);
  for (vtkIdType t = 0; t < triangleCount; ++t)
    outCD->CopyData(inCD, result.cellParent[t], t);
  if (this->PassThroughCellIds)
  {
    vtkNew<vtkIdTypeArray> ids;
    ids->SetName("vtkOriginalCellIds");
    ids->SetNumberOfTuples(triangleCount);
    for (vtkIdType t = 0; t < triangleCount; ++t)
      ids->SetValue(t, result.cellParent[t]);
    outCD->AddArray(ids);
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
  output->GetPointData()->ShallowCopy(outPD);
  output->GetCellData()->ShallowCopy(outCD);
  vtkFieldData* field = output->GetFieldData();
  field->PassData(input->GetFieldData());
  vtkGPUMeshRunReport::SetFieldCount(field, "TrianglesIn", static_cast<std::uint64_t>(trianglesIn));
  vtkGPUMeshRunReport::SetFieldCount(field, "TrianglesOut", static_cast<std::uint64_t>(triangleCount));
  vtkGPUMeshRunReport::SetFieldCount(field, "Rounds", result.rounds);
  const double achieved = trianglesIn > 0 ? 1.0 - static_cast<double>(triangleCount) / trianglesIn : 0.0;
  vtkGPUMeshRunReport::SetFieldValue(field, "AchievedReduction", achieved);
  vtkGPUMeshRunReport::SetFieldValue(field, "LargestQuadricError", result.largestError);
  if (!result.reachedTarget)
  {
    std::ostringstream why;
    why << "GPU Decimation stopped at " << triangleCount << " triangles (reduction " << achieved << ") short of its target of "
        << options.targetTriangles << ": no edge may collapse any more under";
    if (this->PreserveBoundary)
      why << " Preserve Boundary,";
    if (this->PreserveTopology)
      why << " Preserve Topology (the link condition),";
    if (this->PreserveFeatures)
      why << " Preserve Features (Feature Angle " << this->FeatureAngle << "),";
    if (this->MaximumError < DBL_MAX)
      why << " Maximum Error " << this->MaximumError << ",";
    why << " the checks against flipped, degenerate or duplicate triangles and the boundary's corners";
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
