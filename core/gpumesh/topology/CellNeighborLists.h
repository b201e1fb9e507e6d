// Cell -> the cells across its sides ("lien transverse" of GMlib v3), one list per cell.
#pragma once
#include "gpumesh/topology/CellEntities.h"

namespace gpumesh
{

/// The neighbours of cell c are ids[offsets[c] .. offsets[c + 1]): every other cell of each of
/// its sides, in side order (a neighbour across two sides is listed twice; on a non-manifold
/// side every other cell of the side is). Lists have their true length: nothing is truncated.
struct CellNeighborLists
{
  DeviceBuffer<cl_uint> offsets; ///< cellCount + 1 entries
  DeviceBuffer<cl_int> ids;
};

/// `sides` must have been built with EntityType::Sides on `mesh`.
CellNeighborLists cellNeighborLists(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& sides);

} // namespace gpumesh
