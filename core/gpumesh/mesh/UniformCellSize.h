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

/// What the first and last offsets allow: k when offsets[0] == 0, offsets[1] == k > 0 and
/// offsets[cellCount] == k * cellCount, else 0 (then the sizes differ). Reads three offsets; the
/// others are for offsetsOfSize, e.g. beside the upload of the connectivity they index.
std::int64_t uniformCellSizeCandidate(const CellSection& section);

/// Whether offsets[i] == k * i for every i in [first, last) (within [0, cellCount]). One thread.
bool offsetsOfSize(const CellSection& section, std::int64_t k, std::int64_t first, std::int64_t last);

} // namespace gpumesh
