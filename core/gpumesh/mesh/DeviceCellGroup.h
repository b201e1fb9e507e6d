// The cells of one kind on the device, and how a per-cell kernel receives them.
#pragma once
#include "gpumesh/mesh/CellKind.h"
#include "gpumesh/runtime/DeviceBuffer.h"

#include <string>

namespace gpumesh
{

struct DeviceCellGroup
{
  CellKind kind = CellKind::Line;
  std::size_t count = 0;
  DeviceBuffer<cl_int> connectivity;
  DeviceBuffer<cl_int> offsets; ///< variable-size kinds only
  DeviceBuffer<cl_int> cellIds;
};

/// The build option that specialises a per-cell kernel for the group's kind: "-DPER_CELL=n"
/// for a fixed-size kind (constant strides in cell_start/cell_size, kernels/runtime/common.cl), empty
/// for variable-size kinds. For hot kernels; each option is one more program build.
inline std::string cellKindOptions(const DeviceCellGroup& group)
{
  const int perCell = fixedVertexCount(group.kind);
  return perCell > 0 ? "-DPER_CELL=" + std::to_string(perCell) : std::string();
}

/// A group passed to a kernel as the five arguments CELL_ARGS declares (kernels/runtime/common.cl):
/// connectivity, offsets, per_cell (the kind's fixed vertex count, 0 for variable-size kinds),
/// cell_ids, count. One signature serves fixed and variable kinds alike; for a fixed kind the
/// offsets argument is the connectivity again, never read (cell_start() uses per_cell).
struct CellArgs
{
  const DeviceCellGroup& group;
};

/// How DeviceRun::call sets a CellArgs: its five arguments, in CELL_ARGS order.
template <typename Set>
void spreadKernelArguments(const CellArgs& cells, Set&& set)
{
  const DeviceCellGroup& group = cells.group;
  const int perCell = fixedVertexCount(group.kind);
  set(group.connectivity);
  set(perCell > 0 ? group.connectivity : group.offsets);
  set(cl_int(perCell > 0 ? perCell : 0));
  set(group.cellIds);
  set(static_cast<cl_int>(group.count));
}

} // namespace gpumesh
