// CPU statements of what the vertex links and the smoothing compute, in double precision, for
// the core tests: the test's own tables of VTK's local edges and sides, std::set rows.
#pragma once
#include "TestMesh.h"

#include "gpumesh/algorithms/Smoothing.h"
#include "gpumesh/mesh/HostMesh.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <vector>

namespace reference
{
using gpumesh::CellKind;
using Rows = std::vector<std::set<int>>;

using testmesh::Cell;
using testmesh::Mesh;
using testmesh::toHost;

inline bool isSurfaceOrVolume(CellKind kind)
{
  return kind != CellKind::Line && kind != CellKind::PolyLine;
}

// Local vertex lists of each edge, and of each side (edges of 2D cells, faces of 3D cells,
// corners in cyclic order), as VTK numbers them.
inline std::vector<std::vector<int>> localEdges(CellKind kind, std::size_t n)
{
  switch (kind)
  {
    case CellKind::Tetra:
      return { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 0, 3 }, { 1, 3 }, { 2, 3 } };
    case CellKind::Hexahedron:
      return { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 }, { 4, 5 }, { 5, 6 }, { 6, 7 }, { 7, 4 }, { 0, 4 },
        { 1, 5 }, { 2, 6 }, { 3, 7 } };
    case CellKind::Wedge:
      return { { 0, 1 }, { 1, 2 }, { 2, 0 }, { 3, 4 }, { 4, 5 }, { 5, 3 }, { 0, 3 }, { 1, 4 }, { 2, 5 } };
    case CellKind::Pyramid:
      return { { 0, 1 }, { 1, 2 }, { 2, 3 }, { 3, 0 }, { 0, 4 }, { 1, 4 }, { 2, 4 }, { 3, 4 } };
    default: // triangles, quads, polygons: the cycle of their vertices
    {
      std::vector<std::vector<int>> edges;
      for (std::size_t k = 0; k < n; ++k)
        edges.push_back({ int(k), int((k + 1) % n) });
      return edges;
    }
  }
}

inline std::vector<std::vector<int>> localSides(CellKind kind, std::size_t n)
{
  switch (kind)
  {
    case CellKind::Tetra:
      return { { 0, 1, 3 }, { 1, 2, 3 }, { 2, 0, 3 }, { 0, 2, 1 } };
    case CellKind::Hexahedron:
      return { { 0, 4, 7, 3 }, { 1, 2, 6, 5 }, { 0, 1, 5, 4 }, { 3, 7, 6, 2 }, { 0, 3, 2, 1 }, { 4, 5, 6, 7 } };
    case CellKind::Wedge:
      return { { 0, 1, 2 }, { 3, 5, 4 }, { 0, 3, 4, 1 }, { 1, 4, 5, 2 }, { 2, 5, 3, 0 } };
    case CellKind::Pyramid:
      return { { 0, 3, 2, 1 }, { 0, 1, 4 }, { 1, 2, 4 }, { 2, 3, 4 }, { 3, 0, 4 } };
    default:
      return localEdges(kind, n);
  }
}

inline void join(Rows& rows, std::int64_t a, std::int64_t b)
{
  if (a != b)
  {
    rows[a].insert(int(b));
    rows[b].insert(int(a));
  }
}

struct Links
{
  Rows neighbors;         // across cell edges
  Rows cells;             // ball
  Rows boundaryNeighbors; // across edges of sides of one cell
  std::vector<int> roles;
};

inline Links links(const Mesh& mesh, gpumesh::SmoothingBoundary boundary, const std::vector<std::uint8_t>& pinned = {})
{
  const std::size_t n = mesh.points();
  Links result{ Rows(n), Rows(n), Rows(n), std::vector<int>(n, gpumesh::Interior) };
  std::map<std::vector<std::int64_t>, int> sideUse;
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const Cell& cell = mesh.cells[c];
    if (!isSurfaceOrVolume(cell.kind))
      continue;
    for (auto id : cell.ids)
      result.cells[id].insert(int(c));
    for (const auto& e : localEdges(cell.kind, cell.ids.size()))
      join(result.neighbors, cell.ids[e[0]], cell.ids[e[1]]);
    for (const auto& s : localSides(cell.kind, cell.ids.size()))
    {
      std::vector<std::int64_t> key;
      for (int k : s)
        key.push_back(cell.ids[k]);
      std::sort(key.begin(), key.end());
      ++sideUse[key];
    }
  }
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
  {
    const Cell& cell = mesh.cells[c];
    if (!isSurfaceOrVolume(cell.kind))
      continue;
    for (const auto& s : localSides(cell.kind, cell.ids.size()))
    {
      std::vector<std::int64_t> key;
      for (int k : s)
        key.push_back(cell.ids[k]);
      std::sort(key.begin(), key.end());
      const int uses = sideUse[key];
      if (uses == 1)
      {
        const std::size_t corners = s.size();
        for (std::size_t k = 0; k < (corners == 2 ? 1 : corners); ++k)
          join(result.boundaryNeighbors, cell.ids[s[k]], cell.ids[s[(k + 1) % corners]]);
      }
      if (boundary == gpumesh::SmoothingBoundary::Free || uses == 2)
        continue;
      const int role = uses > 2 || boundary == gpumesh::SmoothingBoundary::Fixed ? gpumesh::Pinned : gpumesh::OnBoundary;
      for (auto id : key)
        result.roles[id] = std::min(result.roles[id], role);
    }
  }
  for (std::size_t v = 0; v < pinned.size(); ++v)
    if (pinned[v])
      result.roles[v] = gpumesh::Pinned;
  return result;
}

/// The smoothing formulas in double, Jacobi: every vertex from the previous iterate.
inline std::vector<double> smooth(const Mesh& mesh, const gpumesh::SmoothingOptions& options,
  const std::vector<std::uint8_t>& pinned = {})
{
  using gpumesh::SmoothingMethod;
  const Links l = links(mesh, options.boundary, pinned);
  std::vector<double> x = mesh.xyz;
  auto step = [&](double factor) {
    std::vector<double> barycentres(3 * mesh.cells.size(), 0.0);
    for (std::size_t c = 0; c < mesh.cells.size(); ++c)
      for (auto id : mesh.cells[c].ids)
        for (int k = 0; k < 3; ++k)
          barycentres[3 * c + k] += x[3 * id + k] / double(mesh.cells[c].ids.size());
    std::vector<double> next = x;
    for (std::size_t v = 0; v < mesh.points(); ++v)
    {
      const bool interior = l.roles[v] == gpumesh::Interior;
      if (l.roles[v] == gpumesh::Pinned)
        continue;
      const bool fromCells = interior && options.method == SmoothingMethod::Barycentric;
      const std::set<int>& row = interior ? (fromCells ? l.cells[v] : l.neighbors[v]) : l.boundaryNeighbors[v];
      if (row.empty())
        continue;
      for (int k = 0; k < 3; ++k)
      {
        double sum = 0.0;
        for (int s : row)
          sum += fromCells ? barycentres[3 * s + k] : x[3 * s + k];
        next[3 * v + k] = x[3 * v + k] + factor * (sum / double(row.size()) - x[3 * v + k]);
      }
    }
    x.swap(next);
  };
  for (int i = 0; i < options.iterations; ++i)
  {
    step(options.relaxationFactor);
    if (options.method == SmoothingMethod::Taubin)
      step(options.mu());
  }
  return x;
}

} // namespace reference
