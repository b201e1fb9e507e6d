/**
 * @class   vtkGPUMeshPieceFilter
 * @brief   base class of the GPUMesh filters that compute values per point or cell of their piece
 *
 * A subclass supplies only its per-point or per-cell work (ComputeArrays); this class runs it
 * on the right mesh. In a serial run that is the input, and the arrays go straight into the
 * output. Under MPI it is the process's ghosted piece: the cells it owns plus one layer of
 * ghost cells (vtkGhostCellsGenerator), computed relative to one origin shared by all
 * processes, so that every owned point and cell sees all its neighbours and gets its serial
 * value; each input point and cell then takes the value of its copy in the piece, and the
 * input's own ghosts (DUPLICATECELL), whose owners hold their values, get NaN (-1 in integer
 * arrays) and keep their coordinates. The ghosted piece (the piece, its ghost layer and their
 * index maps, about as large as the piece) is kept between executions and reused while no
 * process's input has changed, so changing a property of the filter does not rebuild it; it is
 * released with the filter. The field data `GhostedPieceReused` says whether this execution
 * reused it (1) or built it (0).
 */
#ifndef vtkGPUMeshPieceFilter_h
#define vtkGPUMeshPieceFilter_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshFilter.h"

#include <array>  // for ComputeArrays
#include <memory> // for std::unique_ptr

class vtkGPUMeshOwnedValues;
struct vtkGPUMeshPiece;

class GPUMESHFILTERS_EXPORT vtkGPUMeshPieceFilter : public vtkGPUMeshFilter
{
public:
  vtkTypeMacro(vtkGPUMeshPieceFilter, vtkGPUMeshFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  /// Under MPI: how many times this filter has built its ghosted piece (0 in serial runs,
  /// which need none). An execution whose input is unchanged on every process reuses it.
  vtkIdType GetGhostedPieceBuildCount();

protected:
  vtkGPUMeshPieceFilter();
  ~vtkGPUMeshPieceFilter() override;

  /// Checks of the properties and the input before anything is computed or exchanged; under
  /// MPI every process learns of a failure anywhere. None by default.
  virtual void CheckInput(vtkInformationVector** inputVector, vtkPointSet* input);

  /**
   * The filter's work on `mesh`: add the arrays it computes to the point and cell data of
   * `result`, for the first GetNumberOfResultPoints() points and GetNumberOfResultCells()
   * cells of `mesh`, and set result's points when it moves them. `origin` is null when `mesh`
   * is the input (a serial run; `result` is then the output), else the origin all processes
   * compute relative to (`mesh` is the ghosted piece: the input and its ghost layer; `result`
   * an empty dataset of the input's type).
   */
  virtual void ComputeArrays(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& mesh,
    const std::array<double, 3>* origin, vtkPointSet* result) = 0;

  /// After the output has the arrays of every owned point and cell (e.g. reductions of them
  /// into the field data). Nothing by default.
  virtual void FinishOutput(gpumesh::DeviceRun& run, vtkPointSet* output);

  /// CheckInput, ComputeArrays on the input or the ghosted piece, FinishOutput.
  void ExecuteOnDevice(vtkInformationVector** inputVector, vtkPointSet* input, vtkPointSet* output,
    gpumesh::DeviceRun& run) final;

private:
  std::unique_ptr<vtkGPUMeshOwnedValues> OwnedValues;

  vtkGPUMeshPieceFilter(const vtkGPUMeshPieceFilter&) = delete;
  void operator=(const vtkGPUMeshPieceFilter&) = delete;
};

#endif
