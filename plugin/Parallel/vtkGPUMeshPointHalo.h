// The halo exchange of a distributed point iteration (private to the module): each point is
// computed by the one process that owns it, and every other copy is overwritten with the
// owner's value after each step. Only the points other processes hold go through the host, and
// each process talks to its neighbours only (the processes whose ghosted piece's box meets
// its own), so that what it sends per step depends on its interface, not on the number of
// processes.
#ifndef vtkGPUMeshPointHalo_h
#define vtkGPUMeshPointHalo_h

#include "vtkGPUMeshGhostLayer.h"
#include "vtkGPUMeshNeighbors.h"

#include "gpumesh/primitives/IndexedCopy.h"
#include "gpumesh/runtime/DeviceRun.h"
#include "gpumesh/runtime/HostMemory.h"

#include <cstdint>
#include <string>
#include <vector>

class vtkMultiProcessController;

class vtkGPUMeshPointHalo
{
public:
  /**
   * Collective. A point belongs to the lowest rank that has it among its input's points: that
   * process's piece (owned cells plus the ghost layer) holds every cell around it, so that its
   * update is the serial one. This process receives every point of `piece` it holds but does
   * not own. One round of records with the neighbours, and one of counts that checks the two
   * sides of each pair agree. Throws nothing, so that every process completes the exchanges:
   * call CheckComplete.
   */
  vtkGPUMeshPointHalo(const vtkGPUMeshDistributed::GhostedPiece& piece, vtkMultiProcessController* controller);

  /// Throws gpumesh::Error naming the global id of a needed point that no process owns, or a
  /// neighbour whose plan disagrees with this process's.
  void CheckComplete() const;

  /// The points an exchange gathers (those this process publishes) and scatters (those it
  /// receives), checked against the piece's `points` and on `run`'s device once for all of
  /// that run's exchanges. Throws gpumesh::Error naming a point outside the piece.
  struct OnDevice
  {
    gpumesh::DeviceIndices Published, Received;
  };
  OnDevice PointsOnDevice(gpumesh::DeviceRun& run, std::size_t points) const;

  /// Collective. Overwrites the values of the points (4 REALs per point of the piece, the
  /// smoothing's displacements) that other processes own with their owners' values. They
  /// travel in the buffer's precision as the device gathers them, and are scattered there as
  /// they arrive (`points`, from PointsOnDevice on this run).
  void Exchange(gpumesh::DeviceRun& run, const OnDevice& points, gpumesh::RealBuffer& values);

  /// The points of the piece whose values Exchange overwrites: those other processes own.
  const std::vector<std::int32_t>& Received() const { return this->ReceivedPoints; }

  /// Bytes sent plus received by this process in all exchanges so far (the plan's included).
  std::uint64_t BytesExchanged() const { return this->Neighbors.BytesExchanged(); }

  /// Bytes sent plus received by one Exchange in the run's precision (`realSize` bytes a value).
  std::uint64_t BytesPerExchange(std::size_t realSize) const
  {
    return 4 * realSize * (this->Published.size() + this->ReceivedPoints.size());
  }

private:
  vtkGPUMeshNeighbors Neighbors;
  std::vector<std::int32_t> Published;       // piece points sent, grouped by neighbour
  std::vector<std::size_t> PublishedStart;   // per neighbour + 1: where its group starts
  std::vector<std::int32_t> ReceivedPoints;  // piece points overwritten, grouped by neighbour
  std::vector<std::size_t> ReceivedStart;    // per neighbour + 1
  std::string Missing; // why CheckComplete throws, empty when nothing is missing
  // The last exchange's values, kept for the next (a step allocates nothing), per precision.
  gpumesh::HostVector<float> SentFloats, ReceivedFloats;
  gpumesh::HostVector<double> SentDoubles, ReceivedDoubles;
};

#endif
