// Verdict's cell quality measures (those of vtkMeshQuality), computed on the device.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

namespace gpumesh
{

/// The measures of vtkMeshQuality, numbered as its QualityMeasureTypes (VTK 9.2), which is what
/// ParaView's Mesh Quality properties hold.
enum class QualityMeasure : int
{
  EdgeRatio = 0,
  AspectRatio = 1,
  RadiusRatio = 2,
  AspectFrobenius = 3,
  MedAspectFrobenius = 4,
  MaxAspectFrobenius = 5,
  MinAngle = 6,
  CollapseRatio = 7,
  MaxAngle = 8,
  Condition = 9,
  ScaledJacobian = 10,
  Shear = 11,
  RelativeSizeSquared = 12,
  Shape = 13,
  ShapeAndSize = 14,
  Distortion = 15,
  MaxEdgeRatio = 16,
  Skew = 17,
  Taper = 18,
  Volume = 19,
  Stretch = 20,
  Diagonal = 21,
  Dimension = 22,
  Oddy = 23,
  ShearAndSize = 24,
  Jacobian = 25,
  Warpage = 26,
  AspectGamma = 27,
  Area = 28,
  EquiangleSkew = 29,
  EquivolumeSkew = 30,
  MaxStretch = 31,
  MeanAspectFrobenius = 32,
  MeanRatio = 33,
  NodalJacobianRatio = 34,
  NormalizedInradius = 35,
  SquishIndex = 36
};
constexpr int qualityMeasureCount = 37;

/// ParaView's label of the measure ("Radius Ratio", "Maximum Aspect Frobenius"), or "measure N"
/// for a number that names none.
std::string qualityMeasureName(int measure);

/// Whether ParaView 5.11's Mesh Quality offers `measure` for cells of `kind` (triangles, quads,
/// tetrahedra, pyramids, wedges and hexahedra; no measure for other kinds).
bool qualityMeasureOffered(CellKind kind, int measure);

/// Whether this core computes `measure` for cells of `kind` (today: every offered one).
bool qualityMeasureImplemented(CellKind kind, int measure);

/// The names of the measures implemented for `kind`, comma-separated (for messages and docs).
std::string implementedQualityMeasures(CellKind kind);

/// Whether the measure compares each cell with the average size (area or volume) of the cells
/// of its kind: Relative Size Squared, Shape and Size, Shear and Size.
bool qualityMeasureNeedsAverageSize(int measure);

/// The size Verdict compares a cell of `kind` with for those measures: Area for triangles and
/// quads, Volume for the 3D kinds.
QualityMeasure sizeMeasureOf(CellKind kind);

/// Which program computes a measure: the kind's (mesh_quality_<kind>, every measure in one
/// switch) or one built for the measure alone (-DMEASURE). GPU drivers compile the whole switch
/// for seconds, so OnGPUs builds a program per measure there and the kind's on CPUs.
enum class QualityProgram
{
  OnGPUs,
  PerMeasure,
  PerKind
};

/// Computes `measure` for every cell of `group` (points: the mesh's, in the run's precision)
/// into quality[cell id], as Verdict computes it. `averageSize` is the average area or volume
/// of the kind's cells over the whole mesh, read only by the measures that need it. Throws
/// gpumesh::Error, computing nothing, when the measure is not computed for the kind, naming the
/// measure, the kind and the measures that are.
void computeGroupQuality(DeviceRun& run, const DeviceCellGroup& group, const RealBuffer& points,
  int measure, double averageSize, RealBuffer& quality, QualityProgram program = QualityProgram::OnGPUs);

/// The values of `group`'s cells in group order: result[i] = values[cell id of its cell i].
RealBuffer groupValues(DeviceRun& run, const DeviceCellGroup& group, const RealBuffer& values);

/// How a point's value comes from the values of the cells around it.
enum class PointReduction : int
{
  Minimum = 1,
  Maximum = 2,
  Mean = 3
};

/// For every point of `mesh`: the minimum, maximum or mean of `cellValues` (indexed by cell id)
/// over the cells of mesh's groups that use the point, NaN values left out; NaN for a point
/// without such a value. The mean is a compensated sum over the count, independent of the
/// order of the cells (but for ties of rounding).
RealBuffer pointValuesOfCells(
  DeviceRun& run, const DeviceMesh& mesh, const RealBuffer& cellValues, PointReduction reduction);

} // namespace gpumesh
