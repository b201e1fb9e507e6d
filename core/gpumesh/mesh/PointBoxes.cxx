#include "gpumesh/mesh/PointBoxes.h"

#include "gpumesh/primitives/Scan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace gpumesh
{
namespace
{
constexpr const char* program = "point_boxes";

// point_bounds' work-group size (WG), the one source of the program's options and its launch.
std::size_t boundsGroup(DeviceRun& run)
{
  return run.device().workGroupSize(256);
}

// The program's options, the same for its every kernel (one build).
std::string programOptions(DeviceRun& run)
{
  return "-DWG=" + std::to_string(boundsGroup(run));
}

// A bound relative to `origin`, as the device compares it: in float, the nearest float on the
// outside (`down` for a least bound), so that no point inside the bound falls outside it.
template <typename Real>
Real outwards(double bound, double origin, bool down)
{
  const double relative = bound - origin;
  auto rounded = static_cast<Real>(relative);
  const Real away = down ? -std::numeric_limits<Real>::infinity() : std::numeric_limits<Real>::infinity();
  // The subtraction rounded too where the origin is not zero: one more step outwards.
  if ((down ? rounded > relative : rounded < relative) || origin != 0.0)
    rounded = std::nextafter(rounded, away);
  return rounded;
}

template <typename Real>
RealBuffer boxesOnDevice(DeviceRun& run, const std::vector<PointBox>& boxes, const std::array<double, 3>& origin)
{
  std::vector<Real> values;
  for (const PointBox& box : boxes)
  {
    if (!(box[0] <= box[1] && box[2] <= box[3] && box[4] <= box[5]))
      continue; // empty: holds no point
    for (int c = 0; c < 3; ++c)
    {
      values.push_back(outwards<Real>(box[2 * c], origin[c], true));
      values.push_back(outwards<Real>(box[2 * c + 1], origin[c], false));
    }
  }
  return run.uploadReal(values.data(), values.size(), "boxes");
}
} // namespace

PointBox pointsBox(DeviceRun& run, const DeviceMesh& mesh)
{
  constexpr double inf = std::numeric_limits<double>::infinity();
  PointBox box{ inf, -inf, inf, -inf, inf, -inf };
  const auto count = static_cast<std::size_t>(mesh.pointCount());
  if (count == 0)
    return box;
  // A few groups per compute unit, each folding a grid stride of points, then the partials here.
  const std::size_t group = boundsGroup(run);
  const std::size_t wanted = static_cast<std::size_t>(std::max(run.info().computeUnits, 1)) * 4;
  const std::size_t groups = std::max<std::size_t>(1, std::min(wanted, (count + group - 1) / group));
  RealBuffer partial = run.allocateReal(6 * groups, "point bounds");
  run.call({ program, "point_bounds", programOptions(run) }, { groups * group, group }, "point bounds",
    mesh.points(), static_cast<cl_int>(count), partial);
  std::vector<double> values(6 * groups);
  run.download(partial, values.data(), values.size(), "point bounds");
  const std::array<double, 3> origin = mesh.origin();
  for (std::size_t g = 0; g < groups; ++g)
    for (int c = 0; c < 3; ++c)
    {
      box[2 * c] = std::min(box[2 * c], values[6 * g + 2 * c] + origin[c]);
      box[2 * c + 1] = std::max(box[2 * c + 1], values[6 * g + 2 * c + 1] + origin[c]);
    }
  return box;
}

std::vector<cl_int> pointsInBoxes(DeviceRun& run, const DeviceMesh& mesh, const std::vector<PointBox>& boxes)
{
  const auto count = static_cast<std::size_t>(mesh.pointCount());
  const RealBuffer onDevice = run.precision() == Precision::Double
    ? boxesOnDevice<double>(run, boxes, mesh.origin())
    : boxesOnDevice<float>(run, boxes, mesh.origin());
  const std::size_t boxCount = onDevice.size() / 6;
  if (count == 0 || boxCount == 0)
    return {};
  DeviceBuffer<cl_uint> flags = run.allocate<cl_uint>(count, "points in boxes");
  run.call({ program, "flag_points_in_boxes", programOptions(run) }, count, "points in boxes", mesh.points(), static_cast<cl_int>(count),
    onDevice, static_cast<cl_int>(boxCount), flags);
  DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(count + 1, "points in boxes");
  const auto found = static_cast<std::size_t>(exclusiveScan(run, flags, count, places, "points in boxes"));
  std::vector<cl_int> points(found);
  if (found == 0)
    return points;
  DeviceBuffer<cl_int> listed = run.allocate<cl_int>(found, "points in boxes");
  run.call({ program, "gather_flagged_points", programOptions(run) }, count, "points in boxes", places, static_cast<cl_int>(count), listed);
  run.download(listed, points.data(), found, "points in boxes");
  return points;
}

} // namespace gpumesh
