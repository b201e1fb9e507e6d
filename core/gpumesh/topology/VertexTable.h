// Per-vertex sorted sets of ints (neighbour vertices, cells of the ball...) stored GMlib-style:
// fixed-width power-of-two rows for the common sizes, an overflow table for the rest.
#pragma once
#include "gpumesh/runtime/DeviceRun.h"

#include <vector>

namespace gpumesh
{

/// Row widths of the fixed-width tables: ascending powers of two. A vertex whose row holds at
/// most widths[k] entries (and more than widths[k-1]) gets a row of widths[k] in table k;
/// longer rows go to the overflow table at their exact length. Nothing is ever truncated:
/// the widths only decide where a row lives. An empty list puts every row in the overflow.
struct VertexTableLayout
{
  std::vector<unsigned> widths{ 4, 8, 16, 32, 64 };
  /// Rows of more entries than this are long rows (VertexTable::longRows): a kernel shares each
  /// among the work-items of a work-group instead of giving it to one, which would walk a hub
  /// of degree 16384 alone while the rest of the device waits. 256, a work-group's width; 0
  /// makes every non-empty row long.
  unsigned longRow = 256;
};

/// The rows of one table: fixed-width (width > 0) or overflow (width 0, CSR).
struct VertexTableClass
{
  unsigned width = 0;
  std::size_t rows = 0;
  /// Position in entries() of the table's first entry.
  std::size_t base = 0;
  /// row -> its vertex, ascending, so neighbouring rows touch neighbouring vertices.
  DeviceBuffer<cl_int> vertices;
  /// Overflow only: rows + 1 offsets, relative to base, of each row's capacity.
  DeviceBuffer<cl_uint> offsets;
};

/// Built on the device from (vertex, value) pairs: counted with integer atomics, placed by
/// exclusive scans, then every row is sorted and its duplicates removed, so the contents and
/// their order depend only on the pairs given, never on the thread schedule. Unused places
/// hold -1 and follow a row's values (a fixed-width row can stop at its first -1).
class VertexTable
{
public:
  /// pairs[i] = (vertex, value); pairs with vertex < 0 are skipped. Callers guarantee that
  /// every vertex is below vertexCount and every value is >= 0 (the core's own emitters do).
  VertexTable(DeviceRun& run, std::size_t vertexCount, const DeviceBuffer<cl_int2>& pairs,
    std::size_t pairCount, const VertexTableLayout& layout = {});

  std::size_t vertexCount() const { return VertexCount; }
  /// Every table's entries, one after the other (-1 in unused places).
  const DeviceBuffer<cl_int>& entries() const { return Entries; }
  /// vertex -> number of distinct values in its row.
  const DeviceBuffer<cl_int>& degree() const { return Degree; }
  /// vertex -> position of its row in entries() (0 for a vertex without values).
  const DeviceBuffer<cl_uint>& rowStart() const { return RowStart; }
  /// The non-empty fixed-width tables by ascending width, then the overflow table if used.
  const std::vector<VertexTableClass>& classes() const { return Classes; }
  /// The vertices whose degree exceeds longRowThreshold(), ascending; listed once when the
  /// table is built.
  const DeviceBuffer<cl_int>& longRows() const { return LongRows; }
  std::size_t longRowCount() const { return LongRows.size(); }
  unsigned longRowThreshold() const { return LongRowThreshold; }

  /// Reorders the values of every row by keys[value], ascending (keys distinct within a row),
  /// in place: a table built in a renumbering (VertexOrder.h) given its values' old ids as
  /// keys lists each row in the order the original numbering would, so that sums over a row
  /// add in the same order either way. Only the order within rows changes.
  void sortRowsBy(DeviceRun& run, const DeviceBuffer<cl_uint>& keys);

  /// Host copy: each vertex's values in their order in the table (ascending unless
  /// sortRowsBy reordered them; for tests and debugging).
  std::vector<std::vector<int>> rows(DeviceRun& run) const;

private:
  std::size_t VertexCount = 0;
  DeviceBuffer<cl_int> Entries;
  DeviceBuffer<cl_int> Degree;
  DeviceBuffer<cl_uint> RowStart;
  std::vector<VertexTableClass> Classes;
  DeviceBuffer<cl_int> LongRows;
  unsigned LongRowThreshold = 0;
};

} // namespace gpumesh
