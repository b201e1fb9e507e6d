/**
 * @class   vtkGMFWriter
 * @brief   writes a vtkUnstructuredGrid or vtkPolyData as a GMF mesh (.mesh, .meshb) and its
 *          point and cell arrays as a GMF solution (.sol, .solb)
 *
 * Text or binary by the extension of FileName (.mesh or .meshb). What vtkGMFReader reads is
 * written back: points as Vertices (the point array `Ref`, when present, as their references),
 * line, triangle, quad (and pixel), tetrahedron, pyramid, wedge (as a prism, reordered) and
 * hexahedron (and voxel) cells as Edges, Triangles, Quadrilaterals, Tetrahedra, Pyramids,
 * Prisms and Hexahedra with the cell array `Ref` as their references (0 without one), vertex
 * cells as Corners, and line cells whose `GMFKeyword` is 14 as Ridges. The cells of each kind
 * keep their order; the kinds follow GMF's grouping (the reader's order). Any other cell type,
 * a cell whose number of points does not fit its type (a hexahedron of 3 points), a point id
 * outside the points (-1 included), and an array with fewer tuples than points or cells are an
 * error naming the cell or the array, found before anything is written.
 *
 * Solution (WriteSolution, default on): the other numeric point arrays become the fields of
 * SolAtVertices, the other numeric cell arrays fields of SolAt<kind> for each kind where they
 * have a value that is not NaN, in `<name>.sol` or `<name>.solb` beside the mesh. An array
 * must have 1 (scalar), d (vector), d(d+1)/2 (symmetric matrix) or d*d (matrix) components in
 * dimension d. GMF fields have no names: a reader names them after their keyword. When no
 * solution is written (WriteSolution off, or no such array), the `<name>.sol`/`<name>.solb`
 * an earlier save left beside the mesh is removed: readers would take it for the new mesh's.
 *
 * The mesh and solution are written under temporary names beside them and renamed when both
 * are complete (keeping the permissions of the files they replace): an error leaves the files
 * that were there.
 *
 * Version 0 (default) picks the smallest version that holds the data exactly: 1 when the points
 * and every written array are float, else 2; 3 past 2 GiB of binary file; 4 when an index or a
 * reference needs 64 bits. Dimension 3 (default) writes x, y, z; Dimension 2 writes x, y and
 * requires z = 0.
 */
#ifndef vtkGMFWriter_h
#define vtkGMFWriter_h

#include "GPUMeshIOModule.h" // for export macro
#include "vtkWriter.h"

#include <string> // for SolutionFileNameOf

class vtkPointSet;

class GPUMESHIO_EXPORT vtkGMFWriter : public vtkWriter
{
public:
  static vtkGMFWriter* New();
  vtkTypeMacro(vtkGMFWriter, vtkWriter);
  void PrintSelf(ostream& os, vtkIndent indent) override;

  ///@{
  /// The mesh file: .mesh (text) or .meshb (binary).
  vtkSetStringMacro(FileName);
  vtkGetStringMacro(FileName);
  ///@}

  ///@{
  /// GMF version 1 to 4, or 0 (default) for the smallest that holds the data exactly.
  vtkSetClampMacro(Version, int, 0, 4);
  vtkGetMacro(Version, int);
  ///@}

  ///@{
  /// 3 (default) or 2 (x and y only; every z must be 0).
  vtkSetClampMacro(Dimension, int, 2, 3);
  vtkGetMacro(Dimension, int);
  ///@}

  ///@{
  /// Write the point and cell arrays to a solution file beside the mesh (default on).
  vtkSetMacro(WriteSolution, bool);
  vtkGetMacro(WriteSolution, bool);
  vtkBooleanMacro(WriteSolution, bool);
  ///@}

  /// The solution file written beside a mesh file (.sol for .mesh, .solb for .meshb).
  static std::string SolutionFileNameOf(const std::string& meshFileName);

protected:
  vtkGMFWriter();
  ~vtkGMFWriter() override;

  void WriteData() override;
  int FillInputPortInformation(int port, vtkInformation* info) override;

  char* FileName = nullptr;
  int Version = 0;
  int Dimension = 3;
  bool WriteSolution = true;

private:
  vtkGMFWriter(const vtkGMFWriter&) = delete;
  void operator=(const vtkGMFWriter&) = delete;
};

#endif
