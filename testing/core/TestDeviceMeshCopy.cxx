// copyOnDevice (core/gpumesh/mesh/DeviceMeshCopy.h): the copy's points and groups equal the
// original's, in buffers of its own (modifying the copy's connectivity leaves the original's
// alone), and it takes the device memory copyOnDeviceBytes says. copyOrImport copies where the
// device has room for the copy, and otherwise lets the original go and imports the mesh again.
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/mesh/DeviceMeshCopy.h"
#include "gpumesh/mesh/HostMesh.h"
#include "gpumesh/runtime/DeviceRun.h"

#include "TestMesh.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

using namespace gpumesh;

namespace
{
// A jittered strip of unit squares: triangles, quads, one polygon (a group with offsets) and a
// line, cells of several kinds interleaved in id order.
HostMesh mixedStrip(int squares)
{
  std::vector<double> xyz;
  for (int i = 0; i <= squares + 1; ++i)
    xyz.insert(xyz.end(), { i + 0.01 * (i % 3), 0.0, 0.1 * i, double(i), 1.0 + 0.02 * (i % 5), 0.0 });
  HostMesh mesh;
  mesh.setPoints(xyz.data(), static_cast<std::int64_t>(xyz.size() / 3));
  std::vector<std::pair<CellKind, std::vector<std::int64_t>>> cells;
  for (std::int64_t i = 0; i < squares; ++i)
  {
    const std::int64_t a = 2 * i, b = a + 2, c = a + 3, d = a + 1;
    if (i % 4 == 0)
      cells.push_back({ CellKind::Quad, { a, b, c, d } });
    else
    {
      cells.push_back({ CellKind::Triangle, { a, b, c } });
      cells.push_back({ CellKind::Triangle, { a, c, d } });
    }
  }
  const std::int64_t a = 2 * squares;
  cells.push_back({ CellKind::Polygon, { a, a + 2, a + 3, a + 1 } });
  cells.push_back({ CellKind::Line, { 0, 1 } });
  mesh.setCellCount(static_cast<std::int64_t>(cells.size()));
  for (std::size_t c = 0; c < cells.size(); ++c)
    mesh.addCell(static_cast<std::int64_t>(c), cells[c].first, cells[c].second.data(),
      static_cast<std::int64_t>(cells[c].second.size()));
  return mesh;
}

template <typename T>
std::vector<T> onHost(DeviceRun& run, const DeviceBuffer<T>& buffer)
{
  std::vector<T> values(buffer.size());
  run.download(buffer, values.data(), values.size(), "test");
  return values;
}

std::vector<double> onHost(DeviceRun& run, const RealBuffer& buffer)
{
  std::vector<double> values(buffer.size());
  run.download(buffer, values.data(), values.size(), "test");
  return values;
}

void expectSameMesh(DeviceRun& run, const DeviceMesh& copy, const DeviceMesh& original)
{
  EXPECT_EQ(copy.pointCount(), original.pointCount());
  EXPECT_EQ(copy.cellCount(), original.cellCount());
  EXPECT_EQ(copy.origin(), original.origin());
  EXPECT_EQ(copy.points().precision(), original.points().precision());
  EXPECT_EQ(onHost(run, copy.points()), onHost(run, original.points()));
  EXPECT_NE(copy.points().handle().get(), original.points().handle().get());
  ASSERT_EQ(copy.groups().size(), original.groups().size());
  for (std::size_t g = 0; g < copy.groups().size(); ++g)
  {
    const DeviceCellGroup& a = copy.groups()[g];
    const DeviceCellGroup& b = original.groups()[g];
    EXPECT_EQ(a.kind, b.kind);
    EXPECT_EQ(a.count, b.count);
    EXPECT_EQ(onHost(run, a.connectivity), onHost(run, b.connectivity));
    EXPECT_EQ(onHost(run, a.offsets), onHost(run, b.offsets));
    EXPECT_EQ(onHost(run, a.cellIds), onHost(run, b.cellIds));
    EXPECT_NE(a.connectivity.handle().get(), b.connectivity.handle().get());
    EXPECT_NE(a.cellIds.handle().get(), b.cellIds.handle().get());
  }
}
} // namespace

TEST(DeviceMeshCopy, CopiesPointsAndEveryGroupInBuffersOfItsOwn)
{
  auto context = DeviceContext::acquire("0");
  const HostMesh host = mixedStrip(40);
  for (Precision precision : { Precision::Single, Precision::Double })
  {
    if (precision == Precision::Double && !context->info().hasDoublePrecision)
      continue;
    DeviceRun run(context, precision);
    const DeviceMesh original(run, host);
    // Four kinds: lines, triangles, quads and the polygon (with offsets).
    ASSERT_EQ(original.groups().size(), 4u);
    const std::uint64_t before = run.deviceMemoryInUse();
    DeviceMesh copy = copyOnDevice(run, original);
    EXPECT_EQ(run.deviceMemoryInUse() - before, copyOnDeviceBytes(original));
    expectSameMesh(run, copy, original);
  }
}

