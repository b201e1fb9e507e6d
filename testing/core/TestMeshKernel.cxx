// User-written kernels (core/gpumesh/algorithms/MeshKernel.h) against double-precision CPU statements of
// what they compute: seed 001's examples, variable-length links, errors and the program cache.
#include "MeshGenerators.h"
#include "TestMesh.h"

#include "gpumesh/algorithms/MeshKernel.h"
#include "gpumesh/mesh/DeviceMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

using namespace gpumesh;

namespace
{

// A disc of `rim` triangles around a hub (point 0): the hub has `rim` cells and neighbours,
// more than the widest fixed-width row, so its rows live in the overflow table.
testmesh::Mesh fan(int rim)
{
  testmesh::Mesh mesh;
  mesh.xyz = { 0.3, 0.2, 0.1 };
  const double pi = std::acos(-1.0);
  for (int k = 0; k < rim; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { std::cos(2 * pi * k / rim), std::sin(2 * pi * k / rim), 0.0 });
  for (int k = 0; k < rim; ++k)
    mesh.cells.push_back({ CellKind::Triangle, { 0, 1 + k, 1 + (k + 1) % rim } });
  return mesh;
}

std::vector<double> download(DeviceRun& run, const RealBuffer& buffer)
{
  std::vector<double> values(buffer.size());
  run.download(buffer, values.data(), values.size(), "result");
  return values;
}

std::array<double, 3> barycentre(const testmesh::Mesh& mesh, std::size_t c)
{
  std::array<double, 3> sum{ 0, 0, 0 };
  for (const auto p : mesh.cells[c].ids)
    for (int k = 0; k < 3; ++k)
      sum[k] += mesh.xyz[3 * p + k];
  for (double& s : sum)
    s /= static_cast<double>(mesh.cells[c].ids.size());
  return sum;
}

// The cells across each edge of each triangle (a manifold mesh: one other cell per edge).
std::vector<std::vector<std::size_t>> edgeNeighbours(const testmesh::Mesh& mesh)
{
  std::map<std::pair<std::int64_t, std::int64_t>, std::vector<std::size_t>> cellsOfEdge;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const auto& ids = mesh.cells[c].ids;
    for (std::size_t k = 0; k < ids.size(); ++k)
    {
      const auto a = ids[k], b = ids[(k + 1) % ids.size()];
      cellsOfEdge[{ std::min(a, b), std::max(a, b) }].push_back(c);
    }
  }
  std::vector<std::vector<std::size_t>> neighbours(mesh.cells.size());
  for (const auto& entry : cellsOfEdge)
    for (const auto c : entry.second)
      for (const auto other : entry.second)
        if (other != c)
          neighbours[c].push_back(other);
  return neighbours;
}

std::string errorOf(DeviceRun& run, const DeviceMesh& mesh, const MeshKernelDefinition& definition)
{
  try
  {
    MeshKernel kernel(run, mesh, definition);
  }
  catch (const Error& error)
  {
    return error.what();
  }
  return "(no error)";
}
} // namespace

// Seed 001, 2.3: VerCrd = VerCrd + VerVitesse * VerDirection, iterated: each iteration reads
// the previous iterate of the coordinates.
TEST(MeshKernel, PointsMoveAlongADirection)
{
  const testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(200, 3));
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  const std::size_t n = mesh.points();
  std::vector<double> speed(n), direction(3 * n);
  for (std::size_t p = 0; p < n; ++p)
  {
    speed[p] = 0.01 * static_cast<double>(p % 7);
    direction[3 * p] = 1.0;
    direction[3 * p + 2] = -0.5 * static_cast<double>(p % 3);
  }
  MeshKernelDefinition definition;
  definition.domain = MeshEntity::Points;
  definition.inputs = { { "speed", MeshEntity::Points, 1 }, { "direction", MeshEntity::Points, 3 } };
  definition.resultName = MeshKernelDefinition::coordinatesName;
  definition.resultComponents = 3;
  definition.body = "result = x + speed * direction;";
  MeshKernel kernel(run, device, definition);
  const RealBuffer speeds = run.uploadReal(speed.data(), n, "speed");
  const RealBuffer directions = run.uploadReal(direction.data(), 3 * n, "direction");
  const int iterations = 3;
  const std::vector<double> moved = download(run, kernel.execute(run, { &speeds, &directions }, iterations));
  const auto& origin = device.origin();
  for (std::size_t p = 0; p < n; ++p)
    for (int k = 0; k < 3; ++k)
      ASSERT_NEAR(moved[3 * p + k] + origin[k], mesh.xyz[3 * p + k] + iterations * speed[p] * direction[3 * p + k], 1e-12)
        << "point " << p;
}

