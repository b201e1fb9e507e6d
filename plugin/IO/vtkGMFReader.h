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
 * of the mesh's encoding first). Each field of SolAtVertices becomes a point array, each field
 * of a SolAt<elements> keyword a cell array (NaN on the other cells), named after its keyword
 * (`SolAtVertices`; `SolAtVertices_1`, `SolAtVertices_2`, ... when it has several fields), with
 * 1 (scalar), d (vector), d(d+1)/2 (symmetric matrix, in the file's order) or d*d (matrix)
 * components in dimension d.
 *
 * Bad files (truncated data, an unknown version, an element referring to a missing vertex, a
 * solution whose line count differs from the mesh's) are an error naming the keyword and the
 * position (byte offset, or line of a text file); the output is then empty.
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

  /// 1 when the name ends in .mesh or .meshb and the file starts like a GMF file.
  int CanReadFile(const char* name);

  /// The solution file that a read of this mesh file would use ("" when none).
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
