// The boundary faces of 3D cells against a host reference that counts each face's uses over the
// 3D cells, with VTK's face tables written out here independently of the core's.
#include "gpumesh/algorithms/SurfaceExtraction.h"

#include "MeshGenerators.h"
#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <map>
#include <vector>

using namespace gpumesh;
using namespace gpumesh::benchmark;

namespace
{
using Face = std::vector<std::int64_t>;
// (cell, the face's vertices in the cell's order)
using CellFace = std::pair<std::int64_t, Face>;

// VTK's faces of each 3D kind (vtkTetra::GetFaceArray, vtkHexahedron, vtkWedge, vtkPyramid).
std::vector<std::vector<int>> facesOf(CellKind kind)
{
  switch (kind)
  {
    case CellKind::Tetra:
      return { { 0, 1, 3 }, { 1, 2, 3 }, { 2, 0, 3 }, { 0, 2, 1 } };
    case CellKind::Hexahedron:
      return { { 0, 4, 7, 3 }, { 1, 2, 6, 5 }, { 0, 1, 5, 4 }, { 3, 7, 6, 2 }, { 0, 3, 2, 1 }, { 4, 5, 6, 7 } };
    case CellKind::Wedge:
      return { { 0, 1, 2 }, { 3, 5, 4 }, { 0, 3, 4, 1 }, { 1, 4, 5, 2 }, { 2, 5, 3, 0 } };
    case CellKind::Pyramid:
      return { { 0, 3, 2, 1 }, { 0, 1, 4 }, { 1, 2, 4 }, { 2, 3, 4 }, { 3, 0, 4 } };
    default:
      return {};
  }
}

// Every face of the 3D cells below `limit` that no other 3D cell of the mesh has.
std::vector<CellFace> referenceFaces(const testmesh::Mesh& mesh, std::int64_t limit = -1)
{
  std::map<Face, int> uses;
  for (const auto& cell : mesh.cells)
    for (const auto& local : facesOf(cell.kind))
    {
      Face key;
      for (int k : local)
        key.push_back(cell.ids[k]);
      std::sort(key.begin(), key.end());
      ++uses[key];
    }
  std::vector<CellFace> faces;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    if (limit >= 0 && static_cast<std::int64_t>(c) >= limit)
      continue;
    for (const auto& local : facesOf(mesh.cells[c].kind))
    {
      Face face;
      for (int k : local)
        face.push_back(mesh.cells[c].ids[k]);
      Face key = face;
      std::sort(key.begin(), key.end());
      if (uses[key] == 1)
        faces.emplace_back(static_cast<std::int64_t>(c), face);
    }
  }
  std::sort(faces.begin(), faces.end());
  return faces;
}

std::vector<CellFace> deviceFaces(const testmesh::Mesh& mesh, std::int64_t limit = -1, int minimumDimension = 1)
{
  DeviceRun run(DeviceContext::acquire("0"));
  const BoundaryFaces found = extractBoundaryFaces(run, DeviceMesh(run, testmesh::toHost(mesh), minimumDimension), limit);
  EXPECT_EQ(found.cells.size(), found.vertices.size());
  std::vector<CellFace> faces;
  for (std::size_t i = 0; i < found.cells.size(); ++i)
  {
    const cl_int4& v = found.vertices[i];
    Face face = { v.s[0], v.s[1], v.s[2] };
    if (v.s[3] >= 0)
      face.push_back(v.s[3]);
    faces.emplace_back(found.cells[i], face);
  }
  std::sort(faces.begin(), faces.end());
  return faces;
}

// The unit cube's 8 corners, then a ninth point above it (the apex of a pyramid on its top).
testmesh::Mesh cubeCorners()
{
  testmesh::Mesh mesh;
  for (int k = 0; k < 2; ++k)
    for (int j = 0; j < 2; ++j)
      for (int i = 0; i < 2; ++i)
        mesh.xyz.insert(mesh.xyz.end(), { double(i), double(j), double(k) });
  mesh.xyz.insert(mesh.xyz.end(), { 0.5, 0.5, 1.8 });
  return mesh;
}
} // namespace

TEST(SurfaceExtraction, SingleTetrahedronIsItsFourFaces)
{
  testmesh::Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  mesh.cells.push_back({ CellKind::Tetra, { 0, 1, 2, 3 } });
  const auto faces = deviceFaces(mesh);
  ASSERT_EQ(faces.size(), 4u);
  EXPECT_EQ(faces, referenceFaces(mesh));
  // In the cell's own (outward) order: its face 3 is 0-2-1 (seen from below), not 0-1-2.
  EXPECT_NE(std::find(faces.begin(), faces.end(), CellFace{ 0, { 0, 2, 1 } }), faces.end());
}

