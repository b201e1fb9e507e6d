// DeviceMesh's import of 64-bit cell arrays: narrowed to 32 bits on the device when they go up
// as they are, on the host while staged (the GPU path; forced here with tiny staging chunks).
// Both must give the same groups and the same errors.
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/mesh/HostMesh.h"
#include "gpumesh/mesh/UniformCellSize.h"
#include "gpumesh/runtime/DeviceRun.h"
#include "gpumesh/runtime/Error.h"

#include "TestMesh.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using namespace gpumesh;

namespace
{
// Forces staged transfers for every copy while alive (4 KiB chunks: many of them, and a
// partial last one).
class ForcedStaging
{
public:
  explicit ForcedStaging(std::shared_ptr<DeviceContext> context)
    : Context(std::move(context))
    , Threshold(Context->stagingThreshold())
  {
    Context->setStaging(1, 4096);
  }
  ~ForcedStaging() { Context->setStaging(Threshold, DeviceContext::defaultStagingChunkBytes); }

private:
  std::shared_ptr<DeviceContext> Context;
  std::size_t Threshold;
};


// A strip of `quads` unit squares as polygons: triangles, then quads, then one pentagon
// (three kinds, so the mixed-kind gather runs too), with 64-bit offsets and ids.
struct PolygonStrip
{
  std::vector<double> xyz;
  std::vector<std::int64_t> offsets{ 0 };
  std::vector<std::int64_t> connectivity;

  explicit PolygonStrip(int quads)
  {
    for (int i = 0; i <= quads + 1; ++i)
      xyz.insert(xyz.end(), { double(i), 0.0, 0.0, double(i), 1.0, 0.0 });
    for (int i = 0; i < quads; ++i)
    {
      const std::int64_t a = 2 * i, b = a + 2, c = a + 3, d = a + 1;
      if (i % 3 == 0)
        add({ a, b, c, d });
      else
      {
        add({ a, b, c });
        add({ a, c, d });
      }
    }
    const std::int64_t a = 2 * quads, b = a + 2, c = a + 3, d = a + 1;
    add({ a, b, c, d, a - 1 });
  }
  void add(std::initializer_list<std::int64_t> ids)
  {
    connectivity.insert(connectivity.end(), ids);
    offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
  }
  MeshView view() const { return testmesh::polygonsView(xyz, offsets, connectivity); }
};

struct ImportedGroup
{
  CellKind kind;
  std::vector<cl_int> connectivity, offsets, cellIds;
  bool operator==(const ImportedGroup& other) const
  {
    return kind == other.kind && connectivity == other.connectivity && offsets == other.offsets &&
      cellIds == other.cellIds;
  }
};

std::vector<ImportedGroup> groupsOf(DeviceRun& run, const DeviceMesh& mesh)
{
  std::vector<ImportedGroup> groups;
  for (const DeviceCellGroup& group : mesh.groups())
  {
    ImportedGroup host{ group.kind, std::vector<cl_int>(group.connectivity.size()),
      std::vector<cl_int>(group.offsets.size()), std::vector<cl_int>(group.cellIds.size()) };
    run.download(group.connectivity, host.connectivity.data(), host.connectivity.size(), "connectivity");
    run.download(group.offsets, host.offsets.data(), host.offsets.size(), "offsets");
    run.download(group.cellIds, host.cellIds.data(), host.cellIds.size(), "cell ids");
    groups.push_back(std::move(host));
  }
  return groups;
}

std::vector<ImportedGroup> imported(DeviceRun& run, const MeshView& view)
{
  return groupsOf(run, DeviceMesh(run, view));
}

std::vector<double> pointsOf(DeviceRun& run, const DeviceMesh& mesh)
{
  std::vector<double> xyz(mesh.points().size());
  run.download(mesh.points(), xyz.data(), xyz.size(), "points");
  return xyz;
}

std::string importError(DeviceRun& run, const MeshView& view)
{
  try
  {
    const DeviceMesh mesh(run, view);
  }
  catch (const Error& error)
  {
    return error.what();
  }
  return "no error";
}
} // namespace

