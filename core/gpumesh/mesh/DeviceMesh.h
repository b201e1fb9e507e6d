// A mesh on the device: REAL xyz points and one connectivity table per cell kind.
#pragma once
#include "gpumesh/mesh/DeviceCellGroup.h"
#include "gpumesh/mesh/HostMesh.h"
#include "gpumesh/mesh/MeshView.h"
#include "gpumesh/runtime/DeviceRun.h"
#include "gpumesh/runtime/IndexSpace.h"

#include <array>
#include <vector>

namespace gpumesh
{

/// "Point P has a non-finite coordinate (x, y, z)": the one wording of the error, whoever finds
/// such a point (the upload's check, or a distributed run before its ghost layer).
std::string nonFinitePointMessage(std::int64_t point, const std::array<double, 3>& xyz);

class DeviceMesh
{
public:
  /// Uploads the view's arrays as they are (or reads them in place: MeshView::readInPlace), then on the device checks the points (finite),
  /// classifies the cells and gathers each kind into a group of 32-bit ids. Kinds of lower
  /// dimension than `minimumDimension` are left out (e.g. 2: only surface and volume cells),
  /// as if the mesh had no such cells; cell ids and cellCount() still span the whole mesh.
  /// Throws gpumesh::Error naming the first point that is not finite, the first cell of a type
  /// not handled (the table's description of it), of a vertex count its kind does not allow,
  /// or referring to a point that does not exist, and ids beyond the device's 32-bit indices.
  /// Double points in a Single run are rounded to float relative to PointsView::origin: a cell
  /// whose size float cannot hold there (the rounding of its coordinates, up to 2^-24 of the
  /// largest, exceeds 1/1024 of the largest side of its bounding box) is an error naming it.
  DeviceMesh(DeviceRun& run, const MeshView& view, int minimumDimension = 1);

  /// The mesh of `view` whose beginning is on the device already: `prefix`, made (as above,
  /// with the same minimum dimension) from the view's head points and its first
  /// `prefixSections` sections, the same origin. Only the rest goes up and is checked: the
  /// tail points and the later sections (under MPI, a piece's ghost layer after the piece,
  /// which a kept mesh holds); the prefix is copied on the device, never modified.
  DeviceMesh(DeviceRun& run, const DeviceMesh& prefix, const MeshView& view, std::size_t prefixSections,
    int minimumDimension = 1);

  /// A mesh made on the device: one fixed-size cell kind, cell ids 0..cellCount-1.
  DeviceMesh(DeviceRun& run, RealBuffer points, std::size_t pointCount, CellKind kind,
    DeviceBuffer<cl_int> connectivity, std::size_t cellCount, const std::array<double, 3>& origin);

  /// A mesh of cell groups made on the device (e.g. renumbered: VertexOrder.h), in CellKind
  /// order, their cell ids below cellCount (a group of every cell lists them in id order).
  DeviceMesh(RealBuffer points, std::size_t pointCount, std::vector<DeviceCellGroup> groups, std::size_t cellCount,
    const std::array<double, 3>& origin);

  /// Hands the connectivity of the first cell group over to the caller (to be modified in
  /// place); the group is left empty.
  DeviceBuffer<cl_int> takeConnectivity() { return std::move(Groups.front().connectivity); }

  /// A copy of a group on the device (its connectivity, offsets and cell ids in buffers of
  /// its own).
  static DeviceCellGroup copyGroup(DeviceRun& run, const DeviceCellGroup& group);

  std::int64_t pointCount() const { return PointCount; }
  std::int64_t cellCount() const { return CellCount; }
  /// x, y, z per point in the run's precision, minus origin().
  const RealBuffer& points() const { return Points; }
  /// What was subtracted from the input points: zero unless double coordinates went to a
  /// Single-precision run (PointsView::origin).
  const std::array<double, 3>& origin() const { return Origin; }
  /// The non-empty groups, in CellKind order.
  const std::vector<DeviceCellGroup>& groups() const { return Groups; }
  /// The one group when a single fixed-size kind fills the mesh, else nullptr: cell c is then
  /// the group's c-th cell, its ids at c * fixedVertexCount(kind) of the connectivity.
  const DeviceCellGroup* soleFixedSizeGroup() const;

private:
  /// One group of the cells of two groups of the same kind, in that order; an error for a kind
  /// of variable size ("come from two sections of the mesh description").
  static DeviceCellGroup appendGroup(DeviceRun& run, const DeviceCellGroup& first, const DeviceCellGroup& second);
  /// Groups in CellKind order, those of one kind joined (appendGroup) in the order given.
  static std::vector<DeviceCellGroup> mergeGroups(DeviceRun& run, std::vector<DeviceCellGroup> groups);
  /// rounded: the double points when they were rounded to float (Single), else nullptr.
  void importSection(
    DeviceRun& run, const CellSection& section, int minimumDimension, bool inPlace, const PointsView* rounded);

  std::int64_t PointCount = 0;
  std::int64_t CellCount = 0;
  RealBuffer Points;
  std::array<double, 3> Origin{ 0.0, 0.0, 0.0 };
  std::vector<DeviceCellGroup> Groups;
};

} // namespace gpumesh