TEST(DeviceMeshCopy, ModifyingTheCopyLeavesTheOriginalAlone)
{
  auto context = DeviceContext::acquire("0");
  DeviceRun run(context);
  // A mesh of triangles only: the first group is the refinement's, taken and modified in place.
  std::vector<double> xyz{ 0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 2, 0, 0 };
  std::vector<std::int64_t> ids{ 0, 1, 2, 0, 2, 3, 1, 4, 2 };
  HostMesh host;
  host.setPoints(xyz.data(), 5);
  host.setCellCount(3);
  for (std::int64_t c = 0; c < 3; ++c)
    host.addCell(c, CellKind::Triangle, ids.data() + 3 * c, 3);
  const DeviceMesh original(run, host);
  const std::vector<cl_int> before = onHost(run, original.groups().front().connectivity);
  const std::vector<double> pointsBefore = onHost(run, original.points());

  DeviceMesh copy = copyOnDevice(run, original);
  DeviceBuffer<cl_int> taken = copy.takeConnectivity();
  ASSERT_EQ(taken.size(), before.size());
  run.fill(taken, cl_int(4), "modified connectivity");
  EXPECT_EQ(onHost(run, taken), std::vector<cl_int>(before.size(), 4));
  EXPECT_EQ(onHost(run, original.groups().front().connectivity), before);
  EXPECT_EQ(std::vector<cl_int>(before.begin(), before.end()), std::vector<cl_int>(ids.begin(), ids.end()));
  // A second copy, of the unmodified original, is the original again.
  const DeviceMesh again = copyOnDevice(run, original);
  expectSameMesh(run, again, original);
  EXPECT_EQ(onHost(run, original.points()), pointsBefore);
}

TEST(DeviceMeshCopy, CopiesAnEmptyMesh)
{
  auto context = DeviceContext::acquire("0");
  DeviceRun run(context);
  HostMesh host;
  host.setPoints(static_cast<const double*>(nullptr), 0);
  host.setCellCount(0);
  const DeviceMesh original(run, host);
  const DeviceMesh copy = copyOnDevice(run, original);
  EXPECT_EQ(copy.pointCount(), 0);
  EXPECT_EQ(copy.cellCount(), 0);
  EXPECT_TRUE(copy.groups().empty());
}

namespace
{
// Triangles of a jittered grid of n x n squares, float points and 32-bit ids as a polydata's:
// imported with few buffers beyond the mesh's own (its ids go up as they are).
struct TriangleGrid
{
  std::vector<float> xyz;
  std::vector<std::int32_t> offsets{ 0 }, connectivity;
  MeshView view;

  explicit TriangleGrid(int n)
  {
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i)
        xyz.insert(xyz.end(), { i + 0.1f * ((i * 7 + j * 3) % 5), j + 0.1f * ((i * 3 + j * 5) % 7), 0.0f });
    for (std::int32_t j = 0; j < n; ++j)
      for (std::int32_t i = 0; i < n; ++i)
      {
        const std::int32_t a = j * (n + 1) + i, b = a + 1, d = a + n + 1, e = d + 1;
        connectivity.insert(connectivity.end(), { a, b, e, a, e, d });
        offsets.push_back(offsets.back() + 3);
        offsets.push_back(offsets.back() + 3);
      }
    view = testmesh::polygonsView(xyz, offsets, connectivity);
  }
};
} // namespace

TEST(DeviceMeshCopy, CopyOrImportCopiesWhereTheDeviceHasRoom)
{
  auto context = DeviceContext::acquire("0");
  DeviceRun run(context);
  const TriangleGrid grid(100);
  auto kept = std::make_shared<const DeviceMesh>(run, grid.view);
  const std::uint64_t uploaded = run.bytesUploaded() + run.bytesReadInPlace();
  const DeviceMesh mesh = copyOrImport(run, kept, grid.view);
  EXPECT_EQ(run.bytesUploaded() + run.bytesReadInPlace(), uploaded); // nothing sent: a copy
  expectSameMesh(run, mesh, *kept);
}

TEST(DeviceMeshCopy, CopyOrImportWithoutRoomLetsTheKeptMeshGoAndImports)
{
  auto context = DeviceContext::acquire("0");
  context->kept().clear();
  const TriangleGrid grid(300);
  std::uint64_t importPeak = 0;
  {
    DeviceRun probe(context);
    const DeviceMesh imported(probe, grid.view);
    importPeak = probe.peakDeviceMemory();
  }
  DeviceRun run(context);
  auto kept = std::make_shared<const DeviceMesh>(run, grid.view);
  const std::uint64_t copyBytes = copyOnDeviceBytes(*kept);
  // The kept mesh's buffers are those of a copy: with `left` free beside it, a copy does not fit
  // while the import fits once the kept mesh is freed.
  const std::uint64_t left = importPeak / 2;
  ASSERT_LT(left, copyBytes);
  ASSERT_GE(left + copyBytes, importPeak);
  // The device filled up to `left` (buffers beyond the pool's sizes: allocated exactly, and on a
  // CPU device never touched).
  std::uint64_t fill = run.info().globalMemoryBytes - context->counters()->memoryInUse() - left;
  std::vector<DeviceBuffer<cl_uchar>> filler;
  while (fill > 0)
  {
    std::uint64_t chunk = std::min<std::uint64_t>(fill, run.info().maxAllocationBytes);
    if (fill > chunk && fill - chunk <= BufferPool::maxPooledBytes)
      chunk = fill / 2; // no small last chunk
    ASSERT_GT(chunk, BufferPool::maxPooledBytes);
    filler.push_back(run.allocate<cl_uchar>(static_cast<std::size_t>(chunk), "filler"));
    fill -= chunk;
  }
  const std::weak_ptr<const DeviceMesh> watched = kept;
  const std::uint64_t uploaded = run.bytesUploaded() + run.bytesReadInPlace();
  const DeviceMesh mesh = copyOrImport(run, std::move(kept), grid.view);
  EXPECT_TRUE(watched.expired()); // let go
  EXPECT_GT(run.bytesUploaded() + run.bytesReadInPlace(), uploaded); // imported
  filler.clear();
  const DeviceMesh reference(run, grid.view);
  expectSameMesh(run, mesh, reference);
}