TEST(MeshImport, NarrowedWhileStagedSaturatesOutOfRangeValues)
{
  auto context = DeviceContext::acquire("0");
  const std::vector<cl_long> values = { 0, 1, -1, std::numeric_limits<cl_int>::max(),
    std::numeric_limits<cl_int>::min(), std::int64_t(1) << 31, -(std::int64_t(1) << 31) - 1,
    std::numeric_limits<cl_long>::max(), std::numeric_limits<cl_long>::min(), 123456789 };
  std::vector<cl_long> many;
  // 30,010 values: 58 chunks of 2 KiB of narrowed values (half a 4 KiB chunk each) and a partial one.
  for (int repeat = 0; repeat < 3001; ++repeat)
    many.insert(many.end(), values.begin(), values.end());
  for (const bool staged : { false, true })
  {
    std::unique_ptr<ForcedStaging> forced(staged ? new ForcedStaging(context) : nullptr);
    DeviceRun run(context);
    EXPECT_EQ(run.staged(4 * many.size()), staged);
    DeviceBuffer<cl_int> narrowed = run.uploadNarrowed(many.data(), many.size(), "values");
    std::vector<cl_int> back(many.size());
    run.download(narrowed, back.data(), back.size(), "values");
    for (std::size_t i = 0; i < many.size(); ++i)
    {
      const cl_long expected = std::min<cl_long>(std::numeric_limits<cl_int>::max(),
        std::max<cl_long>(std::numeric_limits<cl_int>::min(), many[i]));
      ASSERT_EQ(back[i], expected) << "value " << many[i] << (staged ? " (staged)" : "");
    }
    EXPECT_EQ(run.bytesUploaded(), 4 * many.size());
  }
}

TEST(MeshImport, SixtyFourBitCellsGiveTheSameGroupsStagedOrNot)
{
  auto context = DeviceContext::acquire("0");
  const PolygonStrip strip(3000);
  DeviceRun direct(context);
  const std::vector<ImportedGroup> expected = imported(direct, strip.view());
  ASSERT_EQ(expected.size(), 3u); // triangles, quads, the pentagon
  const ForcedStaging forced(context);
  DeviceRun staged(context);
  EXPECT_TRUE(staged.staged(4 * strip.connectivity.size()));
  EXPECT_TRUE(imported(staged, strip.view()) == expected);
  // Half the bytes of the cell arrays crossed the bus.
  EXPECT_EQ(staged.bytesUploaded(),
    direct.bytesUploaded() - 4 * (strip.offsets.size() + strip.connectivity.size()));
}

TEST(MeshImport, IdsBeyondThirtyTwoBitsAreTheSameErrorsStagedOrNot)
{
  auto context = DeviceContext::acquire("0");
  for (const std::int64_t bad : { std::int64_t(1) << 32, (std::int64_t(1) << 31) + 2, -(std::int64_t(1) << 33), std::int64_t(-1) })
  {
    PolygonStrip strip(3000);
    strip.connectivity[4000] = bad;
    DeviceRun direct(context);
    const std::string expected = importError(direct, strip.view());
    EXPECT_NE(expected, "no error");
    EXPECT_NE(expected.find("refers to point " + std::to_string(bad) + (bad < 0 ? ", a negative id" : ", beyond the mesh's")),
      std::string::npos)
      << expected;
    const ForcedStaging forced(context);
    DeviceRun staged(context);
    EXPECT_EQ(importError(staged, strip.view()), expected) << "id " << bad;
  }
}

// Offsets that decrease or point past the connectivity would make every later read go outside
// it: the import names the first such cell instead, staged or not.
TEST(MeshImport, CorruptOffsetsAreAnErrorNamingTheCell)
{
  auto context = DeviceContext::acquire("0");
  for (const std::int64_t bad : { std::int64_t(-5), std::int64_t(1) << 20 })
  {
    PolygonStrip strip(3000);
    strip.offsets[1500] = strip.offsets[1500] + bad; // cell 1499 ends, cell 1500 begins, there
    DeviceRun direct(context);
    const std::string expected = importError(direct, strip.view());
    EXPECT_NE(expected.find("do not lie in order"), std::string::npos) << expected;
    EXPECT_NE(expected.find("Cell 1499"), std::string::npos) << expected;
    const ForcedStaging forced(context);
    DeviceRun staged(context);
    EXPECT_EQ(importError(staged, strip.view()), expected) << "offset shifted by " << bad;
  }
}

namespace
{
// `triangles` triangles in a strip, as polygons, with offsets and ids of type Index: every cell
// has three ids unless a test changes it.
template <typename Index>
struct TriangleStrip
{
  std::vector<float> xyz;
  std::vector<Index> offsets{ 0 };
  std::vector<Index> connectivity;

