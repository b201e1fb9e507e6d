// The launch vocabulary itself (DeviceRun::call, bind, CellArgs): one per-cell kernel serves
// fixed- and variable-size kinds alike, bound kernels take their step arguments at each call,
// and a bound kernel given the wrong number of step arguments is an error naming it.
#include "TestMesh.h"

#include "gpumesh/mesh/DeviceMesh.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>

using namespace gpumesh;
using testmesh::Mesh;

namespace
{
// Fixed kinds (triangles, quads, a tetrahedron) and polygons of 5 and 6 vertices, interleaved
// by cell id so that each group's cell ids are not consecutive. Irregular coordinates: no
// two cells have the same centroid.
Mesh mixedMesh()
{
  Mesh mesh;
  for (int p = 0; p < 12; ++p)
  {
    mesh.xyz.insert(mesh.xyz.end(), { std::cos(0.7 * p) * (1 + 0.1 * p), std::sin(0.9 * p) * (2 - 0.05 * p),
                                      0.3 * p - 0.02 * p * p });
  }
  mesh.cells = { { CellKind::Triangle, { 0, 1, 2 } }, { CellKind::Polygon, { 3, 4, 5, 6, 7 } },
    { CellKind::Quad, { 8, 9, 10, 11 } }, { CellKind::Triangle, { 2, 5, 9 } },
    { CellKind::Polygon, { 0, 2, 4, 6, 8, 10 } }, { CellKind::Tetra, { 1, 3, 7, 11 } },
    { CellKind::Quad, { 4, 1, 0, 6 } } };
  return mesh;
}

std::array<double, 3> point(const Mesh& mesh, std::int64_t id)
{
  return { mesh.xyz[3 * id], mesh.xyz[3 * id + 1], mesh.xyz[3 * id + 2] };
}

// The host reference of kernels/algorithms/smoothing.cl's barycentre: the mean over the cell's vertices of
// their displacements d_k, in double.
std::array<double, 3> hostBarycentre(const testmesh::Cell& cell, const std::vector<double>& d)
{
  std::array<double, 3> sum{ 0, 0, 0 };
  for (std::int64_t id : cell.ids)
  {
    for (int c = 0; c < 3; ++c)
      sum[c] += d[4 * id + c];
  }
  for (double& s : sum)
    s /= static_cast<double>(cell.ids.size());
  return sum;
}

std::vector<double> displacements(std::size_t points, double scale)
{
  std::vector<double> d(4 * points, 0.0);
  for (std::size_t p = 0; p < points; ++p)
    for (int c = 0; c < 3; ++c)
      d[4 * p + c] = scale * std::sin(1.3 * static_cast<double>(p) + c);
  return d;
}
} // namespace

TEST(LaunchVocabulary, CallWithCellArgsServesFixedAndVariableKindsAlike)
{
  const Mesh mesh = mixedMesh();
  DeviceRun run(DeviceContext::acquire("0"), Precision::Double);
  const DeviceMesh device(run, testmesh::toHost(mesh));
  ASSERT_EQ(device.groups().size(), 4u); // triangles, quads, polygons, tetrahedra
  const std::size_t cells = mesh.cells.size();
  DeviceBuffer<cl_int> anchors = run.allocate<cl_int>(cells, "anchors");
  run.fill(anchors, cl_int(-1), "anchors");
  RealBuffer offsets = run.allocateReal(4 * cells, "centroid offsets");
  for (const DeviceCellGroup& group : device.groups())
  {
    run.call({ "centroids", "centroid" }, group.count, "centroids", CellArgs{ group }, device.points(),
      anchors, offsets);
  }
  std::vector<cl_int> hostAnchors(cells);
  std::vector<double> hostOffsets(4 * cells);
  run.download(anchors, hostAnchors.data(), cells, "anchors");
  run.download(offsets, hostOffsets.data(), hostOffsets.size(), "centroid offsets");
  for (std::size_t c = 0; c < cells; ++c)
  {
    const testmesh::Cell& cell = mesh.cells[c];
    ASSERT_EQ(hostAnchors[c], cell.ids[0]) << "cell " << c;
    std::array<double, 3> centroid{ 0, 0, 0 };
    for (std::int64_t id : cell.ids)
      for (int k = 0; k < 3; ++k)
        centroid[k] += point(mesh, id)[k] / static_cast<double>(cell.ids.size());
    const auto anchor = point(mesh, hostAnchors[c]);
    for (int k = 0; k < 3; ++k)
      EXPECT_NEAR(anchor[k] + hostOffsets[4 * c + k], centroid[k], 1e-12) << "cell " << c << ", axis " << k;
  }
}

TEST(LaunchVocabulary, BoundKernelTakesItsStepArgumentsAtEachCall)
{
  const Mesh mesh = mixedMesh();
  DeviceRun run(DeviceContext::acquire("0"), Precision::Double);
  const DeviceMesh device(run, testmesh::toHost(mesh));
  const std::size_t cells = mesh.cells.size();
  RealBuffer barycentres = run.allocateReal(4 * cells, "barycentres");
  std::vector<BoundKernel> kernels;
  for (const DeviceCellGroup& group : device.groups())
  {
    kernels.push_back(run.bind({ "smoothing", "barycentre" }, 1, CellArgs{ group }, barycentres));
  }
  // Two steps with different displacements through the same bound kernels.
  for (double scale : { 0.25, -3.0 })
  {
    const std::vector<double> d = displacements(mesh.points(), scale);
    const RealBuffer in = run.uploadReal(d.data(), d.size(), "displacements");
    run.fillReal(barycentres, std::nan(""), "barycentres");
    for (std::size_t g = 0; g < kernels.size(); ++g)
    {
      run.call(kernels[g], device.groups()[g].count, "barycentres", in);
    }
    std::vector<double> result(4 * cells);
    run.download(barycentres, result.data(), result.size(), "barycentres");
    for (std::size_t c = 0; c < cells; ++c)
    {
      const auto expected = hostBarycentre(mesh.cells[c], d);
      for (int k = 0; k < 3; ++k)
        EXPECT_NEAR(result[4 * c + k], expected[k], 1e-12) << "scale " << scale << ", cell " << c << ", axis " << k;
    }
  }
}

TEST(LaunchVocabulary, WrongNumberOfStepArgumentsIsAnErrorNamingTheKernel)
{
  const Mesh mesh = mixedMesh();
  DeviceRun run(DeviceContext::acquire("0"), Precision::Double);
  const DeviceMesh device(run, testmesh::toHost(mesh));
  const DeviceCellGroup& group = device.groups().front();
  RealBuffer barycentres = run.allocateReal(4 * mesh.cells.size(), "barycentres");
  BoundKernel bound = run.bind({ "smoothing", "barycentre" }, 1, CellArgs{ group }, barycentres);
  const std::vector<double> d = displacements(mesh.points(), 1.0);
  const RealBuffer in = run.uploadReal(d.data(), d.size(), "displacements");
  const auto message = [&](auto&&... step) -> std::string {
    try
    {
      run.call(bound, group.count, "barycentres", step...);
    }
    catch (const Error& error)
    {
      return error.what();
    }
    return "no error";
  };
  EXPECT_EQ(message(in, in), "kernel 'barycentre' takes 1 step arguments, given 2");
  EXPECT_EQ(message(), "kernel 'barycentre' takes 1 step arguments, given 0");
  EXPECT_EQ(message(in), "no error");
}
