// Renumbering of a mesh's points for locality, on the device: points sorted by their cell on
// a grid over their bounding box, blocks of cells along a Morton (Z-order) curve and the cells
// of a block row by row, so that the points of one neighbourhood get nearby ids and a kernel
// that gathers a vertex's neighbours reads memory the caches already hold. Mesh generators
// often number points in an order unrelated to space (gmsh: edges join points 35,000 ids apart
// on average in a mesh of 135,000); a gather over such a numbering misses the caches at
// almost every read.
#pragma once
#include "gpumesh/mesh/DeviceCellGroup.h"
#include "gpumesh/runtime/DeviceRun.h"

#include <vector>

namespace gpumesh
{

class DeviceMesh;

/// The cells of a mesh carried over to a vertex order: each group's cells sorted by the new id
/// of their first point, their points given by new ids, their new cell ids numbering the
/// groups' cells one after the other (0 .. count - 1).
struct CellOrder
{
  std::vector<DeviceCellGroup> groups;
  /// Old cell id -> new cell id; -1 for cells in no group (those the mesh left out).
  DeviceBuffer<cl_int> newIds;
  /// New cell id -> old cell id.
  DeviceBuffer<cl_uint> oldIds;
  std::size_t count = 0;
};

/// A permutation of the points: new id -> old id (order) and old id -> new id (newIds).
class VertexOrder
{
public:
  /// The points sorted by their cell on a grid over their bounding box (about 2 cells per
  /// point along each axis of a square or cube, up to 2^21; only the axes along which the
  /// points extend take part): blocks of cells along a Morton curve, row by row inside a block
  /// (a flat mesh, or a solid of up to 2^20 points, is one block), with the device radix sort;
  /// points of one grid cell keep their relative order. Deterministic for given points.
  static VertexOrder spaceFilling(DeviceRun& run, const RealBuffer& points, std::size_t count);

  std::size_t size() const { return Count; }
  const DeviceBuffer<cl_uint>& order() const { return Order; }
  const DeviceBuffer<cl_int>& newIds() const { return NewIds; }

  /// One byte per vertex (e.g. flags), into the new order.
  DeviceBuffer<cl_uchar> gather(DeviceRun& run, const DeviceBuffer<cl_uchar>& perVertex, const std::string& what) const;
  /// 4 REALs per vertex, into the new order in `out`.
  void gather4(DeviceRun& run, const RealBuffer& perVertex, RealBuffer& out) const;
  /// 3 REALs per point (DeviceMesh::points), into the new order.
  RealBuffer gatherPoints(DeviceRun& run, const RealBuffer& points, const std::string& what) const;
  /// 4 REALs per vertex in the new order, back into the old order in `out`.
  void scatter4(DeviceRun& run, const RealBuffer& inNewOrder, RealBuffer& out) const;

  /// `mesh`'s cells carried over to this order (CellOrder).
  CellOrder cells(DeviceRun& run, const DeviceMesh& mesh) const;

private:
  std::size_t Count = 0;
  DeviceBuffer<cl_uint> Order;
  DeviceBuffer<cl_int> NewIds;
};

/// How scattered `mesh`'s numbering is: the share of its cells whose point ids span more than
/// `window` ids. A mesh numbered row by row, or along a space-filling curve, has almost none;
/// in a numbering unrelated to space most cells of a large mesh do.
double farCellShare(DeviceRun& run, const DeviceMesh& mesh, int window);

} // namespace gpumesh
