// The cells of a refined tetrahedral mesh, from the device into a vtkUnstructuredGrid (private
// to the module; the points are built as for triangles, by vtkGPULongestEdgeRefinement).
#ifndef vtkGPUMeshRefinedTetrahedra_h
#define vtkGPUMeshRefinedTetrahedra_h

#include "gpumesh/algorithms/refinement/RefinementPasses.h"

class vtkPointSet;

namespace vtkGPUMeshRefinedTetrahedra
{

/// Sets the output's cells (VTK_TETRA, 32-bit connectivity straight from the device), adds
/// `ParentCellId` and copies each input cell array from the parents.
void BuildCells(gpumesh::DeviceRun& run, vtkPointSet* input, vtkPointSet* output,
  const gpumesh::RefinedSimplices& refined);

} // namespace vtkGPUMeshRefinedTetrahedra

#endif