// Seed 001, 2.4 (downward link): triangle barycentres from the cell's points.
TEST(MeshKernel, TriangleBarycentres)
{
  const testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(500, 5));
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  MeshKernelDefinition definition;
  definition.domain = MeshEntity::Cells;
  definition.resultName = "Barycentre";
  definition.resultComponents = 3;
  definition.body = "for (int k = 0; k < point_count; ++k)\n  result += points_x(k);\nresult /= point_count;";
  MeshKernel kernel(run, device, definition);
  const std::vector<double> result = download(run, kernel.execute(run, {}, 1));
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const auto expected = barycentre(mesh, c);
    for (int k = 0; k < 3; ++k)
      ASSERT_NEAR(result[3 * c + k] + device.origin()[k], expected[k], 1e-12) << "cell " << c;
  }
}

// Seed 001, 2.4 (transverse link): the largest distance from a triangle's barycentre to its
// neighbours' barycentres, read through neighbours_<array>(k).
TEST(MeshKernel, LargestDistanceToNeighbourBarycentres)
{
  const testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(500, 7));
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  std::vector<double> centres;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const auto b = barycentre(mesh, c);
    centres.insert(centres.end(), b.begin(), b.end());
  }
  MeshKernelDefinition definition;
  definition.domain = MeshEntity::Cells;
  definition.inputs = { { "Barycentre", MeshEntity::Cells, 3 } };
  definition.resultName = "Distance";
  definition.body = "result = NAN;\nfor (int k = 0; k < neighbour_count; ++k)\n"
                    "  result = fmax(result, distance(Barycentre, neighbours_Barycentre(k)));";
  MeshKernel kernel(run, device, definition);
  EXPECT_TRUE(kernel.generated().usesNeighbours);
  const RealBuffer input = run.uploadReal(centres.data(), centres.size(), "barycentres");
  const std::vector<double> result = download(run, kernel.execute(run, { &input }, 1));
  const auto neighbours = edgeNeighbours(mesh);
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    double expected = std::nan("");
    for (const auto other : neighbours[c])
    {
      const double d = std::hypot(centres[3 * c] - centres[3 * other], centres[3 * c + 1] - centres[3 * other + 1],
        centres[3 * c + 2] - centres[3 * other + 2]);
      expected = std::isnan(expected) ? d : std::max(expected, d);
    }
    ASSERT_NEAR(result[c], expected, 1e-12) << "cell " << c;
  }
}

// Upward links of any length: a hub of 40 cells and 40 neighbours is read to its true count.
TEST(MeshKernel, VariableLengthLinksAreNotTruncated)
{
  const int rim = 40;
  const testmesh::Mesh mesh = fan(rim);
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  std::vector<double> ids(mesh.cells.size());
  for (std::size_t c = 0; c < ids.size(); ++c)
    ids[c] = static_cast<double>(c);
  MeshKernelDefinition definition;
  definition.inputs = { { "cell number", MeshEntity::Cells, 1 } };
  definition.resultName = "links";
  definition.resultComponents = 4;
  definition.body = "REAL sum = 0;\n"
                    "for (int k = 0; k < cell_count; ++k) sum += cells_cell_number(k);\n"
                    "REAL3 mean = 0;\n"
                    "for (int k = 0; k < neighbour_count; ++k) mean += neighbours_x(k);\n"
                    "result = (REAL4)(cell_count, neighbour_count, sum, length(mean / neighbour_count - x));";
  MeshKernel kernel(run, device, definition);
  const RealBuffer input = run.uploadReal(ids.data(), ids.size(), "cell ids");
  const std::vector<double> result = download(run, kernel.execute(run, { &input }, 1));
  EXPECT_EQ(result[0], rim);
  EXPECT_EQ(result[1], rim);
  EXPECT_EQ(result[2], rim * (rim - 1) / 2);
  EXPECT_NEAR(result[3], std::hypot(0.3, 0.2, 0.1), 1e-12); // the rim's mean is the centre
  for (std::size_t p = 1; p < mesh.points(); ++p)
  {
    EXPECT_EQ(result[4 * p], 2) << "point " << p;
    EXPECT_EQ(result[4 * p + 1], 3) << "point " << p;
  }
}

