// A mesh's points against boxes, on the device: under MPI, a piece's box and the points of the
// piece that a neighbour's box holds (the only ones the two can share), found without a pass
// over the piece's points on the host. A box is (least x, greatest x, least y, greatest y,
// least z, greatest z), as vtkBoundingBox gives bounds.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <array>
#include <vector>

namespace gpumesh
{

using PointBox = std::array<double, 6>;

/// The box of the mesh's points, in the input's coordinates (the mesh's origin added back):
/// exact where the device holds the input's own coordinates (PointsView::roundedIn false);
/// rounded to float otherwise. No points: +inf as the least and -inf as the greatest.
PointBox pointsBox(DeviceRun& run, const DeviceMesh& mesh);

/// The points of the mesh inside at least one of `boxes` (borders included), ascending. In
/// double precision exactly those; in single precision the boxes are first rounded outwards
/// to float (relative to the mesh's origin), so the list holds every point inside and may hold
/// a point within a float's rounding of a border: callers that need exact membership test the
/// (few) points listed.
std::vector<cl_int> pointsInBoxes(DeviceRun& run, const DeviceMesh& mesh, const std::vector<PointBox>& boxes);

} // namespace gpumesh
