// The sides or edges of every cell, matched across cells on the device: neighbour tables,
// unique edges and faces, and entity-to-cell links.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/runtime/AccessPattern.h"

#include <utility>
#include <vector>

namespace gpumesh
{

enum class EntityType
{
  /// The (d-1)-faces of d-dimensional cells: edges of 2D cells, triangle and quad faces of 3D
  /// cells. 1D cells have none. Two cells are neighbours when they share a side, so only
  /// cells of the same dimension are, and a triangle face never matches a quad face.
  Sides,
  /// The edges of every 1D, 2D and 3D cell.
  Edges
};

/// Built on the device by bucketing each entity under its smallest vertex, sorting each bucket
/// by (sorted vertex ids, slot) and finding the runs of equal keys; every result is independent
/// of the thread schedule. Entities are numbered by (smallest vertex, sorted vertex ids).
/// Two ways, with identical results (AccessPattern; Auto picks by device type):
///  - Strided (GPUs, kernels/topology/cell_entities.cl): a work-item per cell, slot or bucket, counts
///    by atomics; small buckets sorted by one work-item each, large ones together by a radix
///    sort, so a vertex of any degree costs linear time. Slots reach their buckets, and results
///    their slots, directly or through windows (SlotGrouping), which keeps a numbering that
///    scatters neighbours from scattering every write.
///  - Contiguous (CPUs, kernels/topology/cell_entity_partitions.cl): few work-items that own chunks of
///    cells or ranges of vertices (partitions), no atomics; each partition sorts its
///    (key, slot) pairs in cache, large buckets by a heap sort.
///
/// A slot is one (cell, local entity) pair, in the local order of the cell's type (VTK's
/// numbering of edges and faces). Triangle strips are an error (triangulate them first).
/// Local vertex indices of each entity (edge or side) of a cell of `kind`, in VTK's order: 4
/// per entity, -1 padded (edges use 2, triangle faces 3). Polygons and polylines have one row,
/// the edge (0, 1), that entity e turns e places around the cell (entity_vertex in
/// kernels/runtime/common.cl). nullptr when the kind has no such entities (sides of lines and
/// polylines, triangle strips).
const std::vector<cl_int>* localEntityTable(CellKind kind, EntityType type);

/// What a caller reads besides slotOffsets() and slotEntity().
enum class SlotNeighbors
{
  /// Everything filled.
  Kept,
  /// slotCell() and neighbor() left empty: on CPU devices they are never made (two ints per
  /// slot of fresh memory saved, which the first touch makes costly there); GPUs let them go.
  LeftOut,
  /// Only neighbor() besides: slotCell(), sortedSlots(), slotRun() and entityVertices() left
  /// empty, for a caller that finds an entity's vertices in its cells (on CPU devices they are
  /// never made or let go before the constructor returns: 2.5x less fresh memory for the edges
  /// of triangles; GPUs let them go). An entity shared by more than two cells shows as a
  /// neighbour that does not point back (its first cell's neighbour is its second cell).
  Only,
  /// No per-slot buffer: only entityVertices() and entityCells() (how many slots share each
  /// entity) outlive the constructor, for a caller that needs each entity once with its count
  /// (a surface's boundary and non-manifold edges, its vertices' neighbours). On CPU devices
  /// the runs and entities of the slots are never made (36 MB of fresh memory less for the
  /// edges of 1M triangles).
  EntityCounts
};

/// How the GPUs' way (AccessPattern::Strided) moves each slot to its bucket and each result
/// back to its slot. Both give identical buffers.
enum class SlotGrouping
{
  /// Through windows for meshes of at least 2^22 slots whose numbering scatters (more than half
  /// of sampled cells lie in another window of vertex ids than the cell 16 places on), directly
  /// otherwise.
  Auto,
  /// Straight to the bucket and back to the slot: scatters over the whole mesh, which stay in
  /// cache when the numbering keeps neighbouring cells and vertices close.
  Direct,
  /// Through windows and sub-windows of owner vertices and of slots (kernels/topology/bucket_windows.cl,
  /// kernels/topology/run_windows.cl): more passes over the slots and one more buffer of 16 bytes per
  /// slot, but every pass writes neighbouring records together, and buckets are sorted and
  /// runs put in slot order in local memory, whatever the numbering.
  Windows
};

/// The groups of a mesh that have entities of one type, with the table each one emits them by
/// (localEntityTable): what CellEntities' two ways of matching read.
using EmittingGroups = std::vector<std::pair<const DeviceCellGroup*, const std::vector<cl_int>*>>;

class CellEntities
{
public:
  CellEntities(DeviceRun& run, const DeviceMesh& mesh, EntityType type, AccessPattern pattern = AccessPattern::Auto,
    SlotNeighbors neighbors = SlotNeighbors::Kept, SlotGrouping grouping = SlotGrouping::Auto);

