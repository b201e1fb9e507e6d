// Upward links from vertices ("liens montants" of GMlib), built on the device as VertexTables:
// neighbours across cell edges, the ball of cells, neighbours along the boundary.
#pragma once
#include "gpumesh/topology/CellEntities.h"
#include "gpumesh/topology/VertexTable.h"

namespace gpumesh
{

/// Vertex -> the vertices joined to it by an edge of a cell of `mesh`. `edges` must have been
/// built with EntityType::Edges on `mesh`. A degenerate edge (both ends the same vertex)
/// joins nothing.
VertexTable vertexNeighbors(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& edges,
  const VertexTableLayout& layout = {});
/// The same, letting go of every buffer of `edges` (CellEntities::release) once their ends
/// are read, so that the table takes their memory instead of fresh pages (on CPU devices the
/// first touch of fresh memory costs; 30 MB for the edges of 1M triangles).
VertexTable vertexNeighbors(DeviceRun& run, const DeviceMesh& mesh, CellEntities&& edges,
  const VertexTableLayout& layout = {});

/// Vertex -> the ids of the cells of `mesh` that use it (its ball), each cell once.
VertexTable vertexCells(DeviceRun& run, const DeviceMesh& mesh, const VertexTableLayout& layout = {});

/// Vertex -> the vertices joined to it by an edge of a boundary side (a side of exactly one
/// cell): for 2D cells the boundary edges themselves, for 3D cells the edges of boundary
/// faces. `sides` must have been built with EntityType::Sides on `mesh`.
VertexTable boundaryNeighbors(DeviceRun& run, const DeviceMesh& mesh, const CellEntities& sides,
  const VertexTableLayout& layout = {});

} // namespace gpumesh
