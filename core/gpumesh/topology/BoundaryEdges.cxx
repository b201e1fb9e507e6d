#include "gpumesh/topology/BoundaryEdges.h"

#include "gpumesh/primitives/Scan.h"
#include "gpumesh/runtime/HostSort.h"
#include "gpumesh/runtime/HostThreads.h"
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/ListedPoints.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>

namespace gpumesh
{

namespace
{
constexpr const char* program = "boundary_edges";

// The mesh's one kind (Triangle for an empty mesh); other meshes are an error.
CellKind soleSimplexKind(const DeviceMesh& mesh)
{
  const auto& groups = mesh.groups();
  if (groups.empty())
  {
    return CellKind::Triangle;
  }
  const CellKind kind = groups.front().kind;
  if (groups.size() != 1 || (kind != CellKind::Triangle && kind != CellKind::Tetra) ||
    static_cast<std::int64_t>(groups.front().count) != mesh.cellCount())
  {
    throw Error("Boundary edges are found for meshes of triangles only or of tetrahedra only");
  }
  return kind;
}

using Edge = std::pair<cl_int, cl_int>;

Edge edgeOf(cl_int a, cl_int b)
{
  return { std::min(a, b), std::max(a, b) };
}

// Cells on the host: per cell its id, its points and which of them are listed (bit k: point k).
struct ListedCells
{
  std::vector<cl_int> ids, points, listed;
};

// The boundary slots of `cells` whose edges have both ends listed (each cell's bits say which of
// its points are): right when every cell holding two listed points is there (the edges' other
// cells, and for tetrahedra the faces' other cells, are among them). Sorts of the slots by
// edge, and for tetrahedra of the faces with two listed points, on the host pool's threads
// (hundreds of thousands of entries on a piece of a tetrahedron mesh).
BoundaryEdgeSlots matchOnHost(CellKind kind, const ListedCells& cells)
{
  static const int triangleEdges[3][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 } };
  static const int tetraEdges[6][2] = { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 0, 3 }, { 1, 3 }, { 2, 3 } };
  static const int tetraFaces[4][3] = { { 0, 1, 3 }, { 1, 2, 3 }, { 2, 0, 3 }, { 0, 2, 1 } };
  const bool tetrahedra = kind == CellKind::Tetra;
  const int perCell = tetrahedra ? 4 : 3;
  const int edgesPerCell = tetrahedra ? 6 : 3;
  const unsigned threads = hostThreads();
  // The faces with two listed points (any face with such an edge; tetrahedra), with which of
  // their (sorted) points are listed, from the cell's bits.
  struct Face
  {
    std::array<cl_int, 3> points;
    std::array<bool, 3> listed;
  };
  // (edge, slot) of every edge with both ends listed, in slot order, and the faces.
  std::vector<std::pair<Edge, cl_int>> slots;
  std::vector<Face> faces;
  for (std::size_t i = 0; i < cells.ids.size(); ++i)
  {
    const cl_int* v = cells.points.data() + perCell * i;
    const cl_int listed = cells.listed[i];
    for (int e = 0; e < edgesPerCell; ++e)
    {
      const auto& local = tetrahedra ? tetraEdges[e] : triangleEdges[e];
      if ((listed >> local[0] & 1) && (listed >> local[1] & 1))
        slots.push_back({ edgeOf(v[local[0]], v[local[1]]), edgesPerCell * cells.ids[i] + e });
    }
    for (int k = 0; tetrahedra && k < 4; ++k)
    {
      const auto& f = tetraFaces[k];
      if ((listed >> f[0] & 1) + (listed >> f[1] & 1) + (listed >> f[2] & 1) >= 2)
      {
        std::array<std::pair<cl_int, bool>, 3> corners = { { { v[f[0]], (listed >> f[0] & 1) != 0 },
          { v[f[1]], (listed >> f[1] & 1) != 0 }, { v[f[2]], (listed >> f[2] & 1) != 0 } } };
        std::sort(corners.begin(), corners.end());
        faces.push_back({ { corners[0].first, corners[1].first, corners[2].first },
          { corners[0].second, corners[1].second, corners[2].second } });
      }
    }
  }
  std::vector<Edge> boundary; // sorted
  if (tetrahedra)
  {
    parallelSort(faces, [](const Face& a, const Face& b) { return a.points < b.points; }, threads);
    for (std::size_t i = 0; i < faces.size();)
    {
      std::size_t j = i + 1;
      while (j < faces.size() && faces[j].points == faces[i].points)
        ++j;
      if (j == i + 1)
      {
        const auto& f = faces[i].points;
        const auto& listed = faces[i].listed;
        for (const auto& [a, b] : { std::pair<int, int>{ 0, 1 }, std::pair<int, int>{ 1, 2 }, std::pair<int, int>{ 0, 2 } })
          if (listed[a] && listed[b])
            boundary.push_back({ f[a], f[b] });
      }
      i = j;
    }
    parallelSort(boundary, threads);
    boundary.erase(std::unique(boundary.begin(), boundary.end()), boundary.end());
  }
  else
  {
    // An edge one triangle uses.
    std::vector<std::pair<Edge, cl_int>> sorted(slots);
    parallelSort(sorted, threads);
    for (std::size_t i = 0; i < sorted.size();)
    {
      std::size_t j = i + 1;
      while (j < sorted.size() && sorted[j].first == sorted[i].first)
        ++j;
      if (j == i + 1)
        boundary.push_back(sorted[i].first);
      i = j;
    }
    parallelSort(boundary, threads);
  }
  // Each slot looked up on all threads, then kept in slot order.
  std::vector<unsigned char> onBoundary(slots.size());
  parallelFor(0, static_cast<std::int64_t>(slots.size()), 0, threads, [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t i = first; i < last; ++i)
      onBoundary[i] = std::binary_search(boundary.begin(), boundary.end(), slots[i].first);
  });
  BoundaryEdgeSlots result;
  for (std::size_t i = 0; i < slots.size(); ++i)
  {
    if (onBoundary[i])
    {
      result.slots.push_back(slots[i].second);
      result.ends.push_back(cl_int2{ { slots[i].first.first, slots[i].first.second } });
    }
  }
  return result;
}
} // namespace

