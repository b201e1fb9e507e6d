#include "gpumesh/algorithms/CellMeasures.h"

#include <cmath>
#include <limits>

namespace gpumesh
{

namespace
{
const char* kernelFor(CellKind kind)
{
  switch (kind)
  {
    case CellKind::Line:
      return "line_length";
    case CellKind::PolyLine:
      return "polyline_length";
    case CellKind::Triangle:
      return "triangle_area_kernel";
    case CellKind::TriangleStrip:
      return "triangle_strip_area";
    case CellKind::Quad:
      return "quad_area_kernel";
    case CellKind::Polygon:
      return "polygon_area_kernel";
    case CellKind::Tetra:
      return "tetra_volume_kernel";
    case CellKind::Hexahedron:
      return "hexahedron_volume_kernel";
    case CellKind::Wedge:
      return "wedge_volume_kernel";
    case CellKind::Pyramid:
      return "pyramid_volume_kernel";
    default:
      return nullptr;
  }
}
} // namespace

bool measureApplies(Measure measure, CellKind kind)
{
  const int dimension = cellDimension(kind);
  switch (measure)
  {
    case Measure::Size:
      return true;
    case Measure::Area:
      return dimension == 2;
    case Measure::Volume:
      return dimension == 3;
    case Measure::Length:
      return dimension == 1;
  }
  return false;
}

RealBuffer computeCellMeasures(DeviceRun& run, const DeviceMesh& mesh, Measure measure)
{
  const auto cells = static_cast<std::size_t>(mesh.cellCount());
  RealBuffer result = run.allocateReal(cells, "cell measures");
  run.fillReal(result, std::numeric_limits<double>::quiet_NaN(), "cell measures");
  constexpr cl_int none = std::numeric_limits<cl_int>::max();
  DeviceBuffer<cl_int> outOfRange = run.allocate<cl_int>(1, "measure range check");
  run.fill(outOfRange, none, "measure range check");
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (!measureApplies(measure, group.kind))
    {
      continue;
    }
    run.call({ "cell_measures", kernelFor(group.kind), cellKindOptions(group) }, group.count,
      std::string(cellKindName(group.kind)) + " measure", CellArgs{ group }, mesh.points(), result, outOfRange);
  }
  cl_int bad = none;
  run.download(outOfRange, &bad, 1, "measure range check");
  if (bad != none)
  {
    const bool single = run.precision() == Precision::Single;
    throw Error("Cell " + std::to_string(bad) + ": its measure is outside the range of " +
      (single ? "single precision (it would come out as 0 or infinity): set Precision to Double"
              : "double precision (it would come out as 0 or infinity): rescale the mesh"));
  }
  return result;
}

} // namespace gpumesh
