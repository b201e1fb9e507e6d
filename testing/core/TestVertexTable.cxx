// GMlib-style vertex tables built on the device against std::set rows built on the CPU.
#include "gpumesh/topology/VertexTable.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

using namespace gpumesh;

namespace
{
struct Pairs
{
  std::size_t vertices = 0;
  std::vector<cl_int2> pairs;
};

// Random pairs with many repeats, skipped pairs (vertex -1), vertices without pairs, and one
// vertex with 5000 pairs (the heapsort path and a long overflow row).
Pairs randomPairs(std::size_t vertices, unsigned seed)
{
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> vertex(0, static_cast<int>(vertices) - 1);
  std::uniform_int_distribution<int> value(0, 40);
  std::geometric_distribution<int> length(0.15);
  Pairs result{ vertices, {} };
  for (std::size_t v = 0; v < vertices; v += 2) // odd vertices stay empty unless picked below
    for (int k = length(generator); k > 0; --k)
      result.pairs.push_back({ { static_cast<cl_int>(v), value(generator) } });
  for (int k = 0; k < 5000; ++k)
    result.pairs.push_back({ { 7, static_cast<cl_int>(vertex(generator)) } });
  for (int k = 0; k < 300; ++k)
    result.pairs.push_back({ { -1, 12345 } });
  for (int k = 0; k < 200; ++k)
    result.pairs.push_back({ { vertex(generator), 3 } });
  std::shuffle(result.pairs.begin(), result.pairs.end(), generator);
  return result;
}

struct Built
{
  std::vector<std::vector<int>> rows;
  struct Table
  {
    unsigned width;
    std::vector<cl_int> vertices;
  };
  std::vector<Table> tables;
};

Built build(const Pairs& input, const VertexTableLayout& layout)
{
  DeviceRun run(DeviceContext::acquire("auto"));
  DeviceBuffer<cl_int2> pairs = run.upload(input.pairs.data(), input.pairs.size(), "pairs");
  VertexTable table(run, input.vertices, pairs, input.pairs.size(), layout);
  Built built{ table.rows(run), {} };
  for (const VertexTableClass& c : table.classes())
  {
    Built::Table t{ c.width, std::vector<cl_int>(c.rows) };
    run.download(c.vertices, t.vertices.data(), c.rows, "row vertices");
    built.tables.push_back(std::move(t));
  }
  return built;
}

void expectMatchesCpu(const Pairs& input, const VertexTableLayout& layout)
{
  std::vector<std::set<int>> expected(input.vertices);
  std::vector<std::size_t> length(input.vertices, 0); // pairs per vertex, repeats included
  for (const cl_int2& p : input.pairs)
    if (p.s[0] >= 0)
    {
      expected[p.s[0]].insert(p.s[1]);
      ++length[p.s[0]];
    }
  const Built built = build(input, layout);
  for (std::size_t v = 0; v < input.vertices; ++v)
  {
    ASSERT_EQ(built.rows[v], std::vector<int>(expected[v].begin(), expected[v].end())) << "vertex " << v;
  }
  // Every vertex with pairs has exactly one row, in the narrowest table that fits its pairs,
  // or in the overflow table (width 0, last) beyond the widest.
  const unsigned widest = layout.widths.empty() ? 0 : layout.widths.back();
  std::map<int, unsigned> tableOf;
  unsigned previousWidth = 0;
  for (std::size_t t = 0; t < built.tables.size(); ++t)
  {
    const auto& table = built.tables[t];
    EXPECT_TRUE(table.width == 0 ? t + 1 == built.tables.size() : table.width > previousWidth);
    previousWidth = table.width;
    EXPECT_TRUE(std::is_sorted(table.vertices.begin(), table.vertices.end()));
    for (cl_int v : table.vertices)
      EXPECT_TRUE(tableOf.emplace(v, table.width).second) << "vertex " << v << " has two rows";
  }
  for (std::size_t v = 0; v < input.vertices; ++v)
  {
    if (length[v] == 0)
    {
      EXPECT_EQ(tableOf.count(int(v)), 0u);
      continue;
    }
    ASSERT_EQ(tableOf.count(int(v)), 1u) << "vertex " << v;
    unsigned expectedWidth = 0;
    for (unsigned w : layout.widths)
      if (w >= length[v])
      {
        expectedWidth = w;
        break;
      }
    EXPECT_EQ(tableOf[int(v)], length[v] > widest ? 0u : expectedWidth) << "vertex " << v;
  }
}
} // namespace

TEST(VertexTable, DefaultLayoutMatchesCpuSets)
{
  expectMatchesCpu(randomPairs(3000, 1), VertexTableLayout{});
}

TEST(VertexTable, NarrowLayoutSendsMostRowsToOverflow)
{
  expectMatchesCpu(randomPairs(3000, 2), VertexTableLayout{ { 4 } });
}

TEST(VertexTable, EveryRowInOverflowWithoutWidths)
{
  expectMatchesCpu(randomPairs(2000, 3), VertexTableLayout{ {} });
}

TEST(VertexTable, AllWidthsUpTo1024)
{
  expectMatchesCpu(randomPairs(2000, 4), VertexTableLayout{ { 1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024 } });
}

TEST(VertexTable, NoPairs)
{
  const Built built = build(Pairs{ 5, {} }, VertexTableLayout{});
  EXPECT_TRUE(built.tables.empty());
  for (const auto& row : built.rows)
    EXPECT_TRUE(row.empty());
}

TEST(VertexTable, RejectsWidthsThatAreNotAscendingPowersOfTwo)
{
  for (const std::vector<unsigned>& widths : { std::vector<unsigned>{ 8, 4 }, { 6 }, { 0 }, { 2048 } })
  {
    EXPECT_THROW(build(Pairs{ 2, { { { 0, 1 } } } }, VertexTableLayout{ widths }), Error);
  }
}
