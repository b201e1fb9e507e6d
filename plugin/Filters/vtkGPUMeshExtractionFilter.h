/**
 * @class   vtkGPUMeshExtractionFilter
 * @brief   base class of the GPUMesh filters whose output is a vtkPolyData of part of the input
 *
 * What GPU Extract Surface and GPU Extract Edges share: a vtkPolyData output whatever the input,
 * the PassThroughCellIds and PassThroughPointIds options (`vtkOriginalCellIds`,
 * `vtkOriginalPointIds`, as ParaView's extraction filters name them), and under MPI the
 * ghosted piece, kept between executions while no process's input changes.
 */
#ifndef vtkGPUMeshExtractionFilter_h
#define vtkGPUMeshExtractionFilter_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshFilter.h"

#include <memory> // for std::unique_ptr

class vtkFieldData;
class vtkGPUMeshGhostedPieceCache;
class vtkMultiProcessController;
namespace vtkGPUMeshDistributed
{
struct GhostedPiece;
}
namespace vtkGPUMeshExtractedPolyData
{
struct Options;
}

class GPUMESHFILTERS_EXPORT vtkGPUMeshExtractionFilter : public vtkGPUMeshFilter
{
public:
  vtkTypeMacro(vtkGPUMeshExtractionFilter, vtkGPUMeshFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// Add the cell array `vtkOriginalCellIds`: the input cell each output cell comes from (off
  /// by default).
  vtkSetMacro(PassThroughCellIds, bool);
  vtkGetMacro(PassThroughCellIds, bool);
  vtkBooleanMacro(PassThroughCellIds, bool);
  ///@}

  ///@{
  /// Add the point array `vtkOriginalPointIds`: the input point each output point is (off by
  /// default).
  vtkSetMacro(PassThroughPointIds, bool);
  vtkGetMacro(PassThroughPointIds, bool);
  vtkBooleanMacro(PassThroughPointIds, bool);
  ///@}

  /// Under MPI: how many times this filter has built its ghosted piece (0 in serial runs).
  vtkIdType GetGhostedPieceBuildCount();

protected:
  vtkGPUMeshExtractionFilter();
  ~vtkGPUMeshExtractionFilter() override;

  /// The output is a vtkPolyData whatever the input.
  int FillOutputPortInformation(int port, vtkInformation* info) override;
  int RequestDataObject(vtkInformation*, vtkInformationVector**, vtkInformationVector*) override;

  /// The pass-through options as the polydata assembly takes them.
  vtkGPUMeshExtractedPolyData::Options OutputOptions() const;

  /// Collective: the ghosted piece of `input` (kept while no process's input changes), its
  /// report into `report`; built with `run`'s device finding the cells around the shared
  /// points in the input's mesh kept there with cells of `minimumDimension` and up.
  const vtkGPUMeshDistributed::GhostedPiece& GhostedPieceOf(vtkPointSet* input,
    vtkMultiProcessController* controller, vtkFieldData* report, gpumesh::DeviceRun& run, int minimumDimension);

  bool PassThroughCellIds = false;
  bool PassThroughPointIds = false;

private:
  std::unique_ptr<vtkGPUMeshGhostedPieceCache> GhostedPiece;

  vtkGPUMeshExtractionFilter(const vtkGPUMeshExtractionFilter&) = delete;
  void operator=(const vtkGPUMeshExtractionFilter&) = delete;
};

#endif
