#include "vtkGMFFormat.h"

#include "vtkCellType.h"

#include <cstring>

namespace gmf
{
namespace
{
struct NamedKeyword
{
  int code;
  const char* name;
};

const NamedKeyword KnownKeywords[] = { { MeshVersionFormatted, "MeshVersionFormatted" },
  { Dimension, "Dimension" }, { Vertices, "Vertices" }, { Edges, "Edges" },
  { Triangles, "Triangles" }, { Quadrilaterals, "Quadrilaterals" }, { Tetrahedra, "Tetrahedra" },
  { Prisms, "Prisms" }, { Hexahedra, "Hexahedra" }, { Corners, "Corners" }, { Ridges, "Ridges" },
  { SolAtPyramids, "SolAtPyramids" }, { Pyramids, "Pyramids" }, { End, "End" },
  { SolAtVertices, "SolAtVertices" }, { SolAtEdges, "SolAtEdges" },
  { SolAtTriangles, "SolAtTriangles" }, { SolAtQuadrilaterals, "SolAtQuadrilaterals" },
  { SolAtTetrahedra, "SolAtTetrahedra" }, { SolAtPrisms, "SolAtPrisms" },
  { SolAtHexahedra, "SolAtHexahedra" } };

// Vertex orders. Hexahedra and pyramids number their vertices as VTK does (GMlib's face
// tables: the bottom quad 0-1-2-3 turns counter-clockwise seen from the top face or the
// apex). A GMF prism's bottom triangle 0-1-2 also turns counter-clockwise seen from its top
// triangle 3-4-5, where VTK's wedge turns clockwise (vtkCellValidator rejects the other
// order): swapping vertices 1 and 2, and 4 and 5, maps one onto the other.
const ElementKind Kinds[ElementKindCount] = {
  { Edges, SolAtEdges, 2, VTK_LINE, { 0, 1 } },
  { Triangles, SolAtTriangles, 3, VTK_TRIANGLE, { 0, 1, 2 } },
  { Quadrilaterals, SolAtQuadrilaterals, 4, VTK_QUAD, { 0, 1, 2, 3 } },
  { Tetrahedra, SolAtTetrahedra, 4, VTK_TETRA, { 0, 1, 2, 3 } },
  { Pyramids, SolAtPyramids, 5, VTK_PYRAMID, { 0, 1, 2, 3, 4 } },
  { Prisms, SolAtPrisms, 6, VTK_WEDGE, { 0, 2, 1, 3, 5, 4 } },
  { Hexahedra, SolAtHexahedra, 8, VTK_HEXAHEDRON, { 0, 1, 2, 3, 4, 5, 6, 7 } },
};
}

std::string KeywordName(int keyword)
{
  for (const NamedKeyword& known : KnownKeywords)
  {
    if (known.code == keyword)
    {
      return known.name;
    }
  }
  return "keyword " + std::to_string(keyword);
}

int KeywordCode(const char* name, std::size_t length)
{
  for (const NamedKeyword& known : KnownKeywords)
  {
    if (std::strlen(known.name) == length && std::memcmp(known.name, name, length) == 0)
    {
      return known.code;
    }
  }
  return 0;
}

const ElementKind& ElementKindAt(int index)
{
  return Kinds[index];
}

const ElementKind* ElementKindOfCellType(int vtkCellType)
{
  for (const ElementKind& kind : Kinds)
  {
    if (kind.vtkCellType == vtkCellType)
    {
      return &kind;
    }
  }
  return nullptr;
}

bool IsSolutionKeyword(int keyword)
{
  if (keyword == SolAtVertices)
  {
    return true;
  }
  for (const ElementKind& kind : Kinds)
  {
    if (kind.solutionKeyword == keyword)
    {
      return true;
    }
  }
  return false;
}

bool LineFormat(int keyword, int dimension, int solutionSize, int& reals, int& integers)
{
  reals = 0;
  integers = 0;
  if (keyword == Vertices)
  {
    reals = dimension;
    integers = 1;
    return true;
  }
  if (keyword == Corners || keyword == Ridges)
  {
    integers = 1;
    return true;
  }
  if (IsSolutionKeyword(keyword))
  {
    reals = solutionSize;
    return true;
  }
  for (const ElementKind& kind : Kinds)
  {
    if (kind.keyword == keyword)
    {
      integers = kind.vertices + 1;
      return true;
    }
  }
  return false;
}

int SolutionTypeSize(int type, int dimension)
{
  switch (type)
  {
    case Scalar:
      return 1;
    case Vector:
      return dimension;
    case SymmetricMatrix:
      return dimension * (dimension + 1) / 2;
    case Matrix:
      return dimension * dimension;
    default:
      return 0;
  }
}

int SolutionTypeOfSize(int components, int dimension)
{
  for (int type = Scalar; type <= Matrix; ++type)
  {
    if (SolutionTypeSize(type, dimension) == components)
    {
      return type;
    }
  }
  return 0;
}
}
