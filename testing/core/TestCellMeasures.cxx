// Cell measures of hand-made cells with known lengths, areas and volumes.
#include "gpumesh/algorithms/CellMeasures.h"
#include "gpumesh/mesh/HostMesh.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace gpumesh;

namespace
{
struct Cell
{
  CellKind kind;
  std::vector<std::int64_t> ids;
};

std::vector<double> measure(const std::vector<double>& xyz, const std::vector<Cell>& cells, Measure what,
  Precision precision = Precision::Single)
{
  HostMesh mesh;
  mesh.setPoints(xyz.data(), static_cast<std::int64_t>(xyz.size() / 3));
  mesh.setCellCount(static_cast<std::int64_t>(cells.size()));
  for (std::size_t i = 0; i < cells.size(); ++i)
  {
    if (cells[i].ids.empty())
    {
      continue; // a cell the adapter leaves out, such as a vertex
    }
    mesh.addCell(static_cast<std::int64_t>(i), cells[i].kind, cells[i].ids.data(),
      static_cast<std::int64_t>(cells[i].ids.size()));
  }
  DeviceRun run(DeviceContext::acquire("auto"), precision);
  DeviceMesh deviceMesh(run, mesh);
  RealBuffer result = computeCellMeasures(run, deviceMesh, what);
  std::vector<double> host(cells.size());
  run.download(result, host.data(), host.size(), "measures");
  return host;
}

// Unit cube corners in VTK hexahedron order, shifted far from the origin.
const double X0 = 1000.0;
const std::vector<double> cube = { X0, 0, 0, X0 + 1, 0, 0, X0 + 1, 1, 0, X0, 1, 0, X0, 0, 1, X0 + 1,
  0, 1, X0 + 1, 1, 1, X0, 1, 1 };
} // namespace

TEST(CellMeasures, VolumesOfUnitCubeShapes)
{
  const std::vector<Cell> cells = {
    { CellKind::Hexahedron, { 0, 1, 2, 3, 4, 5, 6, 7 } },
    { CellKind::Tetra, { 0, 1, 3, 4 } },
    // VTK wedge: base 0-3-1 has its normal pointing away from 4-7-5 (half the cube).
    { CellKind::Wedge, { 0, 3, 1, 4, 7, 5 } },
    // Pyramid on the bottom face with apex at a top corner: volume 1/3.
    { CellKind::Pyramid, { 0, 1, 2, 3, 6 } },
    { CellKind::Tetra, { 0, 3, 1, 4 } }, // inverted: negative volume
  };
  const auto v = measure(cube, cells, Measure::Volume);
  EXPECT_NEAR(v[0], 1.0, 1e-6);
  EXPECT_NEAR(v[1], 1.0 / 6.0, 1e-6);
  EXPECT_NEAR(v[2], 0.5, 1e-6);
  EXPECT_NEAR(v[3], 1.0 / 3.0, 1e-6);
  EXPECT_NEAR(v[4], -1.0 / 6.0, 1e-6);
}

TEST(CellMeasures, TrilinearHexahedronWithTwistedFaces)
{
  // Top face twisted: the exact trilinear volume, integrated in double by the midpoint rule
  // on a fine grid, is the reference.
  std::vector<double> p = { 0, 0, 0, 2, 0, 0, 2, 1, 0, 0, 1, 0, 0, 0, 1, 2, 0, 1.5, 2.2, 1.3, 0.8, 0, 1, 1.2 };
  const auto v = measure(p, { { CellKind::Hexahedron, { 0, 1, 2, 3, 4, 5, 6, 7 } } }, Measure::Volume);
  const int n = 40;
  double reference = 0.0;
  auto x = [&](int k, int c) { return p[3 * k + c]; };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k)
      {
        const double r = (i + 0.5) / n, s = (j + 0.5) / n, t = (k + 0.5) / n;
        double J[3][3];
        for (int c = 0; c < 3; ++c)
        {
          J[c][0] = (1 - s) * (1 - t) * (x(1, c) - x(0, c)) + s * (1 - t) * (x(2, c) - x(3, c)) +
            (1 - s) * t * (x(5, c) - x(4, c)) + s * t * (x(6, c) - x(7, c));
          J[c][1] = (1 - r) * (1 - t) * (x(3, c) - x(0, c)) + r * (1 - t) * (x(2, c) - x(1, c)) +
            (1 - r) * t * (x(7, c) - x(4, c)) + r * t * (x(6, c) - x(5, c));
          J[c][2] = (1 - r) * (1 - s) * (x(4, c) - x(0, c)) + r * (1 - s) * (x(5, c) - x(1, c)) +
            r * s * (x(6, c) - x(2, c)) + (1 - r) * s * (x(7, c) - x(3, c));
        }
        const double det = J[0][0] * (J[1][1] * J[2][2] - J[1][2] * J[2][1]) -
          J[0][1] * (J[1][0] * J[2][2] - J[1][2] * J[2][0]) + J[0][2] * (J[1][0] * J[2][1] - J[1][1] * J[2][0]);
        reference += det / (n * n * n);
      }
  EXPECT_NEAR(v[0], reference, 1e-4 * reference);
}

