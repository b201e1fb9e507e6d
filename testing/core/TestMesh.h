// Small meshes written out cell by cell for the core tests, and their HostMesh.
#pragma once
#include "gpumesh/HostMesh.h"

#include <cstdint>
#include <vector>

namespace testmesh
{

struct Cell
{
  gpumesh::CellKind kind;
  std::vector<std::int64_t> ids;
};

struct Mesh
{
  std::vector<double> xyz;
  std::vector<Cell> cells;
  std::size_t points() const { return xyz.size() / 3; }
};

/// Cell c of the mesh becomes cell id c.
inline gpumesh::HostMesh toHost(const Mesh& mesh)
{
  gpumesh::HostMesh host;
  host.setPoints(mesh.xyz.data(), static_cast<std::int64_t>(mesh.points()));
  host.setCellCount(static_cast<std::int64_t>(mesh.cells.size()));
  for (std::size_t c = 0; c < mesh.cells.size(); ++c)
    host.addCell(static_cast<std::int64_t>(c), mesh.cells[c].kind, mesh.cells[c].ids.data(),
      static_cast<std::int64_t>(mesh.cells[c].ids.size()));
  return host;
}

} // namespace testmesh
