// A 2D or 3D cell listing a point more than once (a triangle (5, 5, 7)) is an error naming that
// cell and point, in the refinement and the neighbour distances, not a fault blamed on the
// neighbour or a neighbour counted twice.
#include "TestMesh.h"

#include "gpumesh/algorithms/NeighborDistance.h"
#include "gpumesh/algorithms/refinement/LongestEdgeRefinement.h"

#include <gtest/gtest.h>

using namespace gpumesh;
using testmesh::Mesh;

namespace
{
// The unit square as triangles 0 (0, 1, 2) and 1 (1, 3, 2), and a triangle 2 (3, 3, 1) that
// repeats point 3: edge {1, 3} is then listed by cell 1 once and by cell 2 twice.
Mesh squareAndRepeatedTriangle()
{
  Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0 };
  mesh.cells = { { CellKind::Triangle, { 0, 1, 2 } }, { CellKind::Triangle, { 1, 3, 2 } },
    { CellKind::Triangle, { 3, 3, 1 } } };
  return mesh;
}

std::string refinementError(const Mesh& mesh)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  try
  {
    refineLongestEdges(run, DeviceMesh(run, testmesh::toHost(mesh)), { 0 }, 1);
  }
  catch (const Error& error)
  {
    return error.what();
  }
  return "no error";
}

std::string neighborDistanceError(const Mesh& mesh)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  try
  {
    const DeviceMesh deviceMesh(run, testmesh::toHost(mesh));
    const CellEntities sides(run, deviceMesh, EntityType::Sides);
    computeNeighborDistances(run, deviceMesh, sides, computeCentroids(run, deviceMesh));
  }
  catch (const Error& error)
  {
    return error.what();
  }
  return "no error";
}
} // namespace

TEST(RepeatedPoints, RefinementNamesTheCellAndItsRepeatedPoint)
{
  const std::string message = refinementError(squareAndRepeatedTriangle());
  EXPECT_NE(message.find("Cell 2 lists point 3 more than once"), std::string::npos) << message;
  EXPECT_NE(message.find("longest-edge refinement"), std::string::npos) << message;
  EXPECT_EQ(message.find("more than two triangles"), std::string::npos) << message;
}

TEST(RepeatedPoints, NeighborDistanceNamesTheCellAndItsRepeatedPoint)
{
  const std::string message = neighborDistanceError(squareAndRepeatedTriangle());
  EXPECT_NE(message.find("Cell 2 lists point 3 more than once"), std::string::npos) << message;
  EXPECT_NE(message.find("neighbour distance"), std::string::npos) << message;
}

TEST(RepeatedPoints, TheSmallestOffendingCellIsNamedWhateverTheCellKind)
{
  // A polygon (variable size) and a tetrahedron (fixed size), both repeating a point; the
  // smaller id wins whatever the launch order of the groups.
  Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0 };
  mesh.cells = { { CellKind::Tetra, { 0, 1, 2, 3 } }, { CellKind::Polygon, { 0, 1, 4, 2, 4 } },
    { CellKind::Tetra, { 0, 1, 2, 1 } } };
  std::string message = neighborDistanceError(mesh);
  EXPECT_NE(message.find("Cell 1 lists point 4 more than once"), std::string::npos) << message;
  mesh.cells[1].ids = { 0, 1, 4, 2 };
  message = neighborDistanceError(mesh);
  EXPECT_NE(message.find("Cell 2 lists point 1 more than once"), std::string::npos) << message;
}

TEST(RepeatedPoints, ValidMeshesAndClosedPolylinesPass)
{
  Mesh mesh = squareAndRepeatedTriangle();
  mesh.cells.pop_back();
  EXPECT_EQ(refinementError(mesh), "no error");
  // A closed polyline repeats its first point by design: 1D cells are not checked.
  mesh.cells.push_back({ CellKind::PolyLine, { 0, 1, 3, 2, 0 } });
  EXPECT_EQ(neighborDistanceError(mesh), "no error");
}
