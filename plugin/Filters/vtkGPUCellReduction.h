/**
 * @class   vtkGPUCellReduction
 * @brief   per-cell size or array values reduced to Min, Max, Sum, Mean, L0, L1, L2, Linf on the GPU
 *
 * Computes one quantity per cell on the OpenCL device and reduces it there:
 * - Size (default): each cell by its own dimension: the length of lines and polylines, the
 *   area of triangles, strips, quads, pixels and polygons, the volume of tetrahedra,
 *   hexahedra, voxels, wedges and pyramids;
 * - Area, Volume or Length: that measure only;
 * - Array: the cell array chosen with SetInputArrayToProcess(0, ...) (vectors by magnitude).
 *
 * Cells the quantity does not apply to (vertices, or lines when asking for Area, ...) get NaN
 * and are left out of the reduction, as are NaN values of an array.
 * Degenerate cells measure 0 and are counted. Volumes are signed: an inverted cell has a
 * negative volume. Hexahedra, wedges and pyramids get the exact volume of their trilinear
 * shape; a non-planar quad or polygon gets the magnitude of its vector area (the true area
 * when planar, convex or not). Quantities are computed in single precision on the device,
 * relative to the centre of the mesh's bounds; sums are compensated and combined in double.
 * Cells of types the core does not measure (quadratic cells, polyhedra, ...) are an error
 * naming the first such cell, unless Quantity is Array.
 *
 * Output: the input (shallow copy) plus a float cell array holding the quantity, named
 * "Size", "Area", "Volume", "Length", or "<array>_Magnitude" for a vector array (a scalar
 * array is itself the quantity, so nothing is added); field data `Min`, `Max`, `Sum`,
 * `Mean`, `L2` (double; Min, Max and Mean are NaN when Count is 0), `Count` (the number of
 * cells reduced), `L0` (the number of those that are not 0), `L1` (the sum of magnitudes) and
 * `Linf` (the largest magnitude; L0, L1, L2 and Linf are 0 when Count is 0), `Quantity` (what was reduced) and the device report of vtkGPUMeshFilter.
 *
 * Under MPI (a global controller with several processes) the statistics are those of all
 * processes, identical on each: every process reduces the cells it owns (ghost cells are left
 * out, as vtkPCellSizeFilter does) and the results are gathered and merged in rank order
 * (gpumesh::Statistics::merge, the scaled L2, L0, L1 and Linf included). Double points that run in Single
 * precision are shifted by the centre of the global bounds, as a serial run shifts them.
 */
#ifndef vtkGPUCellReduction_h
#define vtkGPUCellReduction_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshFilter.h"

class GPUMESHFILTERS_EXPORT vtkGPUCellReduction : public vtkGPUMeshFilter
{
public:
  static vtkGPUCellReduction* New();
  vtkTypeMacro(vtkGPUCellReduction, vtkGPUMeshFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum QuantityType
  {
    SIZE = 0,
    AREA = 1,
    VOLUME = 2,
    LENGTH = 3,
    ARRAY = 4
  };

  ///@{
  /**
   * What is computed per cell and reduced (default SIZE). For ARRAY, choose the cell array
   * with SetInputArrayToProcess(0, 0, 0, vtkDataObject::FIELD_ASSOCIATION_CELLS, name).
   * Another value is an error.
   */
  vtkSetMacro(Quantity, int);
  vtkGetMacro(Quantity, int);
  ///@}

  /// "Size", "Area", "Volume", "Length" or "Array".
  static const char* GetQuantityName(int quantity);

protected:
  vtkGPUCellReduction();
  ~vtkGPUCellReduction() override = default;

  void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output,
    gpumesh::DeviceRun& run) override;

  int Quantity = SIZE;

private:
  vtkGPUCellReduction(const vtkGPUCellReduction&) = delete;
  void operator=(const vtkGPUCellReduction&) = delete;
};

#endif