  explicit TriangleStrip(int triangles)
  {
    for (int i = 0; i < triangles / 2 + 2; ++i)
      xyz.insert(xyz.end(), { float(i), 0.0f, 0.0f, float(i), 1.0f, 0.0f });
    for (int t = 0; t < triangles; ++t)
    {
      const Index a = 2 * (t / 2), b = a + 2, c = a + 3, d = a + 1;
      const std::vector<Index> ids = t % 2 ? std::vector<Index>{ a, c, d } : std::vector<Index>{ a, b, c };
      connectivity.insert(connectivity.end(), ids.begin(), ids.end());
      offsets.push_back(static_cast<Index>(connectivity.size()));
    }
  }
  MeshView view() const { return testmesh::polygonsView(xyz, offsets, connectivity); }
};

template <typename Index>
void checkUniformOffsetsStayOnTheHost()
{
  auto context = DeviceContext::acquire("0");
  const TriangleStrip<Index> strip(20000);
  EXPECT_EQ(uniformCellSize(strip.view().sections.front()), 3);
  DeviceRun direct(context);
  const std::vector<ImportedGroup> expected = imported(direct, strip.view());
  ASSERT_EQ(expected.size(), 1u);
  EXPECT_EQ(expected.front().kind, CellKind::Triangle);
  const ForcedStaging forced(context);
  DeviceRun staged(context);
  EXPECT_TRUE(imported(staged, strip.view()) == expected);
  // The points and the (narrowed) connectivity went up; the offsets did not.
  const std::size_t idBytes = sizeof(Index) == 8 ? 4 : sizeof(Index);
  EXPECT_EQ(staged.bytesUploaded(), strip.xyz.size() * sizeof(float) + idBytes * strip.connectivity.size());
}
} // namespace

// Offsets of one cell size are not uploaded when staged: the kernels compute them.
TEST(MeshImport, UniformOffsetsStayOnTheHost)
{
  checkUniformOffsetsStayOnTheHost<std::int32_t>();
  checkUniformOffsetsStayOnTheHost<std::int64_t>();
}

// Offsets that are uniform but for one cell, anywhere, are uploaded and give the same groups
// and errors as without staging.
TEST(MeshImport, AlmostUniformOffsetsAreUploaded)
{
  auto context = DeviceContext::acquire("0");
  for (const std::size_t cell : { std::size_t(0), std::size_t(7777), std::size_t(19998) })
  {
    TriangleStrip<std::int64_t> strip(20000);
    // Cell `cell` gets a fourth id (a quad, or, shifting the next cell, a wrong size).
    strip.connectivity.insert(strip.connectivity.begin() + 3 * cell + 3, strip.connectivity[3 * cell]);
    for (std::size_t i = cell + 1; i < strip.offsets.size(); ++i)
      ++strip.offsets[i];
    EXPECT_EQ(uniformCellSize(strip.view().sections.front()), 0) << "cell " << cell;
    TriangleStrip<std::int64_t> corrupt(20000);
    corrupt.offsets[cell + 1] += cell + 1 < 20000 ? 1 : 0; // cell `cell` has 4 ids, the next one 2
    DeviceRun direct(context);
    const std::vector<ImportedGroup> expected = imported(direct, strip.view());
    ASSERT_EQ(expected.size(), 2u); // triangles and one quad
    const std::string error = importError(direct, corrupt.view());
    EXPECT_NE(error, "no error") << "cell " << cell;
    const ForcedStaging forced(context);
    DeviceRun staged(context);
    EXPECT_TRUE(imported(staged, strip.view()) == expected) << "cell " << cell;
    EXPECT_EQ(importError(staged, corrupt.view()), error) << "cell " << cell;
  }
}

