// Verdict's quality measures through the core alone (no VTK): known values of ideal cells, and
// the refusal of a measure the kind does not have. testing/python/TestMeshQuality.py compares
// every measure with vtkMeshQuality.
#include "gpumesh/algorithms/MeshQuality.h"
#include "gpumesh/mesh/HostMesh.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace gpumesh;

namespace
{
// One cell of `kind` on `xyz` (its corners in order), measured in double precision.
double qualityOf(CellKind kind, const std::vector<double>& xyz, QualityMeasure measure, double averageSize = 0.0,
  QualityProgram program = QualityProgram::OnGPUs)
{
  const auto corners = static_cast<std::int64_t>(xyz.size() / 3);
  std::vector<std::int64_t> ids(static_cast<std::size_t>(corners));
  for (std::int64_t k = 0; k < corners; ++k)
    ids[static_cast<std::size_t>(k)] = k;
  HostMesh mesh;
  mesh.setPoints(xyz.data(), corners);
  mesh.setCellCount(1);
  mesh.addCell(0, kind, ids.data(), corners);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  DeviceMesh deviceMesh(run, mesh);
  RealBuffer quality = run.allocateReal(1, "quality");
  computeGroupQuality(
    run, deviceMesh.groups().front(), deviceMesh.points(), static_cast<int>(measure), averageSize, quality, program);
  double value = NAN;
  run.download(quality, &value, 1, "quality");
  return value;
}

const double h = std::sqrt(3.0) / 2;
const std::vector<double> equilateral = { 0, 0, 0, 1, 0, 0, 0.5, h, 0 };
const std::vector<double> regularTetra = { 0, 0, 0, 1, 0, 0, 0.5, h, 0, 0.5, h / 3, std::sqrt(2.0 / 3.0) };
const std::vector<double> unitSquare = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0 };
const std::vector<double> unitCube = { 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1 };
const std::vector<double> equilateralPrism = { 0, 0, 0, 1, 0, 0, 0.5, h, 0, 0, 0, 1, 1, 0, 1, 0.5, h, 1 };
} // namespace

TEST(MeshQuality, IdealCellsHaveTheirIdealValues)
{
  EXPECT_NEAR(qualityOf(CellKind::Triangle, equilateral, QualityMeasure::RadiusRatio), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Triangle, equilateral, QualityMeasure::AspectRatio), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Triangle, equilateral, QualityMeasure::MinAngle), 60.0, 1e-10);
  EXPECT_NEAR(qualityOf(CellKind::Triangle, equilateral, QualityMeasure::RelativeSizeSquared, h / 2), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Tetra, regularTetra, QualityMeasure::RadiusRatio), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Tetra, regularTetra, QualityMeasure::MeanRatio), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Tetra, regularTetra, QualityMeasure::NormalizedInradius), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Quad, unitSquare, QualityMeasure::EdgeRatio), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Quad, unitSquare, QualityMeasure::Distortion), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Hexahedron, unitCube, QualityMeasure::MaxAspectFrobenius), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Hexahedron, unitCube, QualityMeasure::Volume), 1.0, 1e-12);
  EXPECT_NEAR(qualityOf(CellKind::Wedge, equilateralPrism, QualityMeasure::Shape), 1.0, 1e-12);
  // Verdict's sentinel for a flat triangle.
  EXPECT_EQ(qualityOf(CellKind::Triangle, { 0, 0, 0, 1, 0, 0, 2, 0, 0 }, QualityMeasure::AspectRatio), 1e30);
}

// GPUs build a program per measure, CPUs one per kind: both give the same value, bit for bit,
// for every measure of a skewed triangle and the first six of a skewed tetrahedron (a build per
// measure on a CPU takes about a second).
TEST(MeshQuality, AProgramPerMeasureGivesThePerKindProgramsValues)
{
  const std::vector<std::pair<CellKind, std::vector<double>>> cells = {
    { CellKind::Triangle, { 0.1, -0.2, 0.05, 1.3, 0.1, -0.1, 0.4, 0.9, 0.2 } },
    { CellKind::Tetra, { 0, 0, 0, 1.2, 0.1, 0, 0.3, 0.8, 0.1, 0.4, 0.3, 0.7 } },
  };
  int compared = 0;
  for (const auto& [kind, xyz] : cells)
  {
    const int limit = kind == CellKind::Tetra ? 6 : 15;
    int ofKind = 0;
    for (int m = 0; m <= static_cast<int>(QualityMeasure::SquishIndex) && ofKind < limit; ++m)
    {
      if (!qualityMeasureImplemented(kind, m))
        continue;
      ++ofKind;
      const auto measure = static_cast<QualityMeasure>(m);
      const double perKind = qualityOf(kind, xyz, measure, 0.3, QualityProgram::PerKind);
      const double perMeasure = qualityOf(kind, xyz, measure, 0.3, QualityProgram::PerMeasure);
      EXPECT_TRUE(std::isfinite(perKind)) << cellKindName(kind) << " " << qualityMeasureName(m);
      EXPECT_EQ(perKind, perMeasure) << cellKindName(kind) << " " << qualityMeasureName(m);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 21);
}

TEST(MeshQuality, AMeasureTheKindDoesNotHaveIsRefusedByName)
{
  try
  {
    qualityOf(CellKind::Triangle, equilateral, QualityMeasure::MaxEdgeRatio);
    FAIL() << "no error";
  }
  catch (const Error& error)
  {
    const std::string message = error.what();
    EXPECT_NE(message.find("Quality measure 16 (Maximum Edge Ratio) is not computed for triangle cells"),
      std::string::npos) << message;
    EXPECT_NE(message.find("Radius Ratio"), std::string::npos) << message;
  }
  EXPECT_TRUE(qualityMeasureImplemented(CellKind::Tetra, static_cast<int>(QualityMeasure::SquishIndex)));
  EXPECT_FALSE(qualityMeasureImplemented(CellKind::Polygon, static_cast<int>(QualityMeasure::Area)));
  EXPECT_EQ(implementedQualityMeasures(CellKind::Line), "none");
}
