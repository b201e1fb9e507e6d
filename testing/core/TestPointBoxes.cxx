// A mesh's box and its points inside boxes (PointBoxes.h) against host loops in double: exact
// where the device holds the input's coordinates (float points in Single, double points in
// Double), borders included; a superset within float rounding where it rounds them (double
// points in Single); empty meshes and empty boxes.
#include "gpumesh/mesh/PointBoxes.h"

#include "gpumesh/mesh/HostMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace gpumesh;

namespace
{
constexpr double inf = std::numeric_limits<double>::infinity();

// `n` points on a coarse lattice (many share coordinates, so boxes built from points have
// points on their borders), shifted by `offset`, as values of type Real.
template <typename Real>
std::vector<Real> latticePoints(std::size_t n, double offset, unsigned seed)
{
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> step(-40, 40);
  std::vector<Real> xyz;
  for (std::size_t i = 0; i < 3 * n; ++i)
    xyz.push_back(static_cast<Real>(offset + 0.125 * step(random)));
  return xyz;
}

template <typename Real>
HostMesh meshOf(const std::vector<Real>& xyz)
{
  HostMesh mesh;
  mesh.setPoints(xyz.data(), static_cast<std::int64_t>(xyz.size() / 3));
  mesh.setCellCount(0);
  return mesh;
}

template <typename Real>
PointBox hostBox(const std::vector<Real>& xyz)
{
  PointBox box{ inf, -inf, inf, -inf, inf, -inf };
  for (std::size_t i = 0; i < xyz.size(); ++i)
  {
    const int c = static_cast<int>(i % 3);
    box[2 * c] = std::min(box[2 * c], static_cast<double>(xyz[i]));
    box[2 * c + 1] = std::max(box[2 * c + 1], static_cast<double>(xyz[i]));
  }
  return box;
}

template <typename Real>
std::vector<cl_int> hostInBoxes(const std::vector<Real>& xyz, const std::vector<PointBox>& boxes)
{
  std::vector<cl_int> found;
  for (std::size_t p = 0; p < xyz.size() / 3; ++p)
  {
    for (const PointBox& box : boxes)
    {
      bool inside = true;
      for (int c = 0; c < 3; ++c)
      {
        const double v = xyz[3 * p + c];
        inside = inside && box[2 * c] <= v && v <= box[2 * c + 1];
      }
      if (inside)
      {
        found.push_back(static_cast<cl_int>(p));
        break;
      }
    }
  }
  return found;
}

// Boxes with borders on lattice values (points lie on them), one of a single point, one empty
// and one unbounded in x.
template <typename Real>
std::vector<PointBox> someBoxes(const std::vector<Real>& xyz, double offset)
{
  const double o = offset;
  return {
    { o - 2.5, o - 0.5, o - 5.0, o + 5.0, o - 5.0, o + 5.0 },
    { o + 1.0, o + 1.0, o - 1.0, o + 1.0, o - 0.25, o + 0.25 },
    { static_cast<double>(xyz[0]), static_cast<double>(xyz[0]), static_cast<double>(xyz[1]),
      static_cast<double>(xyz[1]), static_cast<double>(xyz[2]), static_cast<double>(xyz[2]) },
    { inf, -inf, inf, -inf, inf, -inf },
    { -inf, inf, o + 3.0, o + 3.5, o - 5.0, o - 4.0 },
  };
}

template <typename Real>
void expectExact(Precision precision, double offset)
{
  const std::vector<Real> xyz = latticePoints<Real>(20000, offset, 3);
  const HostMesh host = meshOf(xyz);
  DeviceRun run(DeviceContext::acquire("0"), precision);
  const DeviceMesh mesh(run, host);
  EXPECT_EQ(pointsBox(run, mesh), hostBox(xyz));
  const std::vector<PointBox> boxes = someBoxes(xyz, offset);
  const std::vector<cl_int> expected = hostInBoxes(xyz, boxes);
  ASSERT_GT(expected.size(), 100u);
  EXPECT_EQ(pointsInBoxes(run, mesh, boxes), expected);
  EXPECT_TRUE(pointsInBoxes(run, mesh, { boxes[3] }).empty());
  EXPECT_TRUE(pointsInBoxes(run, mesh, {}).empty());
}
} // namespace

TEST(PointBoxes, FloatPointsInSingleAreExact)
{
  expectExact<float>(Precision::Single, 0.0);
  expectExact<float>(Precision::Single, 1000.0);
}

TEST(PointBoxes, DoublePointsInDoubleAreExact)
{
  expectExact<double>(Precision::Double, 0.0);
  expectExact<double>(Precision::Double, 1.0e6 + 0.1);
}

TEST(PointBoxes, RoundedPointsGiveASupersetWithinTheirRounding)
{
  // Double points far from the origin in Single: rounded to float relative to their centre.
  const double offset = 1.0e5 + 1.0 / 3.0;
  const std::vector<double> xyz = latticePoints<double>(20000, offset, 5);
  const HostMesh host = meshOf(xyz);
  DeviceRun run(DeviceContext::acquire("0"), Precision::Single);
  const DeviceMesh mesh(run, host);
  ASSERT_NE(mesh.origin()[0], 0.0);
  const PointBox exactBox = hostBox(xyz);
  const PointBox box = pointsBox(run, mesh);
  for (int k = 0; k < 6; ++k)
    EXPECT_NEAR(box[k], exactBox[k], 1e-5) << "bound " << k;
  const std::vector<PointBox> boxes = someBoxes(xyz, offset);
  const std::vector<cl_int> exact = hostInBoxes(xyz, boxes);
  const std::vector<cl_int> found = pointsInBoxes(run, mesh, boxes);
  EXPECT_TRUE(std::includes(found.begin(), found.end(), exact.begin(), exact.end()));
  EXPECT_TRUE(std::is_sorted(found.begin(), found.end()));
  // What is more lies within float rounding of a box: inside the boxes grown by 1e-5.
  std::vector<PointBox> grown = boxes;
  for (PointBox& b : grown)
    for (int k = 0; k < 6; ++k)
      b[k] += (k % 2 ? 1e-5 : -1e-5);
  const std::vector<cl_int> near = hostInBoxes(xyz, grown);
  EXPECT_TRUE(std::includes(near.begin(), near.end(), found.begin(), found.end()));
}

TEST(PointBoxes, AnEmptyMeshHasAnEmptyBoxAndNoPoints)
{
  const HostMesh host = meshOf(std::vector<float>());
  DeviceRun run(DeviceContext::acquire("0"));
  const DeviceMesh mesh(run, host);
  EXPECT_EQ(pointsBox(run, mesh), (PointBox{ inf, -inf, inf, -inf, inf, -inf }));
  EXPECT_TRUE(pointsInBoxes(run, mesh, { { -inf, inf, -inf, inf, -inf, inf } }).empty());
}