// A cell array fed back: Jacobi diffusion over the neighbours, checked step by step on the CPU;
// and a result of more than 4 components.
TEST(MeshKernel, CellArrayIterationsReadThePreviousIterate)
{
  const testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(300, 2));
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  const std::size_t cells = mesh.cells.size();
  std::vector<double> value(cells);
  for (std::size_t c = 0; c < cells; ++c)
    value[c] = c % 5 == 0 ? 1.0 : 0.0;
  MeshKernelDefinition definition;
  definition.domain = MeshEntity::Cells;
  definition.inputs = { { "heat", MeshEntity::Cells, 1 } };
  definition.resultName = "heat";
  definition.body = "REAL sum = 0;\nfor (int k = 0; k < neighbour_count; ++k) sum += neighbours_heat(k);\n"
                    "result = 0.5 * heat + 0.5 * sum / neighbour_count;";
  MeshKernel kernel(run, device, definition);
  const RealBuffer input = run.uploadReal(value.data(), cells, "heat");
  const int iterations = 4;
  const std::vector<double> result = download(run, kernel.execute(run, { &input }, iterations));
  const auto neighbours = edgeNeighbours(mesh);
  for (int i = 0; i < iterations; ++i)
  {
    std::vector<double> next(cells);
    for (std::size_t c = 0; c < cells; ++c)
    {
      double sum = 0;
      for (const auto other : neighbours[c])
        sum += value[other];
      next[c] = 0.5 * value[c] + 0.5 * sum / static_cast<double>(neighbours[c].size());
    }
    value = next;
  }
  for (std::size_t c = 0; c < cells; ++c)
    ASSERT_NEAR(result[c], value[c], 1e-12) << "cell " << c;

  MeshKernelDefinition wide;
  wide.domain = MeshEntity::Cells;
  wide.resultComponents = 6;
  wide.body = "for (int k = 0; k < 6; ++k) result[k] = id * 10 + k + kind - CELL_TRIANGLE;";
  MeshKernel wideKernel(run, device, wide);
  const std::vector<double> six = download(run, wideKernel.execute(run, {}, 1));
  for (std::size_t c = 0; c < cells; ++c)
    for (int k = 0; k < 6; ++k)
      ASSERT_EQ(six[6 * c + k], 10.0 * c + k);
}

// Compiler messages carry the user's line numbers; the same text is compiled once.
TEST(MeshKernel, CompileErrorsNameTheUsersLineAndProgramsAreCached)
{
  const testmesh::Mesh mesh = fan(6);
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"));
  const DeviceMesh device(run, host);
  MeshKernelDefinition definition;
  definition.body = "REAL a = 1;\n\nresult = a + not_declared;\n";
  const std::string message = errorOf(run, device, definition);
  EXPECT_NE(message.find("does not compile"), std::string::npos) << message;
  EXPECT_NE(message.find("line 3, column"), std::string::npos) << message;
  EXPECT_NE(message.find("not_declared"), std::string::npos) << message;

  definition.body = "result = length(x) + 0.125; // cached " + std::to_string(std::rand());
  // Built from source, or from the binary cache of an earlier test run.
  const auto made = [&] { return run.device().programsBuilt() + run.device().programsFromBinaryCache(); };
  const std::uint64_t before = made();
  MeshKernel first(run, device, definition);
  EXPECT_TRUE(first.compiled());
  EXPECT_EQ(made(), before + 1);
  MeshKernel second(run, device, definition);
  EXPECT_FALSE(second.compiled());
  EXPECT_EQ(second.compileMilliseconds(), 0.0);
  EXPECT_EQ(made(), before + 1);
  EXPECT_EQ(first.generated().source, second.generated().source);
}

// Identifiers and accessors of 50,000 characters are read without recursion (the regular
// expressions that read them overflowed the stack); an undeclared one is a compile error that
// names the user's line, and an accessor of that length names the array no input has.
TEST(MeshKernel, VeryLongIdentifiersAreErrorsNotCrashes)
{
  const testmesh::Mesh mesh = fan(6);
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"));
  const DeviceMesh device(run, host);
  MeshKernelDefinition definition;
  const std::string name(50000, 'q');
  definition.body = "REAL a = 1;\nresult = a + " + name + ";\n";
  const std::string message = errorOf(run, device, definition);
  EXPECT_NE(message.find("does not compile"), std::string::npos) << message.substr(0, 300);
  EXPECT_NE(message.find("line 2, column"), std::string::npos) << message.substr(0, 300);

  definition.body = "result = cells_" + name + "(0);";
  try
  {
    generateMeshKernel(definition);
    ADD_FAILURE() << "an accessor of an array nobody chose was accepted";
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("no chosen array is"), std::string::npos) << std::string(error.what()).substr(0, 300);
  }
}

