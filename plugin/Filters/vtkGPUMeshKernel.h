/**
 * @class   vtkGPUMeshKernel
 * @brief   runs a user-written loop body over the points or cells of a mesh, on the GPU
 *
 * GMlib v3's generated kernels (gpumesh::MeshKernel): the user writes only the body of a loop
 * over points or cells in OpenCL C; the filter generates the reads, the writes and the link
 * traversal, compiles the program (cached by its text: applying the same kernel again does not
 * compile it again) and runs it on the device chosen by Device.
 *
 * Contextual variables (REAL is float or double, as Precision; REALn its vectors):
 * - both domains: `int id` (the point's or cell's id); `result`, the value written to the
 *   array ResultArrayName: REAL, REAL2, REAL3 or REAL4 for 1 to 4 components, REAL[n] for 5 to
 *   9; 0 at the start (or the previous iterate, when it replaces an input); every chosen
 *   array of the domain's own entity as a plain variable named after it (characters outside
 *   [A-Za-z0-9_] become '_'): REAL, REALn, or REAL[n] beyond 4 components.
 * - Points: `REAL3 x` (the coordinates); `int cell_count`, `cell_id(k)` and `cells_<Array>(k)`
 *   (a chosen cell array at the k-th cell around the point); `int neighbour_count`,
 *   `neighbour_id(k)`, `REAL3 neighbours_x(k)` and `neighbours_<Array>(k)` (the points joined
 *   to it by a cell edge).
 * - Cells: `int point_count`, `point_id(k)`, `REAL3 points_x(k)` and `points_<Array>(k)` (the
 *   cell's points); `int kind` (compared with CELL_TRIANGLE, CELL_QUAD, CELL_POLYGON,
 *   CELL_TETRAHEDRON, CELL_HEXAHEDRON, CELL_WEDGE, CELL_PYRAMID, CELL_LINE, CELL_POLYLINE);
 *   `int neighbour_count`, `neighbour_id(k)` and `neighbours_<Array>(k)` (the cells across
 *   its sides: edges of 2D cells, faces of 3D cells; every other cell of a non-manifold side).
 * k runs from 0 to the count - 1: every link is read to its true length, whatever the degree.
 * Arrays of more than 4 components are read a component at a time: `cells_<Array>(k, c)`.
 * The result is written after the body: the body must not return.
 *
 * Parameters ("dt=0.01;alpha=2") are named scalars the kernel reads as `const REAL` variables:
 * only their names enter the generated program, their values are a kernel argument, so changing
 * a value reruns the compiled program (KernelCompiled 0) and can be animated from Python.
 *
 * ResultArrayName "Points" (Domain Points, 3 components) replaces the output's coordinates.
 * A result named like a chosen array of the domain's entity, or "Points", is fed back: with
 * Iterations above 1 each iteration reads the previous iterate wherever the kernel reads that
 * array (Jacobi-style, double buffered), e.g. a user-written smoothing. Reduction (Min, Max, Sum, L2,
 * L0, L1 or Linf) reduces the result (by magnitude beyond 1 component; NaN left out) into the field data array
 * `<ResultArrayName>_<Reduction>`. The field data also holds `GeneratedSource` (the program
 * that ran, also the GeneratedSource property), `KernelCompiled` (1 when this execution
 * compiled the program, 0 when it came from the cache) and `KernelCompileTimeMs`.
 *
 * Errors, each with an empty output: a compile error lists the line (of the Kernel text),
 * column and message of each error, then the build log; an input array the input lacks; a
 * result that does not match the array it replaces; a link the domain does not have; private
 * arrays over 16 KiB per work-item (gpumesh::MeshKernel::maximumPrivateBytes); an index out
 * of range (CheckIndices), naming its line and variable.
 *
 * The loop runs in slices of work-items; progress is reported and an abort honoured between
 * them. A work-item that never ends (an endless loop) cannot be stopped.
 *
 * Under MPI each process runs the kernel on its piece plus one layer of ghost cells, so every
 * owned point and cell sees all its links and the values equal the serial ones; entities the
 * input marks as ghosts, and points used only by them, get NaN (coordinates: unchanged).
 * Iterations above 1 with a fed-back result, and a Reduction of a point result (points on the
 * cuts belong to several pieces), are errors under MPI. The ghosted piece (the piece, its ghost
 * layer and their index maps, about as large as the piece) is kept between executions and
 * reused while no process's input has changed, so editing the Kernel or another property does
 * not rebuild it; it is released with the filter. The field data `GhostedPieceReused` says
 * whether this execution reused it (1) or built it (0).
 */
#ifndef vtkGPUMeshKernel_h
#define vtkGPUMeshKernel_h

#include "GPUMeshFiltersModule.h" // for export macro
#include "vtkGPUMeshPieceFilter.h"

#include <memory> // for std::unique_ptr
#include <string> // for members
#include <vector> // for members

