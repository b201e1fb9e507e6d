#include "gpumesh/topology/VertexTable.h"

#include "gpumesh/primitives/Scan.h"

#include <algorithm>
#include <limits>

namespace gpumesh
{

namespace
{
constexpr std::uint64_t maxEntries = static_cast<std::uint64_t>(std::numeric_limits<cl_int>::max());

void checkLayout(const VertexTableLayout& layout)
{
  unsigned previous = 0;
  for (unsigned width : layout.widths)
  {
    if (width == 0 || (width & (width - 1)) != 0 || width <= previous || width > 1024)
    {
      throw Error("vertex table widths must be ascending powers of two up to 1024; got " +
        std::to_string(width) + " after " + std::to_string(previous));
    }
    previous = width;
  }
}
} // namespace

VertexTable::VertexTable(DeviceRun& run, std::size_t vertexCount, const DeviceBuffer<cl_int2>& pairs,
  std::size_t pairCount, const VertexTableLayout& layout)
  : VertexCount(vertexCount)
  , LongRowThreshold(layout.longRow)
{
  checkLayout(layout);
  if (vertexCount > maxEntries || pairCount > maxEntries)
  {
    throw Error("a vertex table of " + std::to_string(vertexCount) + " vertices and " +
      std::to_string(pairCount) + " entries exceeds the device's 32-bit indices");
  }
  const char* program = "vertex_table";
  const auto vertices = static_cast<cl_int>(vertexCount);
  const auto count = static_cast<cl_int>(pairCount);

  DeviceBuffer<cl_uint> lengths = run.allocate<cl_uint>(vertexCount, "vertex row lengths");
  run.fill(lengths, cl_uint(0), "vertex row lengths");
  run.call({ program, "count_pairs" }, pairCount, "vertex table count", pairs, count, lengths);

  RowStart = run.allocate<cl_uint>(vertexCount, "vertex row starts");
  run.fill(RowStart, cl_uint(0), "vertex row starts");
  DeviceBuffer<cl_uint> selected = run.allocate<cl_uint>(vertexCount, "vertex row selection");
  DeviceBuffer<cl_uint> positions = run.allocate<cl_uint>(vertexCount + 1, "vertex row positions");

  // One pass per table: rows of length in [low, high] go to the table of `width` (0: overflow).
  std::vector<unsigned> widths = layout.widths;
  widths.push_back(0);
  std::uint64_t base = 0;
  cl_uint low = 1;
  for (unsigned width : widths)
  {
    const cl_uint high = width ? width : std::numeric_limits<cl_uint>::max();
    run.call({ program, "select_rows" }, vertexCount, "vertex table layout", lengths, vertices, low, high,
      selected);
    const std::uint64_t rows = exclusiveScan(run, selected, vertexCount, positions, "vertex table rows");
    if (rows > 0)
    {
      VertexTableClass table;
      table.width = width;
      table.rows = static_cast<std::size_t>(rows);
      table.base = static_cast<std::size_t>(base);
      table.vertices = run.allocate<cl_int>(table.rows, "vertex table rows");
      DeviceBuffer<cl_uint> capacity = run.allocate<cl_uint>(width ? 0 : table.rows, "overflow capacity");
      run.call({ program, "place_rows" }, vertexCount, "vertex table layout", lengths, vertices, low, high,
        positions, static_cast<cl_uint>(base), static_cast<cl_uint>(width), table.vertices, RowStart,
        capacity);
      std::uint64_t entries = rows * width;
      if (width == 0)
      {
        table.offsets = run.allocate<cl_uint>(table.rows + 1, "overflow offsets");
        entries = exclusiveScan(run, capacity, table.rows, table.offsets, "overflow entries");
        run.call({ program, "place_overflow" }, table.rows, "vertex table layout", table.vertices,
          static_cast<cl_int>(table.rows), table.offsets, static_cast<cl_uint>(base), RowStart);
      }
      base += entries;
      if (base > maxEntries)
      {
        throw Error("the vertex table needs " + std::to_string(base) +
          " entries, more than the 2^31-1 that the device's 32-bit indices can address");
      }
      Classes.push_back(std::move(table));
    }
    low = width + 1;
  }
  positions.release();

  Entries = run.allocate<cl_int>(static_cast<std::size_t>(base), "vertex table entries");
  run.fill(Entries, cl_int(-1), "vertex table entries");
  DeviceBuffer<cl_uint>& cursors = selected; // the selection is no longer needed
  run.fill(cursors, cl_uint(0), "vertex row cursors");
  run.call({ program, "fill_rows" }, pairCount, "vertex table fill", pairs, count, RowStart, cursors,
    Entries);

  Degree = run.allocate<cl_int>(vertexCount, "vertex degrees");
  run.call({ program, "sort_rows" }, vertexCount, "vertex table sort", RowStart, lengths, vertices, Entries,
    Degree);

  // The long rows by their distinct count, numbered by a scan: ascending, whatever the schedule.
  run.call({ program, "select_long_rows" }, vertexCount, "vertex table long rows", Degree, vertices,
    static_cast<cl_int>(std::min<unsigned>(layout.longRow, static_cast<unsigned>(maxEntries))), selected);
  positions = run.allocate<cl_uint>(vertexCount + 1, "long row positions");
  const std::uint64_t longRows = exclusiveScan(run, selected, vertexCount, positions, "vertex table long rows");
  LongRows = run.allocate<cl_int>(static_cast<std::size_t>(longRows), "long rows");
  if (longRows > 0)
  {
    run.call({ program, "list_long_rows" }, vertexCount, "vertex table long rows", selected, vertices, positions,
      LongRows);
  }
}

void VertexTable::sortRowsBy(DeviceRun& run, const DeviceBuffer<cl_uint>& keys)
{
  run.call({ "vertex_table", "sort_rows_by_key" }, VertexCount, "vertex table order", RowStart, Degree,
    static_cast<cl_int>(VertexCount), keys, Entries);
}

std::vector<std::vector<int>> VertexTable::rows(DeviceRun& run) const
{
  std::vector<cl_int> entries(Entries.size()), degree(VertexCount);
  std::vector<cl_uint> start(VertexCount);
  run.download(Entries, entries.data(), entries.size(), "vertex table entries");
  run.download(Degree, degree.data(), degree.size(), "vertex degrees");
  run.download(RowStart, start.data(), start.size(), "vertex row starts");
  std::vector<std::vector<int>> result(VertexCount);
  for (std::size_t v = 0; v < VertexCount; ++v)
  {
    result[v].assign(entries.begin() + start[v], entries.begin() + start[v] + degree[v]);
  }
  return result;
}

} // namespace gpumesh
