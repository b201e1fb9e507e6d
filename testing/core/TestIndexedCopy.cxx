// Gather, scatter and fill through index lists (the halo exchange and ghost masking).
#include "gpumesh/DeviceContext.h"
#include "gpumesh/DeviceRun.h"
#include "gpumesh/IndexedCopy.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace gpumesh;

namespace
{
std::vector<cl_float4> numbered(int count)
{
  std::vector<cl_float4> values(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i)
  {
    values[i] = { { float(i), float(10 * i), float(-i), 0.5f } };
  }
  return values;
}
} // namespace

TEST(IndexedCopy, GatherThenScatterMovesOnlyTheIndexedElements)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  const std::vector<cl_float4> host = numbered(1000);
  DeviceBuffer<cl_float4> values = run.upload(host.data(), host.size(), "points");
  const std::vector<std::int32_t> indices = { 999, 0, 512, 7 };

  const std::vector<cl_float4> gathered = gather(run, values, indices, "interface");
  ASSERT_EQ(gathered.size(), indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i)
  {
    for (int k = 0; k < 4; ++k)
    {
      EXPECT_EQ(gathered[i].s[k], host[indices[i]].s[k]);
    }
  }

  std::vector<cl_float4> replacement(indices.size(), cl_float4{ { -1.f, -2.f, -3.f, 0.f } });
  scatter(run, values, indices, replacement, "interface");
  std::vector<cl_float4> after(host.size());
  run.download(values, after.data(), after.size(), "points");
  for (std::size_t p = 0; p < host.size(); ++p)
  {
    const bool indexed = p == 999 || p == 0 || p == 512 || p == 7;
    EXPECT_EQ(after[p].s[0], indexed ? -1.f : host[p].s[0]) << "point " << p;
    EXPECT_EQ(after[p].s[2], indexed ? -3.f : host[p].s[2]) << "point " << p;
  }
}

TEST(IndexedCopy, FillAtSetsNaNWhereAsked)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  std::vector<float> host(300, 2.0f);
  DeviceBuffer<float> values = run.upload(host.data(), host.size(), "values");
  fillAt(run, values, { 3, 299 }, NAN, "ghost cells");
  run.download(values, host.data(), host.size(), "values");
  for (std::size_t i = 0; i < host.size(); ++i)
  {
    EXPECT_EQ(std::isnan(host[i]), i == 3 || i == 299) << "value " << i;
  }
}

TEST(IndexedCopy, IndicesOutsideTheBufferAndMismatchedSizesAreErrors)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  const std::vector<cl_float4> host = numbered(10);
  DeviceBuffer<cl_float4> values = run.upload(host.data(), host.size(), "points");
  EXPECT_THROW(gather(run, values, { 10 }, "interface"), Error);
  EXPECT_THROW(gather(run, values, { -1 }, "interface"), Error);
  EXPECT_THROW(scatter(run, values, { 1, 2 }, numbered(1), "interface"), Error);
  EXPECT_TRUE(gather(run, values, {}, "interface").empty());
}
