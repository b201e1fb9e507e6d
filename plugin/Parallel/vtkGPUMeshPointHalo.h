// The halo exchange of a distributed point iteration (private to the module): each point is
// computed by the one process that owns it, and every other copy is overwritten with the
// owner's value after each step. Only the points other processes hold go through the host.
#ifndef vtkGPUMeshPointHalo_h
#define vtkGPUMeshPointHalo_h

#include "vtkGPUMeshDistributed.h"

#include "gpumesh/runtime/DeviceRun.h"

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

class vtkMultiProcessController;

class vtkGPUMeshPointHalo
{
public:
  /**
   * Collective. A point on the interface belongs to the lowest rank whose piece (owned cells
   * plus the ghost layer) holds every cell around it, so that its update is the serial one;
   * any other point to the one process whose owned cells use it. This process
   * receives every point of `piece` used by a cell that it does not own, and every input point
   * missing from `piece` (used only by the input's own ghost cells). Throws nothing, so that
   * every process completes the exchanges: call CheckComplete.
   */
  vtkGPUMeshPointHalo(const vtkGPUMeshDistributed::GhostedPiece& piece, vtkMultiProcessController* controller);

  /// Throws gpumesh::Error naming the global id of a needed point that no process owns.
  void CheckComplete() const;

  /// Collective. Overwrites the values of the points (4 REALs per point of the piece, the
  /// smoothing's displacements) that other processes own with their owners' values. They
  /// travel in the run's precision.
  void Exchange(gpumesh::DeviceRun& run, gpumesh::RealBuffer& values);

  /// The 4 values received in the last Exchange for an input point missing from the piece.
  const double* ReceivedInputPoint(long long globalId) const;

  /// Bytes sent plus received by this process in all exchanges so far.
  std::uint64_t BytesExchanged() const { return Bytes; }

private:
  vtkMultiProcessController* Controller;
  std::vector<std::int32_t> Published;        // piece points this process sends, in send order
  std::vector<vtkIdType> PublishedCounts;     // per process: points it sends
  std::vector<vtkIdType> PublishedOffsets;    // per process: where its points start
  std::vector<std::int32_t> ReceivedPoints;   // piece points overwritten ...
  std::vector<std::int64_t> ReceivedFrom;     // ... from these positions of the gathered list
  std::unordered_map<long long, std::int64_t> ExtraFrom; // missing input points: position
  std::vector<double> Gathered;               // the last exchange's values, 4 per point
  std::uint64_t Bytes = 0;
  std::string Missing; // why CheckComplete throws, empty when nothing is missing
};

#endif