// Tetrahedra and quads in turn: every cell has 4 point ids, of two kinds, so the offsets are
// uniform and the cells still go to two groups by their types.
TEST(MeshImport, UniformOffsetsOfTwoKindsGiveTheSameGroups)
{
  HostMesh host;
  std::vector<double> xyz;
  for (int p = 0; p < 3000; ++p)
    xyz.insert(xyz.end(), { double(p % 17), double(p % 13), double(p % 7) });
  host.setPoints(xyz.data(), 3000);
  const std::int64_t cells = 12000;
  host.setCellCount(cells);
  for (std::int64_t c = 0; c < cells; ++c)
  {
    const std::int64_t ids[4] = { c % 3000, (c + 1) % 3000, (c + 2) % 3000, (c + 3) % 3000 };
    host.addCell(c, c % 2 ? CellKind::Quad : CellKind::Tetra, ids, 4);
  }
  const MeshView view = host.view();
  ASSERT_EQ(view.sections.size(), 1u);
  EXPECT_EQ(uniformCellSize(view.sections.front()), 4);
  auto context = DeviceContext::acquire("0");
  DeviceRun direct(context);
  const std::vector<ImportedGroup> expected = imported(direct, view);
  ASSERT_EQ(expected.size(), 2u);
  const ForcedStaging forced(context);
  DeviceRun staged(context);
  EXPECT_TRUE(imported(staged, view) == expected);
  // Staged: the ids narrowed to 32 bits, the 64-bit offsets not sent.
  EXPECT_EQ(staged.bytesUploaded(), direct.bytesUploaded() - 8 * (cells + 1) - 4 * 4 * cells);
}

namespace
{
// A grid of unit squares, every third a quad and the others two triangles, 64-bit ids.
struct SquareGrid
{
  std::vector<double> xyz;
  std::vector<std::int64_t> offsets{ 0 };
  std::vector<std::int64_t> connectivity;
  std::vector<std::uint8_t> types; // 5: triangle, 9: quad (VTK's codes)

  explicit SquareGrid(int n)
  {
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i)
        xyz.insert(xyz.end(), { i + 0.01 * j, j + 0.02 * i, 0.1 * ((i * j) % 5) });
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
      {
        const std::int64_t a = j * (n + 1) + i, b = a + 1, c = b + n + 1, d = a + n + 1;
        if ((i + j) % 3 == 0)
          add({ a, b, c, d }, 9);
        else
        {
          add({ a, b, c }, 5);
          add({ a, c, d }, 5);
        }
      }
  }
  void add(std::initializer_list<std::int64_t> ids, std::uint8_t type)
  {
    connectivity.insert(connectivity.end(), ids);
    offsets.push_back(static_cast<std::int64_t>(connectivity.size()));
    types.push_back(type);
  }
  std::int64_t cells() const { return static_cast<std::int64_t>(types.size()); }
};

CellTypeTable squareTypes()
{
  CellTypeTable table;
  table.set(5, CellKind::Triangle);
  table.set(9, CellKind::Quad);
  return table;
}

} // namespace

