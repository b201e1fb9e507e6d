// Kernels the user writes (GMlib v3's generated kernels, seed 001 sections 2.3-2.5): the body of
// a loop over the points or the cells of a mesh, in OpenCL C, with contextual variables already
// filled in (the point's coordinates, a cell's points, the cells around a point, the neighbours,
// the chosen arrays read at any of them). The library generates the reads, the writes and the
// link traversal: kernels/algorithms/mesh_kernel_points.cl and kernels/algorithms/mesh_kernel_cells.cl are the
// templates; the generator only writes #define lines and splices the user's text in.
#pragma once
#include "gpumesh/mesh/DeviceMesh.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace gpumesh
{

/// What a kernel loops over, and what an array belongs to.
enum class MeshEntity
{
  Points,
  Cells
};
/// "point" or "cell".
const char* meshEntityName(MeshEntity entity);

/// An array the kernel reads, known in the text by kernelIdentifier(name).
struct KernelArray
{
  std::string name;
  MeshEntity entity = MeshEntity::Points;
  int components = 1;
};

/// A named scalar the kernel reads as a `const REAL` variable of that name. Only the names enter
/// the generated program; the values travel in one REAL buffer argument, so a new value reuses
/// the compiled program.
struct KernelParameter
{
  std::string name;
  double value = 0.0;
};

/// Parses "name=value;name=value" (';' or a line break between entries; blanks around names,
/// values and entries ignored, empty entries skipped). Throws gpumesh::Error naming the entry
/// for: an entry without '=', a name that is not a C identifier, a name given twice, a value
/// that is not a number or not finite. Whether a name clashes with the kernel's own names is
/// checked by generateMeshKernel.
std::vector<KernelParameter> parseKernelParameters(const std::string& text);

/// What the user writes and chooses.
struct MeshKernelDefinition
{
  /// The result named so is the points' coordinates (Points domain, 3 components).
  static constexpr const char* coordinatesName = "Points";

  MeshEntity domain = MeshEntity::Points;
  std::vector<KernelArray> inputs;
  /// A new array; or an input of the domain's entity with as many components, or
  /// coordinatesName: then every iteration reads the previous iterate where the text reads that
  /// array (Jacobi-style, double buffered) and `result` starts as its previous value.
  std::string resultName = "Result";
  int resultComponents = 1;
  /// The loop's body (OpenCL C). Its line 1 is line 1 in compiler messages.
  std::string body;
  /// Index checks (on by default): the link index k of every accessor, the component index of
  /// wide arrays (cells_X(k, c), X[c] beyond 4 components) and of result[c] are checked; an
  /// index out of range is clamped and the first one is reported after the launch, instead
  /// of reading or writing outside the buffers (which can crash the process).
  bool checkIndices = true;
  /// Named scalars (parseKernelParameters), `const REAL <name>` in the text. Changing a value
  /// keeps the generated program (and so its compiled binary); changing the names changes it.
  std::vector<KernelParameter> parameters;
};

/// An array the user's text declares in private memory (one per work-item).
struct PrivateArray
{
  std::string name;
  int line = 0; ///< in the user's text
  std::uint64_t singleBytes = 0; ///< its size when REAL is float
  std::uint64_t doubleBytes = 0; ///< and when REAL is double
};

/// Text written into the user's text (the index checks around a subscript): where, so that
/// compile errors give the columns of the text as the user wrote it.
struct SourceInsertion
{
  int line = 0;   ///< in the user's text
  int column = 0; ///< 1-based, in the line as compiled
  int length = 0;
};

/// The program for a definition and what it needs: derived from the text alone.
struct GeneratedMeshKernel
{
  enum class Feedback
  {
    None,        ///< the result is a new array
    Coordinates, ///< the result replaces the coordinates between iterations
    Input        ///< the result replaces inputs[feedbackInput] between iterations
  };
  /// The whole program: kernels/runtime/common.cl (with the device toolkit when usesToolkit),
  /// the generated #define lines, kernels/mesh_kernel_access.cl, the template with the user's text after `#line 1 "Kernel"`.
  std::string source;
  /// Where the user's text lies in `source`: its first line (1-based) and its line count, for
  /// compilers that report physical lines (NVIDIA's ignores #line).
  int userFirstLine = 0;
  int userLineCount = 0;
  bool usesCells = false;      ///< Points domain: the cells around each point
  bool usesNeighbours = false; ///< the points joined by an edge / the cells across the sides
  /// The text calls the device toolkit (kernels/algorithms/mesh_toolkit.cl: geometry and quality
  /// functions), which then comes before the generated lines.
  bool usesToolkit = false;
  Feedback feedback = Feedback::None;
  std::size_t feedbackInput = 0;
  /// The private arrays the text declares whose size the generator could evaluate (integer
  /// literals, + - * / % << >>, parentheses, the text's own #define constants).
  std::vector<PrivateArray> privateArrays;
  /// What each checked index is, by the number the program records (0 unused):
  /// "neighbours_x(k)", "result[c]", ...
  std::vector<std::string> checkedNames;
  std::vector<SourceInsertion> insertions;
};

/// The C identifier of an array in the kernel text: its name with each character outside
/// [A-Za-z0-9_] replaced by '_', and '_' before a leading digit ("Cell Quality" ->
/// Cell_Quality).
std::string kernelIdentifier(const std::string& arrayName);

/// Generates the program. Throws gpumesh::Error naming the problem for: an empty body; result
/// components outside 1..9; an array without a name, two arrays with one identifier, or one
/// whose identifier is a contextual variable; a result named like an input of the other entity
/// or of other components, or like the coordinates outside the Points domain or without 3
/// components (type mismatches); a variable of a link the domain does not have (cell_count in
/// the Cells domain, point_id in the Points domain, ...); an accessor (cells_X, points_X,
/// neighbours_X) of an array not chosen or of the wrong entity; a parameter whose name is not
/// a C identifier, is given twice, is a contextual variable, an input array's identifier, a
/// keyword or type of OpenCL C, a name the generated program defines or calls, or starts with
/// mk_ / MK_ (the generator's own), or whose value is not finite.
GeneratedMeshKernel generateMeshKernel(const MeshKernelDefinition& definition);

/// Called between slices of work-items (MeshKernel::sliceSize) and after each iteration:
/// `iteration` (counted from 1) of `iterations` is `done` (0 to 1) complete. Returning false
/// stops there (an abort).
using MeshKernelObserver = std::function<bool(int iteration, int iterations, double done)>;

/// A generated kernel compiled and bound to one mesh, its links built on the device.
class MeshKernel
{
public:
  /// Private arrays a work-item may declare, in bytes (16 KiB): more than GPUs keep per thread
  /// without spilling, and what CPU runtimes' work-item stacks survive. Checked before
  /// compiling against the arrays the text declares, and after against the driver's
  /// CL_KERNEL_PRIVATE_MEM_SIZE (PoCL reports a fixed 1024 bytes whatever the arrays: there
  /// the declared arrays are the only check).
  static constexpr std::uint64_t maximumPrivateBytes = 16 * 1024;
  /// Work-items per launch (4M): a longer loop runs in slices of this many, between which the
  /// observer is called and an abort honoured. GPUMESH_KERNEL_SLICE, when set to a positive
  /// count, replaces it (tests); setSliceSize too. Rounded up to whole work-groups.
  static constexpr std::size_t defaultSliceSize = std::size_t(1) << 22;
  void setSliceSize(std::size_t workItems);
  std::size_t sliceSize() const;

  /// Generates the program, compiles it through the device's cache of generated programs (the
  /// same text is compiled once per device and process; for the Cells domain once per cell
  /// kind of the mesh, fixed-size kinds built with cellKindOptions), then builds the links the
  /// text uses:
  /// the cells around each point (vertexCells), the points joined by an edge
  /// (vertexNeighbors), the cells across each cell's sides (cellNeighborLists). A compile error
  /// is a gpumesh::Error listing "line L, column C: error: message" for each error, the line
  /// counted in the user's text, followed by the build log. Private arrays over
  /// maximumPrivateBytes are an error naming the largest, before compiling (declared) or after
  /// (the driver's count).
  MeshKernel(DeviceRun& run, const DeviceMesh& mesh, const MeshKernelDefinition& definition);
  /// The same with the program already generated: `generated` is generateMeshKernel(definition),
  /// made by a caller that checks the text before uploading anything, so that a run generates
  /// the program once.
  MeshKernel(
    DeviceRun& run, const DeviceMesh& mesh, const MeshKernelDefinition& definition, GeneratedMeshKernel generated);
  ~MeshKernel();
  MeshKernel(const MeshKernel&) = delete;
  MeshKernel& operator=(const MeshKernel&) = delete;

  const GeneratedMeshKernel& generated() const;
  /// Whether constructing this kernel compiled a program (false: all came from the cache).
  bool compiled() const;
  /// Wall milliseconds spent compiling (0 when the program came from the cache).
  double compileMilliseconds() const;

  /// Runs `iterations` (1 or more) times. `inputs`: one buffer per definition input, in order,
  /// holding components x (point or cell count) REALs of the run's precision. Returns the
  /// result, resultComponents REALs per point or cell (cells the loop does not visit, such as
  /// vertices left out of the mesh, hold NaN); coordinates are relative to mesh.origin(), like
  /// mesh.points(). Returns early when `observer` says so. With checkIndices, an index out of
  /// range is an error naming the line of the user's text, the variable and the index.
  RealBuffer execute(DeviceRun& run, const std::vector<const RealBuffer*>& inputs, int iterations,
    const MeshKernelObserver& observer = {});

private:
  struct Internals;
  std::unique_ptr<Internals> State;
};

} // namespace gpumesh
