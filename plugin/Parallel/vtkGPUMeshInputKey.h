// What decides everything a distributed filter derives from its input alone (its ghosted
// piece, its interface with the neighbours, the refinement's first cut), so that a filter can
// keep that between executions (private to the module): a GUI user who changes only a property
// of the filter re-executes it with the same input.
//
// The key holds the input dataset itself, its point and cell counts, the controller and its
// process count, and each part of the input that the derived data read, by address and
// modification time: the points and their array, every point and cell array (the global ids
// and the ghost array among them) and which are the global ids and ghosts, the cells' arrays.
// Not the times of the dataset or of its point and cell data: ParaView's post filter in front
// of a filter with an array property (the refinement's Mark Array) shallow-copies the same
// arrays into the same dataset at every execution, which renews those times alone. An in-place
// change counts when it is followed by Modified(), as everywhere in VTK; a new array at an old
// address never matches (VTK's modification times only grow). What was derived is reused only
// when no process's input changed (EveryProcess), since deriving it again is collective.
#ifndef vtkGPUMeshInputKey_h
#define vtkGPUMeshInputKey_h

#include "vtkMultiProcessController.h"
#include "vtkPointSet.h"
#include "vtkType.h"
#include "vtkWeakPointer.h"

#include <utility>
#include <vector>

class vtkGPUMeshInputKey
{
public:
  /// The key of `input` now, under `controller` (may be null: a serial run).
  static vtkGPUMeshInputKey Of(vtkPointSet* input, vtkMultiProcessController* controller);

  /// Whether both keys were taken of the same input, unchanged between them. Never for an
  /// empty key or a dataset type whose cells Of does not know.
  bool Matches(const vtkGPUMeshInputKey& other) const;

  /// Collective (a MIN reduction): whether `matches` holds on every process.
  static bool EveryProcess(bool matches, vtkMultiProcessController* controller);

private:
  vtkWeakPointer<vtkPointSet> Input;
  /// False for a dataset type whose cells Of does not know, and for an empty key.
  bool Known = false;
  /// The parts read, by address and modification time (a count where a list's length matters).
  std::vector<std::pair<const void*, vtkMTimeType>> Parts;
  vtkIdType Points = 0;
  vtkIdType Cells = 0;
  vtkWeakPointer<vtkMultiProcessController> Controller;
  int Processes = 0;
};

#endif
