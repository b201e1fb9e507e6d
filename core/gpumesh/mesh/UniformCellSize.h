// Whether a section's offsets are those of cells of one size, checked on the host.
#pragma once
#include "gpumesh/mesh/MeshView.h"

#include <cstdint>

namespace gpumesh
{

/// k when offsets[i] == k * i for every i in [0, cellCount] (every cell has k point ids, the
/// usual all-triangle or all-tetrahedron mesh), else 0. Read by several threads, stopping at
/// the first difference. A device then needs only k, not the offsets: fewer bytes to stage
/// and send to a GPU than the offsets themselves.
std::int64_t uniformCellSize(const CellSection& section);

} // namespace gpumesh
