// Cells that list a point more than once, found on the device and named in an error.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <string>

namespace gpumesh
{

/// Throws Error naming the 2D or 3D cell of smallest id that lists a point more than once (a
/// triangle (5, 5, 7)) and that point. Such a cell has a collapsed side and two sides that
/// coincide, so matching sides across cells would pair it with itself and count its neighbour
/// twice, or blame the neighbour for a non-manifold edge. `use` names what needs the check, for
/// the message ("longest-edge refinement"). 1D cells are not checked: a closed polyline
/// repeats its first point by design.
void rejectRepeatedPoints(DeviceRun& run, const DeviceMesh& mesh, const std::string& use);

} // namespace gpumesh