class GPUMESHFILTERS_EXPORT vtkGPUMeshKernel : public vtkGPUMeshPieceFilter
{
public:
  static vtkGPUMeshKernel* New();
  vtkTypeMacro(vtkGPUMeshKernel, vtkGPUMeshPieceFilter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  enum Domains
  {
    POINTS = 0,
    CELLS = 1
  };
  enum Reductions
  {
    NONE = 0,
    MIN = 1,
    MAX = 2,
    SUM = 3,
    L2 = 4,
    L0 = 5,  ///< the number of values neither 0 nor NaN
    L1 = 6,  ///< the sum of magnitudes
    LINF = 7 ///< the largest magnitude
  };
  static const char* GetDomainName(int domain);
  static const char* GetReductionName(int reduction);

  ///@{
  /// What the loop runs over (POINTS by default).
  vtkSetMacro(Domain, int);
  vtkGetMacro(Domain, int);
  ///@}

  ///@{
  /// The loop's body in OpenCL C (see the class description for its variables). A loop that
  /// never ends cannot be stopped once launched (OpenCL cannot cancel a launch): the abort is
  /// honoured only between slices of MeshKernel::defaultSliceSize work-items.
  vtkSetStringMacro(Kernel);
  vtkGetStringMacro(Kernel);
  ///@}

  ///@{
  /// Named scalars, "name=value;name=value" (';' or line breaks between entries; empty by
  /// default), read in the Kernel as `const REAL name`. Names are C identifiers unlike the
  /// Kernel's own names (contextual variables, input arrays, OpenCL C keywords and types, names
  /// of the generated program), each once; values finite numbers. A bad entry is an error
  /// naming it. A new value reuses the compiled program; a new set of names generates another.
  vtkSetStringMacro(Parameters);
  vtkGetStringMacro(Parameters);
  ///@}

  ///@{
  /// The array the kernel writes (default "Result"); "Points" means the coordinates.
  vtkSetStringMacro(ResultArrayName);
  vtkGetStringMacro(ResultArrayName);
  ///@}

  ///@{
  /// Components of the result, 1 to 9 (default 1).
  vtkSetMacro(ResultComponents, int);
  vtkGetMacro(ResultComponents, int);
  ///@}

  ///@{
  /// The point and cell arrays the kernel reads, by name.
  void AddInputArray(const char* name);
  void ClearInputArrays();
  int GetNumberOfInputArrays() const { return static_cast<int>(this->InputArrays.size()); }
  const char* GetInputArray(int i) const { return this->InputArrays.at(i).c_str(); }
  ///@}

  ///@{
  /// How many times the kernel runs (default 1).
  vtkSetMacro(Iterations, int);
  vtkGetMacro(Iterations, int);
  ///@}

  ///@{
  /// Whether the link indices k, the component indices of wide arrays and result[c] are
  /// checked (on by default): an index out of range is clamped and the filter fails naming the
  /// line and the variable, instead of reading or writing outside the buffers, which can crash
  /// the server. Off saves the comparisons (see docs/filters.md for their cost).
  vtkSetMacro(CheckIndices, bool);
  vtkGetMacro(CheckIndices, bool);
  vtkBooleanMacro(CheckIndices, bool);
  ///@}

  ///@{
  /// Reduction of the result into the field data (NONE by default).
  vtkSetMacro(Reduction, int);
  vtkGetMacro(Reduction, int);
  ///@}

  /// The program generated at the last execution (empty before).
  const char* GetGeneratedSource() const { return this->GeneratedSource.c_str(); }

protected:
  vtkGPUMeshKernel();
  ~vtkGPUMeshKernel() override;

  /// The properties, then the definition of the kernel from the input's arrays (the generated
  /// source).
  void CheckInput(vtkInformationVector** inputVector, vtkPointSet* input) override;
  /// Compiles (or finds) the program and runs it on `mesh`: the result array, or coordinates.
  void ComputeArrays(gpumesh::DeviceRun& run, const vtkGPUMeshPiece& mesh, const std::array<double, 3>* origin,
    vtkPointSet* result) override;
  /// The reduction of the result (of the owned cells under MPI) and the field data.
  void FinishOutput(gpumesh::DeviceRun& run, vtkPointSet* output) override;

  int Domain = POINTS;
  char* Kernel = nullptr;
  char* ResultArrayName = nullptr;
  char* Parameters = nullptr;
  int ResultComponents = 1;
  std::vector<std::string> InputArrays;
  int Iterations = 1;
  int Reduction = NONE;
  bool CheckIndices = true;
  std::string GeneratedSource;

private:
  /// What one execution carries from its checks to its report (vtkGPUMeshKernel.cxx).
  struct Execution;
  std::unique_ptr<Execution> Current;

  vtkGPUMeshKernel(const vtkGPUMeshKernel&) = delete;
  void operator=(const vtkGPUMeshKernel&) = delete;
};

#endif