// The cube cut into its 6 Kuhn tetrahedra around the diagonal 0-7: 12 boundary triangles, 2 per
// side of the cube; the 6 inner faces (around the diagonal) are matched away.
TEST(SurfaceExtraction, InnerFacesOfTetrahedraAreMatched)
{
  testmesh::Mesh mesh = cubeCorners();
  for (const auto& t : std::vector<std::array<std::int64_t, 4>>{
         { 0, 1, 3, 7 }, { 0, 1, 5, 7 }, { 0, 2, 3, 7 }, { 0, 2, 6, 7 }, { 0, 4, 5, 7 }, { 0, 4, 6, 7 } })
    mesh.cells.push_back({ CellKind::Tetra, { t[0], t[1], t[2], t[3] } });
  const auto faces = deviceFaces(mesh);
  EXPECT_EQ(faces.size(), 12u);
  EXPECT_EQ(faces, referenceFaces(mesh));
}

// A hexahedron with a pyramid on its top (quad shared), a wedge on its side x = 1 (quad shared),
// a tetrahedron on the wedge's bottom triangle, and a triangle and a line that take no part in
// the matching: every kind's faces, in its own order.
TEST(SurfaceExtraction, MixedKindsAndLowerDimensions)
{
  testmesh::Mesh mesh = cubeCorners();
  mesh.xyz.insert(mesh.xyz.end(), { 2, 0, 0, 2, 0, 1 }); // 9, 10: the wedge's outer edge
  mesh.cells.push_back({ CellKind::Hexahedron, { 0, 1, 3, 2, 4, 5, 7, 6 } });
  mesh.cells.push_back({ CellKind::Pyramid, { 4, 5, 7, 6, 8 } });
  mesh.cells.push_back({ CellKind::Wedge, { 1, 9, 3, 5, 10, 7 } });
  mesh.cells.push_back({ CellKind::Tetra, { 1, 9, 3, 8 } });    // shares the wedge's bottom triangle 1-9-3
  mesh.cells.push_back({ CellKind::Triangle, { 0, 1, 5 } });    // on a hexahedron face: still boundary
  mesh.cells.push_back({ CellKind::Line, { 0, 8 } });
  const auto expected = referenceFaces(mesh);
  EXPECT_EQ(deviceFaces(mesh), expected);
  EXPECT_EQ(deviceFaces(mesh, -1, 3), expected);
  // The shared triangle 1-9-3 (wedge face 0, tetrahedron face 3) is in neither cell's list.
  for (const auto& [cell, face] : expected)
  {
    Face key = face;
    std::sort(key.begin(), key.end());
    EXPECT_NE(key, (Face{ 1, 3, 9 })) << "cell " << cell;
  }
}

// Only the cells below the limit report faces, matched against all cells: the faces they share
// with cells beyond it (ghosts) are not boundary.
TEST(SurfaceExtraction, CellLimitKeepsGhostFacesMatched)
{
  const GeneratedMesh box = tetrahedronBox(3000, 5);
  const auto mesh = testmesh::fromGenerated<testmesh::Mesh>(box);
  const std::int64_t limit = static_cast<std::int64_t>(mesh.cells.size() / 2);
  const auto expected = referenceFaces(mesh, limit);
  EXPECT_EQ(deviceFaces(mesh, limit), expected);
  EXPECT_LT(expected.size(), referenceFaces(mesh).size());
  // Whole mesh, and a shuffled numbering.
  EXPECT_EQ(deviceFaces(mesh), referenceFaces(mesh));
  GeneratedMesh shuffled = box;
  shuffle(shuffled);
  const auto other = testmesh::fromGenerated<testmesh::Mesh>(shuffled);
  EXPECT_EQ(deviceFaces(other), referenceFaces(other));
}

TEST(SurfaceExtraction, NoVolumeCellsGiveNoFaces)
{
  testmesh::Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0, 0, 1, 0 };
  mesh.cells.push_back({ CellKind::Triangle, { 0, 1, 2 } });
  EXPECT_TRUE(deviceFaces(mesh).empty());
  testmesh::Mesh empty;
  EXPECT_TRUE(deviceFaces(empty).empty());
}
