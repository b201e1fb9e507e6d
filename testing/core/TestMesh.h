// Small meshes written out cell by cell for the core tests, their HostMesh, and views of
// meshes in VTK's layout.
#pragma once
#include "gpumesh/mesh/HostMesh.h"
#include "gpumesh/mesh/MeshView.h"

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

/// A generated benchmark mesh (testing/benchmark/MeshGenerators.h) written out cell by cell,
/// into any mesh type with `xyz` and `cells` of {kind, ids}.
template <typename MeshType, typename Generated>
MeshType fromGenerated(const Generated& generated)
{
  MeshType mesh{ generated.xyz, {} };
  const auto v = static_cast<std::size_t>(generated.verticesPerCell);
  for (std::size_t c = 0; c < generated.cellCount(); ++c)
    mesh.cells.push_back({ generated.kind,
      std::vector<std::int64_t>(generated.connectivity.begin() + static_cast<long>(c * v),
        generated.connectivity.begin() + static_cast<long>((c + 1) * v)) });
  return mesh;
}

// Points and one section of polygons (vtkPolyData's polys) in VTK's layout.
template <typename Real, typename Index>
inline gpumesh::MeshView polygonsView(const std::vector<Real>& xyz, const std::vector<Index>& offsets, const std::vector<Index>& connectivity)
{
  gpumesh::MeshView view;
  view.points.xyz = xyz.data();
  view.points.isDouble = sizeof(Real) == 8;
  view.points.count = static_cast<std::int64_t>(xyz.size() / 3);
  gpumesh::CellSection section;
  section.layout = gpumesh::SectionLayout::Polygons;
  section.cellCount = static_cast<std::int64_t>(offsets.size() - 1);
  section.offsets = offsets.data();
  section.connectivity = connectivity.data();
  section.indices64 = sizeof(Index) == 8;
  view.sections.push_back(section);
  return view;
}

} // namespace testmesh