TEST(CellMeasures, LengthsAndAreas)
{
  // An L-shaped hexagon (area 3), a square, a non-planar quad, a strip, a polyline.
  const std::vector<double> p = { 0, 0, 0, 2, 0, 0, 2, 1, 0, 1, 1, 0, 1, 2, 0, 0, 2, 0, // 0-5 L shape
    0, 0, 1, 1, 0, 1, 1, 1, 1, 0, 1, 1.5 };                                                 // 6-9 quad
  const std::vector<Cell> cells = {
    { CellKind::Polygon, { 0, 1, 2, 3, 4, 5 } },
    { CellKind::Quad, { 6, 7, 8, 9 } },
    { CellKind::TriangleStrip, { 0, 1, 5, 4 } }, // triangles of area 2 and 1
    { CellKind::PolyLine, { 0, 1, 2 } },
    { CellKind::Line, { 0, 4 } },
    { CellKind::Triangle, { 0, 1, 5 } },
    { CellKind::Line, {} }, // left out of the mesh
    { CellKind::Tetra, { 6, 7, 8, 0 } }, // left-handed: volume -1/6
  };
  const auto size = measure(p, cells, Measure::Size);
  EXPECT_NEAR(size[0], 3.0, 1e-6);
  // Vector area of the skew quad: 0.5 * |(p8 - p6) x (p9 - p7)|.
  EXPECT_NEAR(size[1], 0.5 * std::sqrt(0.25 + 0.25 + 4.0), 1e-6);
  EXPECT_NEAR(size[2], 3.0, 1e-6);
  EXPECT_NEAR(size[3], 3.0, 1e-6);
  EXPECT_NEAR(size[4], std::sqrt(5.0), 1e-6);
  EXPECT_NEAR(size[5], 2.0, 1e-6);
  EXPECT_TRUE(std::isnan(size[6])); // cells left out keep NaN
  EXPECT_NEAR(size[7], -1.0 / 6.0, 1e-6);

  const auto area = measure(p, cells, Measure::Area);
  EXPECT_NEAR(area[0], 3.0, 1e-6);
  EXPECT_TRUE(std::isnan(area[3]));
  EXPECT_TRUE(std::isnan(area[7]));
  const auto length = measure(p, cells, Measure::Length);
  EXPECT_TRUE(std::isnan(length[0]));
  EXPECT_NEAR(length[4], std::sqrt(5.0), 1e-6);
  const auto volume = measure(p, cells, Measure::Volume);
  EXPECT_TRUE(std::isnan(volume[5]));
  EXPECT_NEAR(volume[7], -1.0 / 6.0, 1e-6);
}

TEST(CellMeasures, DegenerateCellsMeasureZero)
{
  const std::vector<double> p = { 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 1, 0 };
  const auto size = measure(p,
    { { CellKind::Triangle, { 0, 1, 2 } }, { CellKind::Tetra, { 0, 1, 2, 3 } }, { CellKind::Line, { 1, 1 } } },
    Measure::Size);
  EXPECT_EQ(size[0], 0.0f);
  EXPECT_EQ(size[1], 0.0f);
  EXPECT_EQ(size[2], 0.0f);
}

// Cells of 1e-3 at 10^8 from the origin: double kernels, computing relative to a corner of
// each cell, give their measures to double's own rounding.
TEST(CellMeasures, SmallCellsFarFromTheOriginInBothPrecisions)
{
  const double far = 1e8, h = 1e-3;
  std::vector<double> xyz;
  for (double z : { 0.0, h })
    for (double y : { 0.0, h })
      for (double x : { 0.0, h })
        xyz.insert(xyz.end(), { far + x, far + y, far + z });
  // VTK hexahedron order from the raster order above.
  const std::vector<Cell> cells = { { CellKind::Hexahedron, { 0, 1, 3, 2, 4, 5, 7, 6 } },
    { CellKind::Tetra, { 0, 1, 2, 4 } }, { CellKind::Triangle, { 0, 1, 3 } } };
  const double step = (far + h) - far; // what the points really hold (exact: Sterbenz)
  const double exact[3] = { step * step * step, step * step * step / 6, step * step / 2 };
  const auto d = measure(xyz, cells, Measure::Size, Precision::Double);
  for (int c = 0; c < 3; ++c)
    EXPECT_NEAR(d[c] / exact[c], 1.0, 1e-9) << c;
}

TEST(HostMesh, RejectsBadInputNamingIt)
{
  HostMesh mesh;
  const std::vector<double> p = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  mesh.setPoints(p.data(), 3);
  mesh.setCellCount(2);
  const std::int64_t outside[3] = { 0, 1, 7 };
  try
  {
    mesh.addCell(1, CellKind::Triangle, outside, 3);
    FAIL();
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("Cell 1"), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("point 7"), std::string::npos) << error.what();
  }
  EXPECT_THROW(mesh.addCell(0, CellKind::Triangle, outside, 2), Error);
  EXPECT_THROW(mesh.addCell(5, CellKind::Triangle, outside, 3), Error);
  const std::vector<double> bad = { 0, 0, 0, NAN, 0, 0 };
  try
  {
    HostMesh withNaN;
    withNaN.setPoints(bad.data(), 2);
    DeviceRun run(DeviceContext::acquire("auto"));
    DeviceMesh deviceMesh(run, withNaN);
    FAIL();
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("Point 1"), std::string::npos) << error.what();
  }
  EXPECT_THROW(mesh.setCellCount(std::int64_t(1) << 31), Error);
}
