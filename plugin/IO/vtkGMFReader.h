/**
 * @class   vtkGMFReader
 * @brief   reads GMF meshes (.mesh text, .meshb binary) and their solutions (.sol, .solb)
 *
 * GMF is the format of libMeshb, read and written by GMlib, Mmg, ParMmg and Omega_h. Every
 * version is read (1: 32-bit reals and integers; 2: 64-bit reals; 3: as 2 with 64-bit file
 * positions; 4: 64-bit integers too), in either byte order.
 *
 * Output: a vtkUnstructuredGrid with the points of Vertices (float for version 1, double
 * otherwise; z = 0 in dimension 2) and their references as the point array `Ref`, then the
 * cells of Edges, Triangles, Quadrilaterals, Tetrahedra, Pyramids, Prisms and Hexahedra in this
 * order (each in file order; a prism's vertices are reordered to VTK's wedge), then Corners as
 * vertex cells and Ridges as line cells (copies of the edges they name). The cell array `Ref`
 * holds each element's reference (0 for corners and ridges, which have none); when the file has
 * Ridges, the cell array `GMFKeyword` holds the GMF keyword code of each cell, so that
 * vtkGMFWriter writes ridges back as ridges. Keywords VTK has no cells for are listed in the
 * field data string array `SkippedKeywords`.
 *
 * Solutions: SolutionFileName, or else `<name>.solb` or `<name>.sol` beside the mesh (the one
 * of the mesh's encoding first; regular files only: a FIFO or directory of that name is not
 * read, with a warning). Each field of SolAtVertices becomes a point array, each field
 * of a SolAt<elements> keyword a cell array (NaN on the other cells), named after its keyword
 * (`SolAtVertices`; `SolAtVertices_1`, `SolAtVertices_2`, ... when it has several fields), with
 * 1 (scalar), d (vector), d(d+1)/2 (symmetric matrix, in the file's order) or d*d (matrix)
 * components in dimension d.
 *
 * The solution's arrays may take 64 bytes per byte of the mesh and solution files (and at
 * least 64 MiB): a few fields at one edge of a mesh of many corners would otherwise ask for
 * gigabytes (each field of a SolAt<element> keyword is an array over every cell).
 *
 * Bad files (truncated data, an unknown version, a second Dimension, a keyword whose lines run
 * into the next keyword, an element referring to a missing vertex, an integer beyond 32 bits in
 * versions 1 to 3, a solution whose line count differs from the mesh's or whose arrays would
 * pass the bound above) are an error naming the keyword and the position (byte offset, or line
 * of a text file), as is memory that cannot be allocated; the output is then empty. A UTF-8
 * byte order mark at the start of a text file is skipped. Every regular .meshb file whose first
 * word is GMF's is claimed (CanReadFile), so that an unknown version is named when reading.
 */
#ifndef vtkGMFReader_h
#define vtkGMFReader_h

#include "GPUMeshIOModule.h" // for export macro
#include "vtkUnstructuredGridAlgorithm.h"

#include <string>

class GPUMESHIO_EXPORT vtkGMFReader : public vtkUnstructuredGridAlgorithm
{
public:
  static vtkGMFReader* New();
  vtkTypeMacro(vtkGMFReader, vtkUnstructuredGridAlgorithm);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The mesh file: .mesh (text) or .meshb (binary).
  vtkSetStringMacro(FileName);
  vtkGetStringMacro(FileName);
  ///@}

  ///@{
  /// The solution file (.sol or .solb); empty (default): the one beside the mesh, if any.
  vtkSetStringMacro(SolutionFileName);
  vtkGetStringMacro(SolutionFileName);
  ///@}

  /// 1 when the name ends in .mesh or .meshb, the file is a regular file, and a .meshb starts
  /// with GMF's first word (1 in either byte order; any version).
  int CanReadFile(const char* name);

  /// The solution file that a read of this mesh file would use ("" when none): the first
  /// regular file of `<name>.solb` and `<name>.sol` (`.sol` first beside a .mesh).
  static std::string FindSolutionFile(const std::string& meshFileName);

protected:
  vtkGMFReader();
  ~vtkGMFReader() override;

  int RequestData(vtkInformation* request, vtkInformationVector** inputVector,
    vtkInformationVector* outputVector) override;

  char* FileName = nullptr;
  char* SolutionFileName = nullptr;

private:
  vtkGMFReader(const vtkGMFReader&) = delete;
  void operator=(const vtkGMFReader&) = delete;
};

#endif
