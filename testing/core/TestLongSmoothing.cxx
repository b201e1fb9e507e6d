// A long smoothing (10^5 iterations of a tiny mesh): memory stays flat, the step observer sees
// every step and can stop the smoothing, and the folded timings still count every launch.
#include "TestMesh.h"

#include "gpumesh/algorithms/Smoothing.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <unistd.h>

using namespace gpumesh;

namespace
{
// A hexagon of six triangles around a hub.
testmesh::Mesh hexagon()
{
  testmesh::Mesh mesh;
  mesh.xyz = { 0.2, 0.1, 0.0 };
  const double pi = std::acos(-1.0);
  for (int k = 0; k < 6; ++k)
    mesh.xyz.insert(mesh.xyz.end(), { std::cos(pi * k / 3), std::sin(pi * k / 3), 0.0 });
  for (int k = 0; k < 6; ++k)
    mesh.cells.push_back({ CellKind::Triangle, { 0, 1 + k, 1 + (k + 1) % 6 } });
  return mesh;
}

std::size_t residentBytes()
{
  std::ifstream statm("/proc/self/statm");
  std::size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

SmoothingOptions laplacian(int iterations)
{
  SmoothingOptions options;
  options.boundary = SmoothingBoundary::Fixed;
  options.iterations = iterations;
  return options;
}

struct LongRun
{
  std::size_t residentAfter = 0;   ///< resident memory with the run's records still alive
  std::size_t mostPending = 0;     ///< the most events pending at any step
  int observedSteps = 0;
  unsigned relaxLaunches = 0;      ///< launches counted by timings()
};

LongRun smoothFor(int iterations)
{
  const HostMesh host = testmesh::toHost(hexagon());
  DeviceRun run(DeviceContext::acquire("auto"));
  LongRun result;
  smoothVertices(run, host, laplacian(iterations), {}, [&](DeviceRun& r, auto&, int step, int) {
    result.mostPending = std::max(result.mostPending, r.pendingEvents());
    result.observedSteps = step;
    return true;
  });
  result.residentAfter = residentBytes();
  for (const CommandTiming& timing : run.timings())
    if (timing.label.rfind("relax", 0) == 0)
      result.relaxLaunches += timing.count;
  return result;
}
} // namespace

TEST(LongSmoothing, MemoryDoesNotGrowWithTheIterations)
{
  smoothFor(1000); // programs compiled, allocator warmed up
  const LongRun short_ = smoothFor(10000);
  const LongRun long_ = smoothFor(100000);
  EXPECT_EQ(short_.observedSteps, 10000);
  EXPECT_EQ(long_.observedSteps, 100000);
  // Every launch is still timed: the same number of relax launches per step.
  ASSERT_GT(short_.relaxLaunches, 0u);
  EXPECT_EQ(short_.relaxLaunches % 10000u, 0u);
  EXPECT_EQ(long_.relaxLaunches, 10 * short_.relaxLaunches);
  EXPECT_LE(long_.mostPending, 2 * DeviceRun::foldBatch);
  // One event kept per launch cost about 1.3 kB (127 MB more at 10^5 than at 10^4).
  const double grownMiB = (static_cast<double>(long_.residentAfter) - static_cast<double>(short_.residentAfter)) / (1 << 20);
  EXPECT_LT(grownMiB, 8.0) << "resident memory grew by " << grownMiB << " MiB from 10^4 to 10^5 iterations";
}

TEST(LongSmoothing, AnObserverStopsTheSmoothingBetweenSteps)
{
  const HostMesh host = testmesh::toHost(hexagon());
  DeviceRun run(DeviceContext::acquire("auto"));
  int last = 0;
  const std::vector<double> stopped = smoothVertices(run, host, laplacian(1000000), {},
    [&](DeviceRun&, auto&, int step, int steps) {
      EXPECT_EQ(steps, 1000000);
      last = step;
      return step < 5;
    });
  EXPECT_EQ(last, 5);
  // The result is the 5th iterate, as if 5 iterations had been asked for.
  EXPECT_EQ(stopped, smoothVertices(run, host, laplacian(5)));
  EXPECT_NE(stopped, smoothVertices(run, host, laplacian(4)));
}
