#include "gpumesh/Smoothing.h"

#include "gpumesh/CellEntities.h"
#include "gpumesh/DeviceMesh.h"
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

struct Launch
{
  cl::Kernel kernel;
  std::size_t size;
  std::string label;
  bool readsBarycentres; // sources are the barycentres rather than the points
};

void addRelaxLaunches(DeviceRun& run, const VertexTable& table, const DeviceBuffer<cl_int>& roles,
  VertexRole role, bool readsBarycentres, std::vector<Launch>& out)
{
  // Arguments 0-2 (in, sources, out) and the last (factor) are set at each step.
  for (const VertexTableClass& c : table.classes())
  {
    const auto rows = static_cast<cl_int>(c.rows);
    const auto base = static_cast<cl_uint>(c.base);
    cl::Kernel kernel;
    std::string label;
    if (c.width > 0)
    {
      kernel = run.kernel("smoothing", "relax_rows", "-DWIDTH=" + std::to_string(c.width));
      run.setArguments(kernel, roles, roles, roles, c.vertices, rows, table.entries(), base, roles,
        cl_int(role), 0.0f);
      label = "relax rows of " + std::to_string(c.width);
    }
    else
    {
      kernel = run.kernel("smoothing", "relax_overflow");
      run.setArguments(kernel, roles, roles, roles, c.vertices, rows, table.entries(), base, c.offsets,
        table.degree(), roles, cl_int(role), 0.0f);
      label = "relax overflow rows";
    }
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
    Barycentres = run.allocate<cl_float4>(static_cast<std::size_t>(mesh.cellCount()), "barycentres");
    // The scatter half: one barycentre per cell, written by its own work-item.
    for (const DeviceCellGroup& group : mesh.groups())
    {
      const int vertices = fixedVertexCount(group.kind);
      cl::Kernel kernel;
      if (vertices > 0)
      {
        kernel = run.kernel("neighbor_distance", "centroid_fixed");
        run.setArguments(kernel, mesh.points(), group.connectivity, static_cast<cl_int>(vertices),
          group.cellIds, static_cast<cl_int>(group.count), Barycentres);
      }
      else
      {
        kernel = run.kernel("neighbor_distance", "centroid_variable");
        run.setArguments(kernel, mesh.points(), group.offsets, group.connectivity, group.cellIds,
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
  addRelaxLaunches(run, *Links, Roles, Interior, barycentric, Kernels->relax);
  if (BoundaryLinks)
  {
    addRelaxLaunches(run, *BoundaryLinks, Roles, OnBoundary, false, Kernels->relax);
  }
  Ping = run.allocate<cl_float4>(points, "points (ping)");
  Pong = run.allocate<cl_float4>(points, "points (pong)");
}

VertexSmoother::~VertexSmoother() = default;

void VertexSmoother::step(DeviceRun& run, const DeviceBuffer<cl_float4>& in, DeviceBuffer<cl_float4>& out, float factor)
{
  for (auto& launch : Kernels->scatter)
  {
    setArgument(launch.kernel, 0, in.handle());
    run.launch(launch.kernel, launch.size, launch.label);
  }
  for (auto& launch : Kernels->relax)
  {
    setArgument(launch.kernel, 0, in.handle());
    setArgument(launch.kernel, 1, launch.readsBarycentres ? Barycentres.handle() : in.handle());
    setArgument(launch.kernel, 2, out.handle());
    const cl_uint last = launch.kernel.getInfo<CL_KERNEL_NUM_ARGS>() - 1;
    check(launch.kernel.setArg(last, factor), "setting the relaxation factor");
    run.launch(launch.kernel, launch.size, launch.label);
  }
}

const DeviceBuffer<cl_float4>& VertexSmoother::smooth(DeviceRun& run, const SmoothingStepObserver& observer)
{
  // Both buffers start from the mesh's points: a vertex that no step writes (pinned, or in
  // no cell) then holds its position in whichever buffer ends up with the result.
  const auto points = static_cast<std::size_t>(Mesh.pointCount());
  run.copy(Mesh.points(), Ping, points, "points");
  run.copy(Mesh.points(), Pong, points, "points");
  const float lambda = static_cast<float>(Options.relaxationFactor);
  const float mu = static_cast<float>(Options.mu());
  const bool taubin = Options.method == SmoothingMethod::Taubin;
  const int steps = Options.iterations * (taubin ? 2 : 1);
  DeviceBuffer<cl_float4>* current = &Ping;
  DeviceBuffer<cl_float4>* next = &Pong;
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

std::vector<float> smoothVertices(DeviceRun& run, const HostMesh& host, const SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned, const SmoothingStepObserver& observer)
{
  options.validate();
  const DeviceMesh mesh(run, host, 2);
  VertexSmoother smoother(run, mesh, options, pinned);
  const DeviceBuffer<cl_float4>& result = smoother.smooth(run, observer);
  std::vector<float> points(4 * static_cast<std::size_t>(host.pointCount()));
  run.download(result, reinterpret_cast<cl_float4*>(points.data()), points.size() / 4, "smoothed points");
  return points;
}

} // namespace gpumesh
