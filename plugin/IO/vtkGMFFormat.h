// What the GMF format of libMeshb (.mesh/.meshb meshes, .sol/.solb solutions) is, as far as
// vtkGMFReader and vtkGMFWriter need it: keyword codes and names, the element kinds VTK has and
// their vertex order, the sizes of solution fields, and what each format version stores in 32
// or 64 bits. Learned from libMeshb's documentation and keyword table; no libMeshb code.
//
// Layout of a binary file: a 32-bit "cod" word (1 when written in this machine's byte order,
// 1 byte-swapped otherwise), the 32-bit version, then keywords. Each keyword is its 32-bit
// code, the absolute byte position of the next keyword (32 bits up to version 2, 64 bits
// from version 3; 0 after the last one), the number of lines (32 bits up to version 3, 64 bits
// in version 4) for keywords that have one, the solution header (32-bit number of fields and
// 32-bit field types) for solution keywords, then the lines. Reals are 32 bits in version 1
// and 64 bits otherwise; integers (vertex indices and references) are 64 bits in version 4
// only. The Dimension value is always 32 bits. A text file holds the same keywords by name,
// separated by white space, '#' starting a comment.
#ifndef vtkGMFFormat_h
#define vtkGMFFormat_h

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gmf
{
/// A file that does not follow the format; the message names the keyword and where it is.
class FormatError : public std::runtime_error
{
public:
  using std::runtime_error::runtime_error;
};

/// The keyword codes of libMeshb that the reader and writer use.
enum Keyword : int
{
  MeshVersionFormatted = 1,
  Dimension = 3,
  Vertices = 4,
  Edges = 5,
  Triangles = 6,
  Quadrilaterals = 7,
  Tetrahedra = 8,
  Prisms = 9,
  Hexahedra = 10,
  Corners = 13,
  Ridges = 14,
  SolAtPyramids = 26,
  Pyramids = 49,
  End = 54,
  SolAtVertices = 62,
  SolAtEdges = 63,
  SolAtTriangles = 64,
  SolAtQuadrilaterals = 65,
  SolAtTetrahedra = 66,
  SolAtPrisms = 67,
  SolAtHexahedra = 68
};

/// The name of a keyword in text files ("Triangles"), or "keyword <code>" for one not listed.
std::string KeywordName(int keyword);
/// The code of a keyword name of the list above, or 0.
int KeywordCode(const char* name, std::size_t length);

/// Element kinds with a VTK cell type, in the order the reader emits them.
struct ElementKind
{
  Keyword keyword;         // Triangles
  Keyword solutionKeyword; // SolAtTriangles
  int vertices;            // vertex indices per element (followed by a reference)
  int vtkCellType;         // VTK_TRIANGLE
  // VTK's local vertex i is GMF's local vertex gmfVertexOfVtk[i] (and, each map being its own
  // inverse, the other way round).
  std::array<int, 8> gmfVertexOfVtk;
};
constexpr int ElementKindCount = 7;
const ElementKind& ElementKindAt(int index);
/// The element kind of a VTK cell type, or nullptr.
const ElementKind* ElementKindOfCellType(int vtkCellType);

/// The values of one line of a keyword the reader and writer know: `reals` real numbers then
/// `integers` integers (Vertices: the coordinates and a reference; an element: its vertex
/// indices and a reference; Corners: a vertex index; Ridges: an edge index; a solution: the
/// reals of its fields). False for other keywords.
bool LineFormat(int keyword, int dimension, int solutionSize, int& reals, int& integers);
/// Whether the keyword is one of the SolAt keywords above.
bool IsSolutionKeyword(int keyword);

/// Solution field types of a SolAt keyword header.
enum SolutionType : int
{
  Scalar = 1,
  Vector = 2,
  SymmetricMatrix = 3,
  Matrix = 4
};
/// Reals per line of a field of this type in this dimension; 0 for an unknown type.
int SolutionTypeSize(int type, int dimension);
/// The field type whose size is this many components in this dimension (scalar first), or 0.
int SolutionTypeOfSize(int components, int dimension);

/// What one file version stores in 32 or 64 bits.
struct Layout
{
  int version = 0;
  int dimension = 0;
  int RealBytes() const { return this->version == 1 ? 4 : 8; }
  int IntegerBytes() const { return this->version >= 4 ? 8 : 4; }
  int PositionBytes() const { return this->version >= 3 ? 8 : 4; }
};
constexpr int FirstVersion = 1;
constexpr int LastVersion = 4;
}

#endif
