// "Ghosted piece in, owned values out" (private to the module): how a filter whose values, per
// point or per cell, depend on the cells around them gets the serial values under MPI.
//
// Each process computes on its ghosted piece (the cells it owns plus one layer of ghost cells,
// vtkGPUMeshDistributed::BuildGhostedPiece, kept between executions by
// vtkGPUMeshGhostedPieceCache) relative to the origin all processes share
// (GlobalBoundsCentre), so that every owned point and cell sees all its neighbours and gets
// its serial value; then each input point and cell takes the value of its copy in the piece.
// The input's own ghosts, which their owners compute, get NaN (-1 in integer arrays) and keep
// their coordinates. In a serial run the filter computes on the input, straight into the
// output.
#ifndef vtkGPUMeshOwnedValues_h
#define vtkGPUMeshOwnedValues_h

#include "vtkGPUMeshGhostedPieceCache.h"

#include "vtkType.h"

#include <array>
#include <functional>

class vtkMultiProcessController;
class vtkPointSet;

class vtkGPUMeshOwnedValues
{
public:
  /**
   * A filter's work on `mesh`: it adds its arrays to the point and cell data of `result`, one
   * value per result point and cell of `mesh` (vtkGPUMeshPiece::GetNumberOfResultPoints) and,
   * when it moves the points, sets result's points. `origin`: null when `mesh` is the input
   * (and `result` the output), the origin shared by all processes when it is the ghosted piece.
   */
  using Computation =
    std::function<void(const vtkGPUMeshPiece& mesh, const std::array<double, 3>* origin, vtkPointSet* result)>;

  /**
   * Without a controller: compute(input, nullptr, output). With one (collective): compute on
   * the ghosted piece, whose arrays and points become the output's as the header says; whether
   * the piece was reused goes into the output's field data (`GhostedPieceReused`). A failure
   * on any process is thrown on every process (vtkGPUMeshDistributed::AllSucceed). `device`:
   * where a build of the piece finds the cells around the shared points (BuildGhostedPiece).
   */
  void Compute(vtkPointSet* input, vtkPointSet* output, vtkMultiProcessController* controller,
    const Computation& compute, const vtkGPUMeshDistributed::PieceDevice* device = nullptr);

  /// How many ghosted pieces Compute has built so far (0 in serial runs).
  vtkIdType GetBuildCount() const { return this->Cache.GetBuildCount(); }

private:
  vtkGPUMeshGhostedPieceCache Cache;
};

#endif