TEST(MeshKernel, BadDefinitionsAreClearErrors)
{
  const auto fails = [](const MeshKernelDefinition& definition, const std::string& expected) {
    try
    {
      generateMeshKernel(definition);
      ADD_FAILURE() << "no error, expected one containing: " << expected;
    }
    catch (const Error& error)
    {
      EXPECT_NE(std::string(error.what()).find(expected), std::string::npos) << error.what();
    }
  };
  MeshKernelDefinition d;
  d.body = "  \n// nothing\n";
  fails(d, "The Kernel is empty");
  d.body = "result = cells_Pressure(0);";
  fails(d, "no chosen array is 'Pressure'");
  d.inputs = { { "Pressure", MeshEntity::Points, 1 } };
  fails(d, "'Pressure' is a point array and cells_ reads cell arrays");
  d.domain = MeshEntity::Cells;
  d.inputs = { { "Pressure", MeshEntity::Cells, 1 } };
  d.body = "result = cell_count;";
  fails(d, "a link the Cells domain does not have");
  d.domain = MeshEntity::Points;
  d.body = "result = point_count;";
  fails(d, "a link the Points domain does not have");
  d.body = "result = 1;";
  d.resultName = "Pressure";
  fails(d, "is an input cell array of 1 components, but the Kernel writes a point array");
  d.domain = MeshEntity::Cells;
  d.resultComponents = 2;
  fails(d, "is an input cell array of 1 components, but the Kernel writes a cell array of 2");
  d.resultName = MeshKernelDefinition::coordinatesName;
  d.resultComponents = 3;
  fails(d, "needs Domain Points and ResultComponents 3");
  d.resultName = "R";
  d.resultComponents = 10;
  fails(d, "ResultComponents must be 1 to 9");
  d.resultComponents = 1;
  d.inputs = { { "x", MeshEntity::Cells, 1 } };
  fails(d, "which the Kernel already defines");
  d.inputs = { { "a b", MeshEntity::Cells, 1 }, { "a-b", MeshEntity::Cells, 1 } };
  fails(d, "are both 'a_b'");
  // No file of the machine that builds the kernel is read, however the directive is written.
  d.inputs = {};
  for (const std::string body : { "#include \"/etc/passwd\"\nresult = 1;", "  #  include </etc/hostname>\nresult = 1;",
         "result = 1;\n#\\\ninclude \"/etc/passwd\"\n", "\t# include\t\"x.cl\"\nresult = 1;" })
  {
    d.body = body;
    fails(d, "The Kernel may not use #include");
  }
  d.body = "// #include \"/etc/passwd\" in a comment is nothing\nresult = 1;";
  EXPECT_NO_THROW(generateMeshKernel(d));
}

// Fixed and variable-size kinds in one mesh (CELL_ARGS' two paths): kind, the cell's points,
// and the neighbours across edges, read as ids.
TEST(MeshKernel, MixedKindsPointsAndNeighbours)
{
  testmesh::Mesh mesh;
  mesh.xyz = { 0, 0, 0, 1, 0, 0, 0, 1, 0, 2, 0, 0, 2, 1, 0, 3, 0, 0, 3.5, 1, 0, 3, 2, 0 };
  mesh.cells = { { CellKind::Triangle, { 0, 1, 2 } }, { CellKind::Quad, { 1, 3, 4, 2 } },
    { CellKind::Polygon, { 3, 5, 6, 7, 4 } } };
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"));
  const DeviceMesh device(run, host);
  MeshKernelDefinition definition;
  definition.domain = MeshEntity::Cells;
  definition.resultComponents = 5;
  definition.body = "int ids = 0;\n"
                    "for (int k = 0; k < point_count; ++k) ids += point_id(k);\n"
                    "int across = 0;\n"
                    "for (int k = 0; k < neighbour_count; ++k) across += neighbour_id(k) + 1;\n"
                    "result[0] = kind; result[1] = point_count; result[2] = ids;\n"
                    "result[3] = neighbour_count; result[4] = across;";
  MeshKernel kernel(run, device, definition);
  const std::vector<double> result = download(run, kernel.execute(run, {}, 1));
  const double expected[3][5] = { { double(CellKind::Triangle), 3, 3, 1, 2 },
    { double(CellKind::Quad), 4, 10, 2, 1 + 3 }, { double(CellKind::Polygon), 5, 25, 1, 2 } };
  for (int c = 0; c < 3; ++c)
    for (int k = 0; k < 5; ++k)
      EXPECT_EQ(result[5 * c + k], expected[c][k]) << "cell " << c << ", value " << k;
}