BoundaryEdgeSlots boundaryEdgeSlots(DeviceRun& run, const DeviceMesh& mesh)
{
  BoundaryEdgeSlots result;
  const CellKind kind = soleSimplexKind(mesh);
  if (mesh.groups().empty())
  {
    return result;
  }
  const CellEntities edges(run, mesh, EntityType::Edges);
  const auto slots = edges.slotCount();
  DeviceBuffer<cl_uint> flags = run.allocate<cl_uint>(slots, "boundary slot flags");
  if (kind == CellKind::Triangle)
  {
    run.call({ program, "flag_single_slot_runs" }, slots, "boundary edges", edges.slotRun(), static_cast<cl_int>(slots),
      flags);
  }
  else
  {
    const CellEntities faces(run, mesh, EntityType::Sides);
    DeviceBuffer<cl_uint> boundaryEntities = run.allocate<cl_uint>(edges.entityCount(), "boundary edges");
    run.fill(boundaryEntities, cl_uint(0), "boundary edges");
    run.call({ program, "flag_boundary_face_edges" }, faces.slotCount(), "boundary edges", faces.slotRun(),
      static_cast<cl_int>(faces.slotCount()), edges.slotEntity(), boundaryEntities);
    run.call({ program, "flag_slots_of_entities" }, slots, "boundary edges", edges.slotEntity(),
      static_cast<cl_int>(slots), boundaryEntities, flags);
  }
  DeviceBuffer<cl_uint> places = run.allocate<cl_uint>(slots + 1, "boundary slot places");
  const auto count = static_cast<std::size_t>(exclusiveScan(run, flags, slots, places, "boundary edges"));
  DeviceBuffer<cl_int> found = run.allocate<cl_int>(count, "boundary slots");
  DeviceBuffer<cl_int2> ends = run.allocate<cl_int2>(count, "boundary edge ends");
  run.call({ program, "gather_boundary_slots" }, slots, "boundary edges", places, static_cast<cl_int>(slots),
    edges.slotEntity(), edges.entityVertices(), found, ends);
  result.slots.resize(count);
  result.ends.resize(count);
  run.download(found, result.slots.data(), count, "boundary slots");
  run.download(ends, result.ends.data(), count, "boundary edge ends");
  return result;
}

