// The unique edges of a mesh's surface and volume cells, all of them or only the boundary and
// feature edges of its 2D cells.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"
#include "gpumesh/runtime/HostMemory.h"

#include <cstdint>
#include <vector>

namespace gpumesh
{

enum class EdgeSelection
{
  /// Every edge of every 2D and 3D cell, once (vtkExtractEdges; lines and vertices have none).
  All,
  /// The edges one 2D cell uses (vtkFeatureEdges' boundary edges).
  Boundary,
  /// The edges two 2D cells share whose normals make an angle above the feature angle
  /// (vtkFeatureEdges' feature edges: the cells' own normals, cos of the angle >= their dot).
  Feature,
  /// Both of the above.
  BoundaryAndFeature
};

/// The edges selected, in the order CellEntities numbers them (by smallest point, then sorted
/// point ids).
struct ExtractedEdges
{
  /// Per edge: the lowest mesh cell id among the cells that use it.
  HostVector<cl_int> cells;
  /// Per edge: its end points, smaller id first.
  HostVector<cl_int2> ends;
};

/// Which process outputs an edge a distributed mesh's pieces share: the one of lowest `owner`
/// among the cells using it. A piece with a ghost layer keeps an edge only when that lowest
/// owner is `self` (every process holding a cell of the edge holds all of them and agrees).
struct EdgeOwners
{
  std::vector<cl_int> owner; ///< per mesh cell
  cl_int self = 0;
};

/// The selected edges of `mesh`'s 2D and 3D cells (1D cells take no part: build the mesh with
/// minimumDimension 2). `featureAngle` in degrees (Feature selections). With `owners`, only the
/// edges this piece owns. Throws gpumesh::Error for a Boundary or Feature selection on a mesh
/// with 3D cells (their boundary and feature edges are those of their surface: extract it
/// first), and for a feature angle outside [0, 180].
ExtractedEdges extractEdges(DeviceRun& run, const DeviceMesh& mesh, EdgeSelection selection, double featureAngle,
  const EdgeOwners* owners = nullptr);

} // namespace gpumesh
