// Gather, scatter and fill through index lists (the halo exchange and ghost masking), in both
// precisions.
#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/runtime/DeviceContext.h"
#include "gpumesh/runtime/DeviceRun.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using namespace gpumesh;

namespace
{
// 4 values per element, as the smoothing's displacements.
std::vector<double> numbered(int count)
{
  std::vector<double> values;
  for (int i = 0; i < count; ++i)
  {
    values.insert(values.end(), { double(i), 10.0 * i, -i - 0.25, 0.5 });
  }
  return values;
}

class IndexedCopy : public ::testing::TestWithParam<Precision>
{
};
} // namespace

TEST_P(IndexedCopy, GatherThenScatterMovesOnlyTheIndexedElements)
{
  DeviceRun run(DeviceContext::acquire("auto"), GetParam());
  const std::vector<double> host = numbered(1000);
  RealBuffer values = run.uploadReal(host.data(), host.size(), "points");
  const std::vector<std::int32_t> indices = { 999, 0, 512, 7 };

  const std::vector<double> gathered = gather(run, values, 4, indices, "interface");
  ASSERT_EQ(gathered.size(), 4 * indices.size());
  for (std::size_t i = 0; i < indices.size(); ++i)
  {
    for (int k = 0; k < 4; ++k)
    {
      EXPECT_EQ(gathered[4 * i + k], host[4 * indices[i] + k]);
    }
  }

  std::vector<double> replacement;
  for (std::size_t i = 0; i < indices.size(); ++i)
  {
    replacement.insert(replacement.end(), { -1.0, -2.0, -3.0, 0.0 });
  }
  scatter(run, values, 4, indices, replacement, "interface");
  std::vector<double> after(host.size());
  run.download(values, after.data(), after.size(), "points");
  for (std::size_t p = 0; p < host.size() / 4; ++p)
  {
    const bool indexed = p == 999 || p == 0 || p == 512 || p == 7;
    EXPECT_EQ(after[4 * p], indexed ? -1.0 : host[4 * p]) << "point " << p;
    EXPECT_EQ(after[4 * p + 2], indexed ? -3.0 : host[4 * p + 2]) << "point " << p;
    EXPECT_EQ(after[4 * p + 3], indexed ? 0.0 : host[4 * p + 3]) << "point " << p;
  }
}

// The halo's way: gathered into and scattered from the caller's floats or doubles, in either
// precision (the buffer's own type is moved as it is, the other converted), repeated with the
// same indices.
TEST_P(IndexedCopy, DeviceIndicesGatherIntoAndScatterFromHostValuesOfEitherType)
{
  DeviceRun run(DeviceContext::acquire("auto"), GetParam());
  const std::vector<double> host = numbered(1000);
  RealBuffer values = run.uploadReal(host.data(), host.size(), "points");
  const std::vector<std::int32_t> indices = { 5, 998, 0, 321 };
  const DeviceIndices where(run, indices, host.size() / 4, "halo");

  std::vector<float> floats(4 * indices.size(), -99.0f);
  std::vector<double> doubles(4 * indices.size(), -99.0);
  for (int repeat = 0; repeat < 2; ++repeat)
  {
    where.gather(run, values, 4, floats.data());
    where.gather(run, values, 4, doubles.data());
    for (std::size_t i = 0; i < indices.size(); ++i)
    {
      for (int k = 0; k < 4; ++k)
      {
        // Every value of numbered() is exact in float.
        EXPECT_EQ(floats[4 * i + k], static_cast<float>(host[4 * indices[i] + k])) << "entry " << i;
        EXPECT_EQ(doubles[4 * i + k], host[4 * indices[i] + k]) << "entry " << i;
      }
    }
  }

  std::vector<float> fromFloats(4 * indices.size());
  for (std::size_t i = 0; i < fromFloats.size(); ++i)
    fromFloats[i] = -0.5f * static_cast<float>(i + 1);
  where.scatter(run, values, 4, fromFloats.data());
  std::vector<double> after(host.size());
  run.download(values, after.data(), after.size(), "points");
  for (std::size_t i = 0; i < indices.size(); ++i)
  {
    for (int k = 0; k < 4; ++k)
      EXPECT_EQ(after[4 * indices[i] + k], static_cast<double>(fromFloats[4 * i + k])) << "entry " << i;
  }
  EXPECT_EQ(after[4 * 1], host[4 * 1]); // not indexed: untouched
  EXPECT_EQ(after[4 * 999 + 1], host[4 * 999 + 1]);

  std::vector<double> fromDoubles(4 * indices.size(), 0.125);
  where.scatter(run, values, 4, fromDoubles.data());
  run.download(values, after.data(), after.size(), "points");
  for (std::int32_t p : indices)
    EXPECT_EQ(after[4 * static_cast<std::size_t>(p) + 2], 0.125);
}