// A distributed piece goes to the device as the input's arrays followed by its ghost layer's:
// points in two parts, the cells in two sections, groups of one kind from both merged. The
// device mesh must be the one of the same mesh given in one piece.
TEST(MeshImport, PointsInTwoPartsAndCellsInTwoSectionsGiveTheMeshOfOneView)
{
  const SquareGrid grid(30);
  const CellTypeTable table = squareTypes();
  const auto whole = [&](const std::vector<double>& xyz) {
    MeshView view;
    view.points.xyz = xyz.data();
    view.points.isDouble = true;
    view.points.count = static_cast<std::int64_t>(xyz.size() / 3);
    CellSection section;
    section.layout = SectionLayout::ByTypeCode;
    section.cellCount = grid.cells();
    section.offsets = grid.offsets.data();
    section.connectivity = grid.connectivity.data();
    section.indices64 = true;
    section.typeCodes = grid.types.data();
    section.table = &table;
    view.sections.push_back(section);
    return view;
  };
  // The head: the first 600 points and the first 700 cells; the rest in a tail.
  const std::int64_t headPoints = 600, headCells = 700;
  std::vector<std::int64_t> tailOffsets;
  const std::int64_t firstId = grid.offsets[headCells];
  for (std::int64_t c = headCells; c <= grid.cells(); ++c)
    tailOffsets.push_back(grid.offsets[c] - firstId);
  const auto split = [&](const std::vector<double>& xyz) {
    MeshView view = whole(xyz);
    view.points.tailXyz = xyz.data() + 3 * headPoints;
    view.points.tailCount = view.points.count - headPoints;
    CellSection head = view.sections.front();
    head.cellCount = headCells;
    CellSection tail = head;
    tail.firstCellId = headCells;
    tail.cellCount = grid.cells() - headCells;
    tail.offsets = tailOffsets.data();
    tail.connectivity = grid.connectivity.data() + firstId;
    tail.typeCodes = grid.types.data() + headCells;
    view.sections = { head, tail };
    return view;
  };
  // The head alone: what a kept piece holds before its ghost layer extends it.
  const auto headOf = [&](MeshView view) {
    view.points.count = headPoints;
    view.points.tailXyz = nullptr;
    view.points.tailCount = 0;
    view.sections.resize(1);
    return view;
  };
  // The tail's points are read from a copy, so that only the view's pointers can bring them.
  std::vector<double> tailCopy(grid.xyz.begin() + 3 * headPoints, grid.xyz.end());
  auto context = DeviceContext::acquire("0");
  for (Precision precision : { Precision::Single, Precision::Double })
  {
    DeviceRun run(context, precision);
    MeshView twoParts = split(grid.xyz);
    twoParts.points.tailXyz = tailCopy.data();
    const std::vector<ImportedGroup> expected = imported(run, whole(grid.xyz));
    ASSERT_EQ(expected.size(), 2u);
    EXPECT_TRUE(imported(run, twoParts) == expected) << precisionName(precision);
    const DeviceMesh one(run, whole(grid.xyz)), two(run, twoParts);
    EXPECT_EQ(pointsOf(run, one), pointsOf(run, two)) << precisionName(precision);

    // The same mesh from its head already on the device (a kept piece) and the tail (its
    // ghost layer), far from the origin so that Single rounds relative to it; the head is
    // left as it was.
    std::vector<double> far(grid.xyz);
    for (double& value : far)
      value += 1000.0;
    std::vector<double> farTail(far.begin() + 3 * headPoints, far.end());
    MeshView wholeFar = whole(far), twoFar = split(far);
    twoFar.points.tailXyz = farTail.data();
    for (MeshView* view : { &wholeFar, &twoFar })
      view->points.origin = { 1015.0, 1015.0, 1000.0 };
    const DeviceMesh head(run, headOf(twoFar));
    const std::vector<ImportedGroup> headBefore = groupsOf(run, head);
    const std::vector<double> headPointsBefore = pointsOf(run, head);
    const DeviceMesh full(run, wholeFar), extended(run, head, twoFar, 1);
    EXPECT_EQ(extended.pointCount(), full.pointCount());
    EXPECT_EQ(extended.cellCount(), full.cellCount());
    EXPECT_EQ(extended.origin(), full.origin());
    EXPECT_TRUE(groupsOf(run, extended) == groupsOf(run, full)) << precisionName(precision);
    EXPECT_EQ(pointsOf(run, extended), pointsOf(run, full)) << precisionName(precision);
    EXPECT_TRUE(groupsOf(run, head) == headBefore);
    EXPECT_EQ(pointsOf(run, head), headPointsBefore);
  }
  // A non-finite point in the tail is named by its index in the whole mesh, whether the head
  // goes up with it or is on the device already.
  tailCopy[3 * 5 + 1] = std::numeric_limits<double>::quiet_NaN();
  DeviceRun run(context, Precision::Double);
  MeshView bad = split(grid.xyz);
  bad.points.tailXyz = tailCopy.data();
  const std::string named = "Point " + std::to_string(headPoints + 5) + " has a non-finite";
  EXPECT_NE(importError(run, bad).find(named), std::string::npos) << importError(run, bad);
  const DeviceMesh head(run, headOf(bad));
  std::string extensionError = "no error";
  try
  {
    const DeviceMesh extended(run, head, bad, 1);
  }
  catch (const Error& error)
  {
    extensionError = error.what();
  }
  EXPECT_NE(extensionError.find(named), std::string::npos) << extensionError;
  // A prefix that is not the view's beginning is refused.
  EXPECT_THROW(DeviceMesh(run, head, whole(grid.xyz), 1), Error);
}

// Polygons (a kind of variable size) from two sections are refused by name, not merged wrongly.
TEST(MeshImport, PolygonsFromTwoSectionsAreAnError)
{
  const PolygonStrip strip(6);
  MeshView view = strip.view();
  CellSection again = view.sections.front();
  again.firstCellId = again.cellCount;
  view.sections.push_back(again);
  DeviceRun run(DeviceContext::acquire("0"));
  EXPECT_NE(importError(run, view).find("come from two sections"), std::string::npos) << importError(run, view);
}