// A private array of 10,000 REALs built and then crashed its work-group on launch, taking the
// process (a shared pvserver) with it: declared arrays over maximumPrivateBytes per work-item
// are refused before compiling, naming the largest, whether their size is a literal or the
// text's own constant; smaller ones, and arrays of other address spaces, run.
TEST(MeshKernel, LargePrivateArraysAreRefusedNamingThem)
{
  const testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(40, 3));
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  MeshKernelDefinition definition;
  definition.body = "REAL a[10000];\nfor (int k = 0; k < 10000; ++k) a[k] = k * x.x;\nresult = a[id % 10000];";
  std::string message = errorOf(run, device, definition);
  EXPECT_NE(message.find("'a' (line 1) alone takes 80000 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find("more than the 16384 bytes"), std::string::npos) << message;

  definition.body = "int small[16];\n/* a comment\n   over lines */\n#define SIDE (4 * 25)\n"
                    "float2 i[SIDE][SIDE / 2], *p[2];\nresult = 0;";
  message = errorOf(run, device, definition);
  EXPECT_NE(message.find("'i' (line 5) alone takes 40000 bytes"), std::string::npos) << message;

  // 2048 REALs are 16 KiB in double precision, 8 KiB in single.
  definition.body = "REAL a[2048 + 1];\nfor (int k = 0; k < 2049; ++k) a[k] = k;\nresult = a[id % 2049];";
  EXPECT_NE(errorOf(run, device, definition).find("16392 bytes"), std::string::npos);
  DeviceRun single(DeviceContext::acquire("auto"), Precision::Single);
  const DeviceMesh singleDevice(single, host);
  MeshKernel accepted(single, singleDevice, definition);
  const std::vector<double> values = download(single, accepted.execute(single, {}, 1));
  for (std::size_t p = 0; p < values.size(); ++p)
    ASSERT_EQ(values[p], static_cast<double>(p % 2049)) << "point " << p;

  // Sizes it cannot evaluate, and casts or expressions that look like declarations, are no
  // arrays of known size; a constant defined by itself is unknown, not endless.
  definition.body = "#define N N\nREAL q[N];\nresult = (REAL)x.x * sizeof(int) + 1;";
  EXPECT_TRUE(generateMeshKernel(definition).privateArrays.empty());
}

// An index out of range read or wrote outside the buffers (reading past a row reads another
// point's entries, then points nobody has; result[9] of a 6-component result writes past a
// private array): checked by default, it is clamped and the run fails naming the line of the
// user's text, the variable, the index and the point or cell, instead of crashing.
TEST(MeshKernel, IndicesOutOfRangeAreErrorsNamingTheLine)
{
  const testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(30, 3));
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  const std::size_t cells = mesh.cells.size();
  std::vector<double> wide(7 * cells);
  for (std::size_t v = 0; v < wide.size(); ++v)
    wide[v] = static_cast<double>(v);
  const RealBuffer wideValues = run.uploadReal(wide.data(), wide.size(), "Wide");
  const auto runError = [&](const MeshKernelDefinition& definition, const std::vector<const RealBuffer*>& inputs) {
    try
    {
      MeshKernel kernel(run, device, definition);
      kernel.execute(run, inputs, 2);
    }
    catch (const Error& error)
    {
      return std::string(error.what());
    }
    return std::string("(no error)");
  };
  MeshKernelDefinition definition;
  definition.body =
    "REAL3 sum = 0;\nfor (int k = 0; k <= neighbour_count; ++k)\n  sum += neighbours_x(k);\nresult = sum.x;";
  std::string message = runError(definition, {});
  EXPECT_NE(message.find("line 3 reads or writes out of range: neighbours_x(k) with k = "), std::string::npos)
    << message;
  EXPECT_NE(message.find("keep k within its count"), std::string::npos) << message;

  definition.resultComponents = 6;
  definition.body = "for (int c = 0; c < 6; ++c)\n  result[c] = c;\nresult[ (int)(x.x * 0) + 9 ] = 1;";
  message = runError(definition, {});
  EXPECT_NE(message.find("line 3 reads or writes out of range: result[c] with c = 9, outside 0 to 5 (at point "),
    std::string::npos)
    << message;

  definition.resultComponents = 1;
  definition.inputs = { { "Wide", MeshEntity::Cells, 7 } };
  definition.body = "result = cells_Wide(0, 0);\nresult += cells_Wide(cell_count - 1, 7);";
  message = runError(definition, { &wideValues });
  EXPECT_NE(message.find("line 2 reads or writes out of range: cells_Wide(k, c) with c = 7, outside 0 to 6"),
    std::string::npos)
    << message;

  definition.domain = MeshEntity::Cells;
  definition.body = "result = Wide[point_count + 4];";
  message = runError(definition, { &wideValues });
  EXPECT_NE(message.find("line 1 reads or writes out of range: Wide[c] with c = 7, outside 0 to 6 (at cell "),
    std::string::npos)
    << message;

  // Compile errors keep the columns of the text as written around the checked subscripts.
  definition.body = "result = Wide[1] + Wide[2] + not_declared;";
  message = errorOf(run, device, definition);
  EXPECT_NE(message.find("line 1, column 30: error:"), std::string::npos) << message;

  // In range, checked and unchecked programs give the same values; unchecked is other text.
  definition.body = "result = Wide[6] + points_x(point_count - 1).y;";
  MeshKernel checked(run, device, definition);
  definition.checkIndices = false;
  MeshKernel unchecked(run, device, definition);
  EXPECT_NE(checked.generated().source, unchecked.generated().source);
  EXPECT_NE(unchecked.generated().source.find("#define MK_CHECKED 0"), std::string::npos);
  EXPECT_EQ(download(run, checked.execute(run, { &wideValues }, 1)),
    download(run, unchecked.execute(run, { &wideValues }, 1)));
}

