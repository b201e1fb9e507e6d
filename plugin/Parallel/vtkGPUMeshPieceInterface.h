// Where a piece meets the others (private to the module): its neighbouring processes, the
// global id of each of its points, and the points it shares with each neighbour. Found from the
// pieces' bounding boxes and one exchange with the neighbours of the points in their boxes (the
// interface candidates), never from a pass over every process's data.
#ifndef vtkGPUMeshPieceInterface_h
#define vtkGPUMeshPieceInterface_h

#include "vtkGPUMeshNeighbors.h"

#include "vtkSmartPointer.h"
#include "vtkType.h"

#include "gpumesh/runtime/HostMemory.h"

namespace gpumesh
{
class DeviceMesh;
class DeviceRun;
}

#include <memory>
#include <vector>

class vtkDataArray;
class vtkMultiProcessController;
class vtkPointSet;

/// Per point of a piece, its global id: the input's own array, read in place when it holds
/// 64-bit integers in VTK's standard layout (no copy as large as the piece), else a copy; then
/// the ids of points added after the input's (the refinement's new points, pass after pass).
/// Copies share the input points' ids (a copy of this piece's own too): copying costs what the
/// added ids do.
class vtkGPUMeshGlobalPointIds
{
public:
  long long operator[](std::size_t p) const
  {
    return p < this->InputCount ? this->Input[p] : this->Added[p - this->InputCount];
  }
  std::size_t size() const { return this->InputCount + this->Added.size(); }
  /// The input points' ids, contiguous (InputSize() of them).
  const long long* InputIds() const { return this->Input; }
  std::size_t InputSize() const { return this->InputCount; }
  /// Whether the input points' ids increase with the point ids (p < q: id(p) < id(q)): then
  /// they order any of the piece's points as its own ids do. A parallel pass over them, except
  /// for the input's array last found so and unmodified since (a re-execution's).
  bool InputIncreasing() const;
  /// The largest id (-1 when there is none). A parallel pass over them.
  long long Largest() const;
  /// The ids of the points after the input's.
  std::vector<long long> Added;

  /// Reads `array` in place (kept alive here) when it holds 64-bit integers in the standard
  /// layout, one component; otherwise returns false.
  bool Adopt(vtkDataArray* array);
  /// Takes `ids` as the input points' ids.
  void Own(gpumesh::HostVector<long long>&& ids);
  /// Sets input point p's id: only for ids this holds in its own copy (Own), before it is
  /// copied (copies share it).
  void Set(std::size_t p, long long id);

private:
  vtkSmartPointer<vtkDataArray> Held;
  std::shared_ptr<gpumesh::HostVector<long long>> Owned;
  const long long* Input = nullptr;
  std::size_t InputCount = 0;
};

/// A piece's box and its first point that is not finite (-1: none), found once by a filter
/// that needs the box before the interface (the global bounds' centre): by a pass over the
/// input's points (Of, vtkGPUMeshNeighbors::BoxOf), or on the device from the piece's mesh there
/// (OnDevice), which then also finds the input's points in the neighbours' boxes for Find: no
/// pass over the piece's points on the host at all.
struct vtkGPUMeshPieceBox
{
  vtkGPUMeshNeighbors::Box Box = vtkGPUMeshNeighbors::EmptyBox();
  vtkIdType FirstNonFinite = -1;
  /// OnDevice's mesh and run, else null. The caller keeps the mesh until Find has run.
  gpumesh::DeviceRun* Run = nullptr;
  const gpumesh::DeviceMesh* Mesh = nullptr;
  static vtkGPUMeshPieceBox Of(vtkPointSet* input);
  /// The box of `mesh`, the input's mesh made on the device of `run` with the input's own
  /// coordinates (not rounded: PointsView::roundedIn false), its points checked finite there.
  static vtkGPUMeshPieceBox OnDevice(gpumesh::DeviceRun& run, const gpumesh::DeviceMesh& mesh);
};

struct vtkGPUMeshPieceInterface
{
  /// Collective. Global point ids are the input's (vtkPointData::GetGlobalIds) when every
  /// non-empty piece has them; otherwise they are generated: a point takes the smallest of
  /// (first point id of its process + its index) over the processes holding a point at exactly
  /// its coordinates. Throws gpumesh::Error on every process when one fails. `box`: the input's
  /// box when the caller found it (else found here: a pass over the points); the input's
  /// points in the neighbours' boxes are found where it was (the host: a pass over them).
  static vtkGPUMeshPieceInterface Find(
    vtkPointSet* input, vtkMultiProcessController* controller, const vtkGPUMeshPieceBox* box = nullptr);

  /// The processes whose bounding box meets this piece's.
  vtkGPUMeshNeighbors Neighbors;
  /// Per input point: its global id, the same on every process holding the point.
  vtkGPUMeshGlobalPointIds GlobalIds;
  /// Per neighbour (Neighbors' order): the input points that it holds too, ascending.
  std::vector<std::vector<vtkIdType>> Shared;
  /// Whether the global ids were generated here (the input had none).
  bool Generated = false;
};

#endif
