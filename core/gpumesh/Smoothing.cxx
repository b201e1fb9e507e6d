#include "gpumesh/Smoothing.h"

#include "gpumesh/CellEntities.h"
#include "gpumesh/DeviceMesh.h"
#include "gpumesh/MeshView.h"
#include "gpumesh/NeighborDistance.h"
#include "gpumesh/VertexLinks.h"

#include <cmath>

namespace gpumesh
{

namespace
{
void setArgument(cl::Kernel& kernel, cl_uint index, const cl::Buffer& buffer)
{
  check(kernel.setArg(index, buffer), "setting a buffer argument of a smoothing kernel");
}

// The relaxation factor in the run's REAL.
void setFactor(cl::Kernel& kernel, Precision precision, double factor)
{
  const cl_uint last = kernel.getInfo<CL_KERNEL_NUM_ARGS>() - 1;
  check(precision == Precision::Double ? kernel.setArg(last, cl_double(factor))
                                       : kernel.setArg(last, cl_float(factor)),
    "setting the relaxation factor");
}

struct Launch
{
  cl::Kernel kernel;
  std::size_t size;
  std::string label;
  bool readsBarycentres; // sources are the barycentres rather than the points
};

// Arguments bound once; the per-step ones (in, sources, out, factor) are set at each step.
template <typename... Args>
void bindAfterSources(DeviceRun& run, cl::Kernel& kernel, bool readsBarycentres,
  const DeviceBuffer<cl_int>& anchors, const Args&... args)
{
  // Placeholders for the per-step buffers: any valid buffer will do until the first step.
  const DeviceBuffer<cl_int>& any = anchors;
  if (readsBarycentres)
    run.setArguments(kernel, any, any, anchors, any, args...);
  else
    run.setArguments(kernel, any, any, any, args...);
}

void addRelaxLaunches(DeviceRun& run, const DeviceMesh& mesh, const VertexTable& table,
  const DeviceBuffer<cl_int>& roles, const DeviceBuffer<cl_int>& anchors, VertexRole role,
  bool readsBarycentres, std::vector<Launch>& out)
{
  const std::string sources = readsBarycentres ? " -DCELL_SOURCES=1" : "";
  for (const VertexTableClass& c : table.classes())
  {
    const auto rows = static_cast<cl_int>(c.rows);
    const auto base = static_cast<cl_uint>(c.base);
    cl::Kernel kernel;
    std::string label;
    if (c.width > 0)
    {
      kernel = run.kernel("smoothing", "relax_rows", "-DWIDTH=" + std::to_string(c.width) + sources);
      bindAfterSources(run, kernel, readsBarycentres, anchors.empty() ? roles : anchors, mesh.points(),
        c.vertices, rows, table.entries(), base, roles, cl_int(role));
      label = "relax rows of " + std::to_string(c.width);
    }
    else
    {
      kernel = run.kernel("smoothing", "relax_overflow", sources);
      bindAfterSources(run, kernel, readsBarycentres, anchors.empty() ? roles : anchors, mesh.points(),
        c.vertices, rows, table.entries(), base, c.offsets, table.degree(), roles, cl_int(role));
      label = "relax overflow rows";
    }
    setFactor(kernel, run.precision(), 0.0);
    out.push_back({ kernel, c.rows, label, readsBarycentres });
  }
}
} // namespace

void SmoothingOptions::validate() const
{
  if (iterations < 0)
  {
    throw Error("Iterations must be 0 or more, not " + std::to_string(iterations));
  }
  // A step moves x to x + lambda (mean - x). The umbrella operator's eigenvalues lie in [0, 2]
  // (2 for the odd-even mode of a quad grid), which a step scales by 1 - lambda k: above 1 that
  // mode grows by |1 - 2 lambda| > 1 per step; at 0 or below nothing moves or points move away.
  if (!(relaxationFactor > 0.0 && relaxationFactor <= 1.0))
  {
    throw Error("RelaxationFactor must be in (0, 1], not " + formatNumber(relaxationFactor) +
      ": above 1 a step overshoots the mean of the neighbours and the smoothing can diverge; at 0 "
      "or below points do not move or move away from it");
  }
  if (method == SmoothingMethod::Taubin && !(passBand > 0.0 && passBand < 1.0 / relaxationFactor))
  {
    throw Error("Taubin smoothing needs 0 < PassBand < 1/RelaxationFactor "
                "(so that mu = 1/(PassBand - 1/RelaxationFactor) is below -RelaxationFactor); got "
                "RelaxationFactor " +
      formatNumber(relaxationFactor) + ", PassBand " + formatNumber(passBand));
  }
}

double SmoothingOptions::mu() const
{
  return 1.0 / (passBand - 1.0 / relaxationFactor);
}

// Kernel objects made once per smoother: a step only resets the buffers and the factor.
struct VertexSmoother::Launches
{
  std::vector<Launch> scatter; // points -> barycentres, one per cell group
  std::vector<Launch> relax;   // one per table of each link
};

VertexSmoother::VertexSmoother(DeviceRun& run, const DeviceMesh& mesh, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned)
  : Mesh(mesh)
  , Options(options)
  , Kernels(std::make_unique<Launches>())
{
  Options.validate();
  const auto points = static_cast<std::size_t>(mesh.pointCount());
  if (!pinned.empty() && pinned.size() != points)
  {
    throw Error("the pinned-vertex flags have " + std::to_string(pinned.size()) + " entries for " +
      std::to_string(points) + " points");
  }
  for (const DeviceCellGroup& group : mesh.groups())
  {
    if (group.kind == CellKind::TriangleStrip)
    {
      throw Error("The mesh has triangle strips, which smoothing does not handle: triangulate them "
                  "first (e.g. the Triangulate filter)");
    }
    if (cellDimension(group.kind) < 2)
    {
      throw Error("VertexSmoother needs a mesh of 2D and 3D cells only (DeviceMesh with minimum "
                  "dimension 2), but it has " + std::string(cellKindName(group.kind)) + " cells");
    }
  }
  const char* program = "smoothing";

  // Roles: interior unless a boundary or non-manifold side, or the caller, says otherwise.
  Roles = run.allocate<cl_int>(points, "vertex roles");
  run.fill(Roles, cl_int(Interior), "vertex roles");
  if (Options.boundary != SmoothingBoundary::Free)
  {
    const CellEntities sides(run, mesh, EntityType::Sides);
    cl::Kernel mark = run.kernel(program, "mark_sides");
    const cl_int boundaryRole = Options.boundary == SmoothingBoundary::Fixed ? Pinned : OnBoundary;
    run.setArguments(mark, sides.slotRun(), sides.slotEntity(), sides.entityVertices(),
      static_cast<cl_int>(sides.slotCount()), boundaryRole, Roles);
    run.launch(mark, sides.slotCount(), "vertex roles");
    if (Options.boundary == SmoothingBoundary::Smooth)
    {
      BoundaryLinks.emplace(boundaryNeighbors(run, mesh, sides, Options.layout));
    }
  }
  if (!pinned.empty())
  {
    DeviceBuffer<cl_uchar> flags = run.upload(pinned.data(), pinned.size(), "pinned vertices");
    cl::Kernel pin = run.kernel(program, "pin_vertices");
    run.setArguments(pin, flags, static_cast<cl_int>(points), Roles);
    run.launch(pin, points, "vertex roles");
  }

  const bool barycentric = Options.method == SmoothingMethod::Barycentric;
  if (barycentric)
  {
    Links.emplace(vertexCells(run, mesh, Options.layout));
    // A cell's anchor (its first point) does not change from step to step: found once.
    BarycentreAnchors = std::move(computeCentroids(run, mesh).anchors);
    Barycentres = run.allocateReal(4 * static_cast<std::size_t>(mesh.cellCount()), "barycentres");
    // The scatter half: one barycentre per cell, written by its own work-item. Argument 1 (the
    // displacements) is set at each step.
    for (const DeviceCellGroup& group : mesh.groups())
    {
      const int vertices = fixedVertexCount(group.kind);
      cl::Kernel kernel;
      if (vertices > 0)
      {
        kernel = run.kernel("smoothing", "barycentre_fixed");
        run.setArguments(kernel, mesh.points(), Barycentres, group.connectivity, static_cast<cl_int>(vertices),
          group.cellIds, static_cast<cl_int>(group.count), Barycentres);
      }
      else
      {
        kernel = run.kernel("smoothing", "barycentre_variable");
        run.setArguments(kernel, mesh.points(), Barycentres, group.offsets, group.connectivity, group.cellIds,
          static_cast<cl_int>(group.count), Barycentres);
      }
      Kernels->scatter.push_back({ kernel, group.count, "barycentres", false });
    }
  }
  else
  {
    const CellEntities edges(run, mesh, EntityType::Edges);
    Links.emplace(vertexNeighbors(run, mesh, edges, Options.layout));
  }
  addRelaxLaunches(run, mesh, *Links, Roles, BarycentreAnchors, Interior, barycentric, Kernels->relax);
  if (BoundaryLinks)
  {
    addRelaxLaunches(run, mesh, *BoundaryLinks, Roles, BarycentreAnchors, OnBoundary, false, Kernels->relax);
  }
  Ping = run.allocateReal(4 * points, "displacements (ping)");
  Pong = run.allocateReal(4 * points, "displacements (pong)");
}

VertexSmoother::~VertexSmoother() = default;

void VertexSmoother::step(DeviceRun& run, const RealBuffer& in, RealBuffer& out, double factor)
{
  for (auto& launch : Kernels->scatter)
  {
    setArgument(launch.kernel, 1, in.handle());
    run.launch(launch.kernel, launch.size, launch.label);
  }
  for (auto& launch : Kernels->relax)
  {
    // in, sources[, anchors], out, ...
    setArgument(launch.kernel, 0, in.handle());
    setArgument(launch.kernel, 1, launch.readsBarycentres ? Barycentres.handle() : in.handle());
    setArgument(launch.kernel, launch.readsBarycentres ? 3 : 2, out.handle());
    setFactor(launch.kernel, run.precision(), factor);
    run.launch(launch.kernel, launch.size, launch.label);
  }
}

const RealBuffer& VertexSmoother::smooth(DeviceRun& run, const SmoothingStepObserver& observer)
{
  // Both buffers start from zero displacement: a vertex that no step writes (pinned, or in
  // no cell) then keeps its position in whichever buffer ends up with the result.
  run.fillReal(Ping, 0.0, "displacements");
  run.fillReal(Pong, 0.0, "displacements");
  const double lambda = Options.relaxationFactor;
  const double mu = Options.mu();
  const bool taubin = Options.method == SmoothingMethod::Taubin;
  const int steps = Options.iterations * (taubin ? 2 : 1);
  RealBuffer* current = &Ping;
  RealBuffer* next = &Pong;
  for (int s = 1; s <= steps; ++s)
  {
    step(run, *current, *next, taubin && s % 2 == 0 ? mu : lambda);
    std::swap(current, next);
    if (observer && !observer(run, *current, s, steps))
    {
      break;
    }
  }
  return *current;
}

VertexSmoother::Result VertexSmoother::movedPoints(DeviceRun& run, const RealBuffer& displacement) const
{
  const auto points = static_cast<std::size_t>(Mesh.pointCount());
  Result result{ run.allocateReal(3 * points, "smoothed points"), run.allocateReal(3 * points, "displacement") };
  cl::Kernel kernel = run.kernel("smoothing", "moved_points");
  run.setArguments(kernel, Mesh.points(), displacement, static_cast<cl_int>(points), result.points, result.displacement);
  run.launch(kernel, points, "moved points");
  return result;
}

std::vector<double> smoothVertices(DeviceRun& run, const MeshView& view, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned, const SmoothingStepObserver& observer)
{
  options.validate();
  const DeviceMesh mesh(run, view, 2);
  VertexSmoother smoother(run, mesh, options, pinned);
  const VertexSmoother::Result moved = smoother.movedPoints(run, smoother.smooth(run, observer));
  // Input + displacement, added in double: points that do not move come back bit for bit.
  std::vector<double> points(3 * static_cast<std::size_t>(mesh.pointCount()));
  run.download(moved.displacement, points.data(), points.size(), "displacement");
  for (std::size_t i = 0; i < points.size(); ++i)
    points[i] += view.points.isDouble ? static_cast<const double*>(view.points.xyz)[i]
                                      : static_cast<const float*>(view.points.xyz)[i];
  return points;
}

} // namespace gpumesh
