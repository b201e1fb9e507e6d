// Renumbering of a mesh's points for locality, on the device: points sorted along a Morton
// (Z-order) curve of their bounding box, so that the points of one neighbourhood get nearby
// ids and a kernel that gathers a vertex's neighbours reads memory the caches already hold.
// Mesh generators often number points in an order unrelated to space (gmsh: edges join
// points 35,000 ids apart on average in a mesh of 135,000); a gather over such a numbering
// misses the caches at almost every read.
#pragma once
#include "gpumesh/DeviceCellGroup.h"
#include "gpumesh/DeviceRun.h"
#include "gpumesh/VertexTable.h"

#include <vector>

namespace gpumesh
{

class DeviceMesh;

/// A row table in one contiguous block (CSR): row v is entries[rowStart[v] ...], degree[v]
/// entries. What kernels over a VertexTable read, without its per-width classes.
struct RowTable
{
  DeviceBuffer<cl_int> entries;
  DeviceBuffer<cl_uint> rowStart;
  DeviceBuffer<cl_int> degree;
};

/// The cells of a mesh carried over to a vertex order: each group's cells sorted by the new id
/// of their first point, their points given by new ids, their new cell ids numbering the
/// groups' cells one after the other (0 .. count - 1).
struct CellOrder
{
  std::vector<DeviceCellGroup> groups;
  /// Old cell id -> new cell id; -1 for cells in no group (those the mesh left out).
  DeviceBuffer<cl_int> newIds;
  std::size_t count = 0;
};

/// A permutation of the points: new id -> old id (order) and old id -> new id (newIds).
class VertexOrder
{
public:
  /// The points sorted by the Morton code of their position on a grid over their bounding box
  /// (about 2 cells per point along each axis of a square, up to 2^21), with the device radix
  /// sort; points of one grid cell keep their relative order. Deterministic for given points.
  static VertexOrder spaceFilling(DeviceRun& run, const RealBuffer& points, std::size_t count);

  std::size_t size() const { return Count; }
  const DeviceBuffer<cl_uint>& order() const { return Order; }
  const DeviceBuffer<cl_int>& newIds() const { return NewIds; }

  /// One int per vertex, into the new order.
  DeviceBuffer<cl_int> gather(DeviceRun& run, const DeviceBuffer<cl_int>& perVertex, const std::string& what) const;
  /// 4 REALs per vertex, into the new order: into a new buffer, or into `out`.
  RealBuffer gather4(DeviceRun& run, const RealBuffer& perVertex, const std::string& what) const;
  void gather4(DeviceRun& run, const RealBuffer& perVertex, RealBuffer& out) const;
  /// 3 REALs per point (DeviceMesh::points), into the new order.
  RealBuffer gatherPoints(DeviceRun& run, const RealBuffer& points, const std::string& what) const;
  /// 4 REALs per vertex in the new order, back into the old order in `out`.
  void scatter4(DeviceRun& run, const RealBuffer& inNewOrder, RealBuffer& out) const;

  /// `table`'s rows in the new order, each row's entries mapped through `entryIds` (newIds()
  /// for rows of vertices, CellOrder::newIds for rows of cells) and kept in their old order,
  /// so a sum over a row adds the same values in the same order as before.
  RowTable rows(DeviceRun& run, const VertexTable& table, const DeviceBuffer<cl_int>& entryIds) const;

  /// `mesh`'s cells carried over to this order (CellOrder).
  CellOrder cells(DeviceRun& run, const DeviceMesh& mesh) const;

private:
  std::size_t Count = 0;
  DeviceBuffer<cl_uint> Order;
  DeviceBuffer<cl_int> NewIds;
};

/// How far apart the entries of `table`'s rows lie: the share of the vertices whose row
/// (with the vertex itself when `entriesAreVertices`) spans more than `window` ids. Rows of a
/// mesh numbered row by row span about two grid rows; in a numbering unrelated to space almost
/// every row spans a large part of the mesh.
double farRowShare(DeviceRun& run, const VertexTable& table, bool entriesAreVertices, int window);

} // namespace gpumesh