TEST_P(IndexedCopy, FillAtSetsNaNWhereAsked)
{
  DeviceRun run(DeviceContext::acquire("auto"), GetParam());
  std::vector<double> host(300, 2.0);
  RealBuffer values = run.uploadReal(host.data(), host.size(), "values");
  fillAt(run, values, { 3, 299 }, NAN, "ghost cells");
  run.download(values, host.data(), host.size(), "values");
  for (std::size_t i = 0; i < host.size(); ++i)
  {
    EXPECT_EQ(std::isnan(host[i]), i == 3 || i == 299) << "value " << i;
  }
}

TEST_P(IndexedCopy, IndicesOutsideTheBufferAndMismatchedSizesAreErrors)
{
  DeviceRun run(DeviceContext::acquire("auto"), GetParam());
  const std::vector<double> host = numbered(10);
  RealBuffer values = run.uploadReal(host.data(), host.size(), "points");
  EXPECT_THROW(gather(run, values, 4, { 10 }, "interface"), Error);
  EXPECT_THROW(gather(run, values, 4, { -1 }, "interface"), Error);
  EXPECT_THROW(scatter(run, values, 4, { 1, 2 }, numbered(1), "interface"), Error);
  EXPECT_TRUE(gather(run, values, 4, {}, "interface").empty());
}

TEST_P(IndexedCopy, DeviceIndicesServeRepeatedExchangesAndCheckTheBuffer)
{
  // As a halo exchange every step: the same indices, checked and uploaded once, gather the
  // changing values again and again, and scatter into them.
  DeviceRun run(DeviceContext::acquire("auto"), GetParam());
  const std::vector<std::int32_t> indices = { 5, 0, 99 };
  const DeviceIndices indexed(run, indices, 100, "interface");
  EXPECT_EQ(indexed.size(), indices.size());
  for (int step = 0; step < 3; ++step)
  {
    std::vector<double> host = numbered(100);
    for (double& value : host)
      value += step;
    RealBuffer values = run.uploadReal(host.data(), host.size(), "points");
    const std::vector<double> gathered = indexed.gather(run, values, 4);
    ASSERT_EQ(gathered.size(), 4 * indices.size());
    for (std::size_t i = 0; i < indices.size(); ++i)
      for (int k = 0; k < 4; ++k)
        EXPECT_EQ(gathered[4 * i + k], host[4 * indices[i] + k]) << "step " << step;
    const std::vector<double> replacement(4 * indices.size(), -1.0 - step);
    indexed.scatter(run, values, 4, replacement);
    std::vector<double> after(host.size());
    run.download(values, after.data(), after.size(), "points");
    for (std::size_t p = 0; p < 100; ++p)
    {
      const bool hit = p == 5 || p == 0 || p == 99;
      EXPECT_EQ(after[4 * p + 1], hit ? -1.0 - step : host[4 * p + 1]) << "point " << p << ", step " << step;
    }
  }
  EXPECT_THROW(DeviceIndices(run, { 100 }, 100, "interface"), Error);
  EXPECT_THROW(DeviceIndices(run, { -1 }, 100, "interface"), Error);
  // A buffer smaller than the elements the indices were checked against, and a value count
  // unlike the indices', are errors, not reads or writes outside it.
  const std::vector<double> small = numbered(50);
  RealBuffer smaller = run.uploadReal(small.data(), small.size(), "points");
  EXPECT_THROW(indexed.gather(run, smaller, 4), Error);
  EXPECT_THROW(indexed.scatter(run, smaller, 4, std::vector<double>(12, 0.0)), Error);
  EXPECT_THROW(indexed.scatter(run, smaller, 4, std::vector<double>(8, 0.0)), Error);
  EXPECT_TRUE(DeviceIndices(run, {}, 0, "interface").gather(run, smaller, 4).empty());
}

INSTANTIATE_TEST_SUITE_P(Precisions, IndexedCopy, ::testing::Values(Precision::Single, Precision::Double),
  [](const ::testing::TestParamInfo<Precision>& info) {
    return info.param == Precision::Double ? "Double" : "Single";
  });

TEST(IndexedCopyOfIntegers, GatherReturnsTheIndexedRowsAndRejectsIndicesOutside)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  std::vector<cl_int> host(3 * 1000);
  for (std::size_t i = 0; i < host.size(); ++i)
    host[i] = static_cast<cl_int>(7 * i + 1);
  const DeviceBuffer<cl_int> rows = run.upload(host.data(), host.size(), "triangles");
  const std::vector<std::int32_t> picked = { 999, 0, 500, 500, 3 };
  const std::vector<cl_int> gathered = gather(run, rows, 3, picked, "triangles");
  ASSERT_EQ(gathered.size(), 3 * picked.size());
  for (std::size_t i = 0; i < picked.size(); ++i)
    for (int k = 0; k < 3; ++k)
      EXPECT_EQ(gathered[3 * i + k], host[3 * picked[i] + k]) << "row " << picked[i];
  EXPECT_THROW(gather(run, rows, 3, { 1000 }, "triangles"), Error);
  EXPECT_THROW(gather(run, rows, 3, { -1 }, "triangles"), Error);
  EXPECT_TRUE(gather(run, rows, 3, {}, "triangles").empty());
}