BoundaryEdgeSlots boundaryEdgeSlotsAmong(
  DeviceRun& run, const DeviceMesh& mesh, const std::vector<cl_int>& points, double hostFraction)
{
  const CellKind kind = soleSimplexKind(mesh);
  const std::vector<cl_int> among = listedPoints(mesh, points, "Boundary edges among points");
  if (mesh.groups().empty() || among.empty())
  {
    return {};
  }
  const DeviceCellGroup& group = mesh.groups().front();
  const auto cellCount = static_cast<cl_int>(group.count);
  const cl_int perCell = fixedVertexCount(kind);
  // The cells holding two of the points, as many as the host matches (one more tells that there
  // are more), in one pass over the cells.
  const auto capacity =
    static_cast<std::size_t>(std::clamp(hostFraction, 0.0, 1.0) * static_cast<double>(group.count)) + 1;
  const DeviceBuffer<cl_uint> bits = listedPointBits(run, mesh, among, program);
  DeviceBuffer<cl_int> counter = run.allocate<cl_int>(1, "cells with two listed points");
  run.fill(counter, cl_int(0), "cells with two listed points");
  DeviceBuffer<cl_int> cellsFound = run.allocate<cl_int>(capacity, "cells with two listed points");
  DeviceBuffer<cl_int> pointsFound = run.allocate<cl_int>(perCell * capacity, "cells with two listed points");
  DeviceBuffer<cl_int> listedFound = run.allocate<cl_int>(capacity, "cells with two listed points");
  run.call({ program, "append_cells_with_two_listed" }, group.count, "boundary edges", group.connectivity, perCell,
    cellCount, bits, static_cast<cl_int>(capacity), counter, cellsFound, pointsFound, listedFound);
  cl_int count = 0;
  run.download(counter, &count, 1, "cells with two listed points");
  if (static_cast<std::size_t>(count) >= capacity)
  {
    BoundaryEdgeSlots all = boundaryEdgeSlots(run, mesh);
    BoundaryEdgeSlots result;
    for (std::size_t i = 0; i < all.slots.size(); ++i)
    {
      if (std::binary_search(among.begin(), among.end(), all.ends[i].s[0]) &&
        std::binary_search(among.begin(), among.end(), all.ends[i].s[1]))
      {
        result.slots.push_back(all.slots[i]);
        result.ends.push_back(all.ends[i]);
      }
    }
    return result;
  }
  if (count == 0)
  {
    return {};
  }
  // In cell order (the device appended them in any), so the slots come out in slot order.
  const auto n = static_cast<std::size_t>(count);
  ListedCells appended;
  appended.ids.resize(n);
  appended.points.resize(perCell * n);
  appended.listed.resize(n);
  run.download(cellsFound, appended.ids.data(), n, "cells with two listed points");
  run.download(pointsFound, appended.points.data(), perCell * n, "cells with two listed points");
  run.download(listedFound, appended.listed.data(), n, "cells with two listed points");
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  parallelSort(order, [&](std::size_t a, std::size_t b) { return appended.ids[a] < appended.ids[b]; }, hostThreads());
  ListedCells cells;
  cells.ids.resize(n);
  cells.points.resize(perCell * n);
  cells.listed.resize(n);
  for (std::size_t i = 0; i < n; ++i)
  {
    cells.ids[i] = appended.ids[order[i]];
    cells.listed[i] = appended.listed[order[i]];
    std::copy_n(appended.points.begin() + perCell * order[i], perCell, cells.points.begin() + perCell * i);
  }
  return matchOnHost(kind, cells);
}

} // namespace gpumesh