  EntityType type() const { return Type; }
  std::size_t slotCount() const { return SlotCount; }
  std::size_t entityCount() const { return EntityCount; }

  /// cellCount + 1 entries: the slots of cell c are [slotOffsets[c], slotOffsets[c + 1]).
  const DeviceBuffer<cl_uint>& slotOffsets() const { return SlotOffsets; }
  /// slot -> its cell (empty with SlotNeighbors::LeftOut and Only).
  const DeviceBuffer<cl_int>& slotCell() const { return SlotCell; }
  /// Slots grouped by entity, entities in numbering order, slots of one entity by slot (empty
  /// with SlotNeighbors::Only, as are slotRun() and entityVertices()).
  const DeviceBuffer<cl_int>& sortedSlots() const { return SortedSlots; }
  /// slot -> (position in sortedSlots of its entity's first slot, number of slots sharing it).
  /// A run of 1 is a boundary entity; more than 2 is non-manifold.
  const DeviceBuffer<cl_int2>& slotRun() const { return SlotRun; }
  /// slot -> the cell across it: -1 when none; for a non-manifold entity, the first other
  /// cell (all of them are in its run). Empty with SlotNeighbors::LeftOut.
  const DeviceBuffer<cl_int>& neighbor() const { return Neighbor; }
  /// slot -> the id of its entity, in [0, entityCount()).
  const DeviceBuffer<cl_int>& slotEntity() const { return SlotEntity; }
  /// entity -> its sorted vertex ids, padded with 0xffffffff (edges use x, y).
  const DeviceBuffer<cl_uint4>& entityVertices() const { return EntityVertices; }
  /// entity -> how many slots (cells) share it: 1 on the boundary, more than 2 non-manifold.
  /// Only with SlotNeighbors::EntityCounts (else empty).
  const DeviceBuffer<cl_uint>& entityCells() const { return EntityCells; }

  /// Lets go of every per-slot buffer (slotOffsets() to slotEntity() are empty after it),
  /// keeping entityVertices() and the counts: for a caller that reads only the entities from
  /// then on, so that the slots' memory serves what it builds next (on CPU devices, fresh
  /// memory costs a page fault per page at its first touch).
  void releaseSlots();
  /// Lets go of every buffer (the counts stay): for a caller done with the entities.
  void release();

private:
  struct MatchingOptions; // the build options of the buckets' way (CellEntities.cxx)

  // From slotOffsets on, the two ways of filling the rest (CellEntities.cxx and
  // CellEntityPartitions.cxx). `slotRows`: the slots per cell when one fixed-size kind fills the
  // mesh, else 0.
  void matchInBuckets(DeviceRun& run, const DeviceMesh& mesh, const EmittingGroups& emitting, SlotGrouping grouping,
    std::size_t slotRows, const MatchingOptions& matching);
  void matchInPartitions(DeviceRun& run, const DeviceMesh& mesh, const EmittingGroups& emitting,
    SlotNeighbors neighbors, std::size_t slotRows);

  EntityType Type;
  std::size_t SlotCount = 0;
  std::size_t EntityCount = 0;
  DeviceBuffer<cl_uint> SlotOffsets;
  DeviceBuffer<cl_int> SlotCell;
  DeviceBuffer<cl_int> SortedSlots;
  DeviceBuffer<cl_int2> SlotRun;
  DeviceBuffer<cl_int> Neighbor;
  DeviceBuffer<cl_int> SlotEntity;
  DeviceBuffer<cl_uint4> EntityVertices;
  DeviceBuffer<cl_uint> EntityCells;
};

} // namespace gpumesh