// A long loop runs in slices of work-items, the observer called between them: the values do
// not depend on the slice size (here a work-group per slice, for iterations of a fed-back
// result and for every cell group), and an abort stops the run within an iteration.
TEST(MeshKernel, SlicesGiveTheSameValuesAndStopOnAnAbort)
{
  testmesh::Mesh mesh = testmesh::fromGenerated<testmesh::Mesh>(benchmark::triangleGrid(7200));
  mesh.cells.push_back({ CellKind::Quad, { 0, 1, 62, 61 } });
  const HostMesh host = testmesh::toHost(mesh);
  DeviceRun run(DeviceContext::acquire("auto"), Precision::Double);
  const DeviceMesh device(run, host);
  MeshKernelDefinition laplacian;
  laplacian.resultName = MeshKernelDefinition::coordinatesName;
  laplacian.resultComponents = 3;
  laplacian.body = "REAL3 mean = 0;\nfor (int k = 0; k < neighbour_count; ++k)\n  mean += neighbours_x(k);\n"
                   "result = x + 0.5 * (mean / neighbour_count - x);";
  MeshKernelDefinition barycentres;
  barycentres.domain = MeshEntity::Cells;
  barycentres.resultComponents = 3;
  barycentres.body = "for (int k = 0; k < point_count; ++k)\n  result += points_x(k);\nresult /= point_count;";
  for (const MeshKernelDefinition& definition : { laplacian, barycentres })
  {
    MeshKernel whole(run, device, definition);
    EXPECT_EQ(whole.sliceSize(), MeshKernel::defaultSliceSize);
    int wholeCalls = 0;
    const std::vector<double> expected =
      download(run, whole.execute(run, {}, 3, [&](int, int, double) { return ++wholeCalls > 0; }));
    EXPECT_EQ(wholeCalls, 3);

    MeshKernel sliced(run, device, definition);
    sliced.setSliceSize(1);
    std::vector<double> fractions;
    const std::vector<double> values = download(run, sliced.execute(run, {}, 3, [&](int iteration, int, double done) {
      fractions.push_back(iteration - 1 + done);
      return true;
    }));
    EXPECT_EQ(values, expected);
    EXPECT_GT(fractions.size(), 3u * 4u); // 3721 points or 7201 cells in slices of a work-group or so
    EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
    EXPECT_EQ(fractions.back(), 3.0);

    int calls = 0;
    sliced.execute(run, {}, 3, [&](int, int, double done) {
      EXPECT_LT(done, 1.0);
      return ++calls < 2;
    });
    EXPECT_EQ(calls, 2);
  }
}
