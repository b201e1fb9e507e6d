#include "vtkGMFReader.h"
#include "vtkGPUMeshOutputArrays.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDoubleArray.h"
#include "vtkFieldData.h"
#include "vtkFloatArray.h"
#include "vtkIdTypeArray.h"
#include "vtkInformation.h"
#include "vtkInformationVector.h"
#include "vtkIntArray.h"
#include "vtkNew.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkSmartPointer.h"
#include "vtkStringArray.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGMFInputFile.h"

#include "gpumesh/runtime/HostMemory.h"

#include <vtksys/FStream.hxx>
#include <vtksys/SystemTools.hxx>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cmath>
#include <limits>
#include <memory>
#include <new>
#include <vector>

#include <sys/stat.h>

vtkStandardNewMacro(vtkGMFReader);

namespace
{
// The solution arrays may take this many bytes per byte of the mesh and solution files, and at
// least SolutionFloorBytes: a SolAt<element> field is a cell array over every cell (NaN on the
// cells of other kinds), so that a few fields at one edge of a mesh of many corners would
// otherwise ask for gigabytes from kilobytes of files.
constexpr double SolutionBytesPerFileByte = 64;
constexpr double SolutionFloorBytes = 64.0 * (1 << 20);

// Gives the array room for `tuples` tuples in memory backed by transparent huge pages where the
// kernel offers them: on large meshes the first touch of 4 KiB pages (one fault each) otherwise
// costs more than decoding the file. Memory that cannot be had is an error naming `what` (the
// file, position and keyword the array is for).
void AllocateLarge(vtkDataArray* array, vtkIdType tuples, const std::string& what)
{
  const std::size_t values = static_cast<std::size_t>(tuples) * array->GetNumberOfComponents();
  const std::size_t bytes = values * array->GetDataTypeSize();
  void* memory = gpumesh::allocateHostMemory(bytes);
  if (!memory)
  {
    throw gmf::FormatError(what + ": cannot allocate " + std::to_string(bytes) + " bytes for " +
      (array->GetName() ? std::string("the array ") + array->GetName() : std::string("its cells")) +
      " (out of memory)");
  }
  vtkGPUMeshOutputArrays::AdoptHostMemory(array, memory, static_cast<vtkIdType>(values));
}

// "file.mesh, line 3: Vertices": what an allocation or an error is for.
std::string Naming(const gmf::InputFile& file, const gmf::Section& section)
{
  return file.GetPath() + ", " + file.Position(section.keywordOffset) + ": " +
    gmf::KeywordName(section.keyword);
}

// References: 32-bit integers up to version 3, 64-bit in version 4.
vtkSmartPointer<vtkDataArray> NewReferences(
  const gmf::Layout& layout, vtkIdType count, const std::string& what)
{
  vtkSmartPointer<vtkDataArray> references;
  if (layout.IntegerBytes() == 8)
  {
    references = vtkSmartPointer<vtkTypeInt64Array>::New();
  }
  else
  {
    references = vtkSmartPointer<vtkIntArray>::New();
  }
  references->SetName("Ref");
  AllocateLarge(references, count, what);
  return references;
}

vtkSmartPointer<vtkDataArray> NewReals(const gmf::Layout& layout)
{
  if (layout.RealBytes() == 4)
  {
    return vtkSmartPointer<vtkFloatArray>::New();
  }
  return vtkSmartPointer<vtkDoubleArray>::New();
}

template <class Reference>
Reference* ReferencePointer(vtkDataArray* references)
{
  return static_cast<Reference*>(references->GetVoidPointer(0));
}

// Points and point references from Vertices.
template <class Coordinate, class Reference>
void ReadVertices(const gmf::InputFile& file, const gmf::Section& vertices, vtkDataArray* points,
  vtkDataArray* references)
{
  Coordinate* coordinates = static_cast<Coordinate*>(points->GetVoidPointer(0));
  Reference* reference = ReferencePointer<Reference>(references);
  const int dimension = vertices.reals; // as the lines were laid out when indexed
  if (dimension != 2 && dimension != 3)
  {
    throw gmf::FormatError(Naming(file, vertices) + ": " + std::to_string(dimension) +
      " coordinates per vertex (2 or 3)");
  }
  int column = 0;
  file.ReadLines(
    vertices, {},
    [&](double value) {
      *coordinates++ = static_cast<Coordinate>(value);
      if (++column == dimension)
      {
        column = 0;
        if (dimension == 2)
        {
          *coordinates++ = 0;
        }
      }
    },
    [&](std::int64_t value) { *reference++ = static_cast<Reference>(value); });
}

// Where each kind's cells are in the output, for solutions and ridges.
struct CellBlock
{
  vtkIdType first = 0;
  vtkIdType count = 0;
};

// The cell arrays being filled: 32-bit offsets and connectivity (vtkCellArray's compact
// storage, half the memory to allocate and fill) unless the connectivity needs 64 bits.
template <class Index>
struct CellsBeingBuilt
{
  Index* offsets;
  Index* connectivity;
  unsigned char* types;
  vtkIdType cell = 0;
  vtkIdType entry = 0;

  void Add(int cellType, const Index* points, int count)
  {
    this->offsets[this->cell] = static_cast<Index>(this->entry);
    this->types[this->cell] = static_cast<unsigned char>(cellType);
    for (int i = 0; i < count; ++i)
    {
      this->connectivity[this->entry++] = points[i];
    }
    ++this->cell;
  }
};

template <class Reference, class Index>
void ReadElements(const gmf::InputFile& file, const gmf::Section& section,
  const gmf::ElementKind& kind, vtkIdType pointCount, CellsBeingBuilt<Index>& cells,
  Reference* references)
{
  std::array<Index, 8> gmfVertices{};
  std::array<Index, 8> vtkVertices{};
  int column = 0;
  file.ReadLines(
    section, { kind.vertices, pointCount, "vertex", "Vertices" }, [](double) {},
    [&](std::int64_t value) {
      if (column < kind.vertices)
      {
        gmfVertices[column++] = static_cast<Index>(value - 1);
        return;
      }
      for (int i = 0; i < kind.vertices; ++i)
      {
        vtkVertices[i] = gmfVertices[kind.gmfVertexOfVtk[i]];
      }
      references[cells.cell] = static_cast<Reference>(value);
      cells.Add(kind.vtkCellType, vtkVertices.data(), kind.vertices);
      column = 0;
    });
}

// Corners (vertex cells) and Ridges (copies of the edges they name), without references.
template <class Reference, class Index>
void ReadCornersAndRidges(const gmf::InputFile& file, vtkIdType pointCount,
  const CellBlock& edges, CellsBeingBuilt<Index>& cells, Reference* references)
{
  if (const gmf::Section* corners = file.Find(gmf::Corners))
  {
    file.ReadLines(
      *corners, { 1, pointCount, "vertex", "Vertices" }, [](double) {},
      [&](std::int64_t value) {
        const Index point = static_cast<Index>(value - 1);
        references[cells.cell] = 0;
        cells.Add(VTK_VERTEX, &point, 1);
      });
  }
  if (const gmf::Section* ridges = file.Find(gmf::Ridges))
  {
    file.ReadLines(
      *ridges, { 1, edges.count, "edge", "Edges" }, [](double) {},
      [&](std::int64_t value) {
        const vtkIdType edge = edges.first + static_cast<vtkIdType>(value - 1);
        const Index* points = cells.connectivity + cells.offsets[edge];
        references[cells.cell] = 0;
        cells.Add(VTK_LINE, points, 2);
      });
  }
}

// Fields of one SolAt keyword: one array per field, `tuples` tuples, values of this keyword's
// lines stored from tuple `first` on, NaN elsewhere.
template <class Real>
void ReadSolutionKeyword(const gmf::InputFile& file, const gmf::Section& section,
  vtkIdType tuples, vtkIdType first, vtkFieldData* into)
{
  const gmf::Layout& layout = file.GetLayout();
  std::vector<vtkSmartPointer<vtkDataArray>> arrays;
  std::vector<std::pair<Real*, int>> columns; // (first value of its array, components)
  const std::string keyword = gmf::KeywordName(section.keyword);
  const std::string naming = Naming(file, section);
  for (std::size_t f = 0; f < section.solutionTypes.size(); ++f)
  {
    const int components = gmf::SolutionTypeSize(section.solutionTypes[f], layout.dimension);
    vtkSmartPointer<vtkDataArray> array = NewReals(layout);
    array->SetName(section.solutionTypes.size() == 1
        ? keyword.c_str()
        : (keyword + "_" + std::to_string(f + 1)).c_str());
    array->SetNumberOfComponents(components);
    AllocateLarge(array, tuples, naming);
    if (section.lines != tuples)
    {
      array->Fill(std::numeric_limits<double>::quiet_NaN());
    }
    Real* values = static_cast<Real*>(array->GetVoidPointer(0)) + first * components;
    for (int c = 0; c < components; ++c)
    {
      columns.emplace_back(values + c, components);
    }
    arrays.push_back(array);
  }
  if (static_cast<int>(columns.size()) != section.reals)
  {
    throw gmf::FormatError(naming + ": " + std::to_string(section.reals) +
      " reals per line, its fields have " + std::to_string(columns.size()));
  }
  vtkIdType line = 0;
  std::size_t column = 0;
  file.ReadLines(
    section, {},
    [&](double value) {
      const auto& target = columns[column];
      target.first[line * target.second] = static_cast<Real>(value);
      if (++column == columns.size())
      {
        column = 0;
        ++line;
      }
    },
    [](std::int64_t) {});
  for (auto& array : arrays)
  {
    into->AddArray(array);
  }
}

void ReadSolutionKeyword(const gmf::InputFile& file, const gmf::Section& section,
  vtkIdType tuples, vtkIdType first, vtkFieldData* into)
{
  if (file.GetLayout().RealBytes() == 4)
  {
    ReadSolutionKeyword<float>(file, section, tuples, first, into);
  }
  else
  {
    ReadSolutionKeyword<double>(file, section, tuples, first, into);
  }
}

// Whether the solution file fits the mesh: its dimension, the line count of each keyword, and
// the memory of its arrays (bounded by what the files hold). Checked before any array of the
// mesh is allocated.
void CheckSolution(const gmf::InputFile& file, const gmf::InputFile& mesh, vtkIdType pointCount,
  const std::array<CellBlock, gmf::ElementKindCount>& blocks, vtkIdType cellCount)
{
  const std::string& path = file.GetPath();
  const int meshDimension = mesh.GetLayout().dimension;
  if (file.GetLayout().dimension != meshDimension)
  {
    throw gmf::FormatError(path + ", " + file.Position(file.GetDimensionOffset()) +
      ": Dimension " + std::to_string(file.GetLayout().dimension) + " differs from the mesh's " +
      std::to_string(meshDimension));
  }
  const double fileBytes = static_cast<double>(file.GetSize()) + mesh.GetSize();
  const double allowed = std::max(SolutionFloorBytes, SolutionBytesPerFileByte * fileBytes);
  double total = 0;
  auto check = [&](const gmf::Section& section, vtkIdType expected, const std::string& what,
                 vtkIdType tuples, const char* over) {
    if (section.lines != expected)
    {
      throw gmf::FormatError(Naming(file, section) + " has " + std::to_string(section.lines) +
        " lines, the mesh has " + std::to_string(expected) + " " + what);
    }
    const double bytes =
      static_cast<double>(tuples) * section.reals * file.GetLayout().RealBytes();
    total += bytes;
    if (total > allowed)
    {
      throw gmf::FormatError(Naming(file, section) + ": its " +
        std::to_string(section.solutionTypes.size()) + " fields (" +
        std::to_string(section.reals) + " values per line) become arrays over the mesh's " +
        std::to_string(tuples) + " " + over + ", " +
        std::to_string(static_cast<std::uint64_t>(bytes)) + " bytes (" +
        std::to_string(static_cast<std::uint64_t>(total)) +
        " with the keywords before); the reader allows solution arrays 64 bytes per byte of the "
        "mesh and solution files (" + std::to_string(static_cast<std::uint64_t>(fileBytes)) +
        " bytes here), and at least 64 MiB");
    }
  };
  if (const gmf::Section* vertices = file.Find(gmf::SolAtVertices))
  {
    check(*vertices, pointCount, "Vertices", pointCount, "points");
  }
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    const gmf::ElementKind& kind = gmf::ElementKindAt(k);
    if (const gmf::Section* section = file.Find(kind.solutionKeyword))
    {
      check(*section, blocks[k].count, gmf::KeywordName(kind.keyword), cellCount, "cells");
    }
  }
}

void ReadSolution(const gmf::InputFile& file, vtkIdType pointCount,
  const std::array<CellBlock, gmf::ElementKindCount>& blocks, vtkUnstructuredGrid* output,
  std::vector<std::string>& skipped, std::string& reading)
{
  for (const std::string& name : file.GetSkippedKeywords())
  {
    skipped.push_back(name + " (solution file)");
  }
  const vtkIdType cellCount = output->GetNumberOfCells();
  if (const gmf::Section* vertices = file.Find(gmf::SolAtVertices))
  {
    reading = Naming(file, *vertices);
    ReadSolutionKeyword(file, *vertices, pointCount, 0, output->GetPointData());
  }
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    const gmf::ElementKind& kind = gmf::ElementKindAt(k);
    if (const gmf::Section* section = file.Find(kind.solutionKeyword))
    {
      reading = Naming(file, *section);
      ReadSolutionKeyword(file, *section, cellCount, blocks[k].first, output->GetCellData());
    }
  }
}

template <class IndexArray, class Reference>
void ReadCells(const gmf::InputFile& file, vtkIdType pointCount,
  const std::array<CellBlock, gmf::ElementKindCount>& blocks, vtkIdType cellCount,
  vtkIdType entryCount, vtkUnsignedCharArray* types, Reference* references,
  vtkCellArray* cellArray, vtkGMFReader* progress, const std::string& cellsNaming,
  std::string& reading)
{
  using Index = typename IndexArray::ValueType;
  vtkNew<IndexArray> offsets;
  AllocateLarge(offsets, cellCount + 1, cellsNaming);
  vtkNew<IndexArray> connectivity;
  AllocateLarge(connectivity, entryCount, cellsNaming);
  CellsBeingBuilt<Index> cells{ offsets->GetPointer(0), connectivity->GetPointer(0),
    types->GetPointer(0) };
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    const gmf::ElementKind& kind = gmf::ElementKindAt(k);
    if (const gmf::Section* section = file.Find(kind.keyword))
    {
      reading = Naming(file, *section);
      ReadElements(file, *section, kind, pointCount, cells, references);
    }
    progress->UpdateProgress(0.2 + 0.6 * (k + 1) / gmf::ElementKindCount);
  }
  reading = file.GetPath() + ": Corners and Ridges";
  ReadCornersAndRidges(file, pointCount, blocks[0], cells, references);
  offsets->SetValue(cellCount, static_cast<Index>(entryCount));
  cellArray->SetData(offsets, connectivity);
}

// Reads the mesh (and the solution, when given) into `output`. `reading` names what is being
// read, for an error that has no better name (out of memory in VTK).
template <class Reference>
void ReadMesh(const gmf::InputFile& file, const gmf::InputFile* solution,
  vtkUnstructuredGrid* output, vtkGMFReader* progress, std::string& reading)
{
  const gmf::Layout& layout = file.GetLayout();
  const gmf::Section* vertices = file.Find(gmf::Vertices);
  if (!vertices)
  {
    throw gmf::FormatError(file.GetPath() + ": the file has no Vertices");
  }
  const vtkIdType pointCount = static_cast<vtkIdType>(vertices->lines);

  // Cell and connectivity counts first, so that every array is allocated once, and the
  // solution checked against them before anything is allocated. Every count is bounded by
  // the lines that the file holds (checked when indexing it).
  vtkIdType cellCount = 0;
  vtkIdType entryCount = 0;
  std::array<CellBlock, gmf::ElementKindCount> blocks;
  std::string cellKeywords;
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    const gmf::ElementKind& kind = gmf::ElementKindAt(k);
    if (const gmf::Section* section = file.Find(kind.keyword))
    {
      blocks[k] = { cellCount, static_cast<vtkIdType>(section->lines) };
      cellCount += blocks[k].count;
      entryCount += blocks[k].count * kind.vertices;
      cellKeywords += (cellKeywords.empty() ? "" : ", ") + gmf::KeywordName(kind.keyword);
    }
  }
  const gmf::Section* corners = file.Find(gmf::Corners);
  const gmf::Section* ridges = file.Find(gmf::Ridges);
  cellCount += (corners ? corners->lines : 0) + (ridges ? ridges->lines : 0);
  entryCount += (corners ? corners->lines : 0) + 2 * (ridges ? ridges->lines : 0);
  for (const gmf::Section* section : { corners, ridges })
  {
    if (section)
    {
      cellKeywords += (cellKeywords.empty() ? "" : ", ") + gmf::KeywordName(section->keyword);
    }
  }
  const std::string cellsNaming =
    file.GetPath() + ": the cells of " + (cellKeywords.empty() ? "no keyword" : cellKeywords);
  if (solution)
  {
    CheckSolution(*solution, file, pointCount, blocks, cellCount);
  }

  reading = Naming(file, *vertices);
  vtkSmartPointer<vtkDataArray> coordinates = NewReals(layout);
  coordinates->SetNumberOfComponents(3);
  AllocateLarge(coordinates, pointCount, reading);
  vtkSmartPointer<vtkDataArray> pointReferences = NewReferences(layout, pointCount, reading);
  if (layout.RealBytes() == 4)
  {
    ReadVertices<float, Reference>(file, *vertices, coordinates, pointReferences);
  }
  else
  {
    ReadVertices<double, Reference>(file, *vertices, coordinates, pointReferences);
  }
  progress->UpdateProgress(0.2);

  reading = cellsNaming;
  vtkNew<vtkUnsignedCharArray> types;
  AllocateLarge(types, cellCount, cellsNaming);
  vtkSmartPointer<vtkDataArray> cellReferences = NewReferences(layout, cellCount, cellsNaming);
  Reference* references = ReferencePointer<Reference>(cellReferences);
  vtkNew<vtkCellArray> cellArray;
  if (entryCount < std::numeric_limits<vtkTypeInt32>::max())
  {
    ReadCells<vtkTypeInt32Array>(file, pointCount, blocks, cellCount, entryCount, types,
      references, cellArray, progress, cellsNaming, reading);
  }
  else
  {
    ReadCells<vtkTypeInt64Array>(file, pointCount, blocks, cellCount, entryCount, types,
      references, cellArray, progress, cellsNaming, reading);
  }
  reading = cellsNaming;

  vtkNew<vtkPoints> points;
  points->SetData(coordinates);
  output->SetPoints(points);
  output->SetCells(types, cellArray);
  output->GetPointData()->AddArray(pointReferences);
  output->GetCellData()->AddArray(cellReferences);
  if (ridges)
  {
    vtkNew<vtkUnsignedCharArray> keywords;
    keywords->SetName("GMFKeyword");
    AllocateLarge(keywords, cellCount, cellsNaming);
    vtkIdType cell = 0;
    for (int k = 0; k < gmf::ElementKindCount; ++k)
    {
      for (vtkIdType i = 0; i < blocks[k].count; ++i)
      {
        keywords->SetValue(cell++, static_cast<unsigned char>(gmf::ElementKindAt(k).keyword));
      }
    }
    for (vtkIdType i = 0; corners && i < corners->lines; ++i)
    {
      keywords->SetValue(cell++, gmf::Corners);
    }
    while (cell < cellCount)
    {
      keywords->SetValue(cell++, gmf::Ridges);
    }
    output->GetCellData()->AddArray(keywords);
  }

  std::vector<std::string> skipped = file.GetSkippedKeywords();
  if (solution)
  {
    ReadSolution(*solution, pointCount, blocks, output, skipped, reading);
  }
  if (!skipped.empty())
  {
    vtkNew<vtkStringArray> names;
    names->SetName("SkippedKeywords");
    for (const std::string& name : skipped)
    {
      names->InsertNextValue(name);
    }
    output->GetFieldData()->AddArray(names);
  }
}
}

vtkGMFReader::vtkGMFReader()
{
  this->SetNumberOfInputPorts(0);
}

vtkGMFReader::~vtkGMFReader()
{
  this->SetFileName(nullptr);
  this->SetSolutionFileName(nullptr);
}

namespace
{
bool IsRegularFile(const std::string& path)
{
  struct stat status;
  return ::stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode);
}

// The solution files a mesh may have beside it, in the order they are looked for.
std::array<std::string, 2> SolutionCandidates(const std::string& meshFileName)
{
  const std::string extension = vtksys::SystemTools::GetFilenameLastExtension(meshFileName);
  const std::string base = meshFileName.substr(0, meshFileName.size() - extension.size());
  if (extension == ".meshb")
  {
    return { base + ".solb", base + ".sol" };
  }
  return { base + ".sol", base + ".solb" };
}
}

std::string vtkGMFReader::FindSolutionFile(const std::string& meshFileName)
{
  // Regular files only: opening a FIFO waits for a writer, a directory is no solution.
  for (const std::string& candidate : SolutionCandidates(meshFileName))
  {
    if (IsRegularFile(candidate))
    {
      return candidate;
    }
  }
  return "";
}

int vtkGMFReader::CanReadFile(const char* name)
{
  // Cheap on purpose (ParaView asks before opening): the name, and for a binary file its
  // first word; reading reports everything else (an unknown version included, so that it is
  // named rather than the file refused by every reader).
  if (!name)
  {
    return 0;
  }
  const std::string path = name;
  const std::string extension = vtksys::SystemTools::GetFilenameLastExtension(path);
  if (extension != ".mesh" && extension != ".meshb")
  {
    return 0;
  }
  if (!IsRegularFile(path)) // opening a FIFO would wait for a writer
  {
    return 0;
  }
  if (extension == ".mesh")
  {
    return 1;
  }
  vtksys::ifstream file(name, std::ios::binary);
  std::uint32_t word = 0;
  file.read(reinterpret_cast<char*>(&word), sizeof(word));
  return file && (word == 1 || word == 0x01000000u);
}

int vtkGMFReader::RequestData(
  vtkInformation*, vtkInformationVector**, vtkInformationVector* outputVector)
{
  vtkUnstructuredGrid* output = vtkUnstructuredGrid::GetData(outputVector);
  output->Initialize();
  if (!this->FileName || !*this->FileName)
  {
    vtkErrorMacro(<< "no FileName");
    return 0;
  }
  std::string solution = this->SolutionFileName ? this->SolutionFileName : "";
  if (solution.empty())
  {
    for (const std::string& candidate : SolutionCandidates(this->FileName))
    {
      struct stat status;
      if (::stat(candidate.c_str(), &status) != 0)
      {
        continue;
      }
      if (S_ISREG(status.st_mode))
      {
        solution = candidate;
        break;
      }
      vtkWarningMacro(<< candidate << " beside the mesh is not a regular file (a FIFO, device or "
                                      "directory): not read as its solution");
    }
  }
  // Everything is read into a grid of its own: the output is either the whole file or empty.
  std::string reading = this->FileName;
  try
  {
    const gmf::InputFile file(this->FileName);
    std::unique_ptr<gmf::InputFile> solutionFile;
    if (!solution.empty())
    {
      reading = solution;
      solutionFile.reset(new gmf::InputFile(solution));
    }
    vtkNew<vtkUnstructuredGrid> result;
    if (file.GetLayout().IntegerBytes() == 8)
    {
      ReadMesh<vtkTypeInt64>(file, solutionFile.get(), result, this, reading);
    }
    else
    {
      ReadMesh<int>(file, solutionFile.get(), result, this, reading);
    }
    output->ShallowCopy(result);
  }
  catch (const gmf::FormatError& error)
  {
    output->Initialize();
    vtkErrorMacro(<< error.what());
    return 0;
  }
  catch (const std::bad_alloc&)
  {
    output->Initialize();
    vtkErrorMacro(<< reading << ": out of memory");
    return 0;
  }
  this->UpdateProgress(1.0);
  return 1;
}

void vtkGMFReader::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << (this->FileName ? this->FileName : "(none)") << "\n";
  os << indent << "SolutionFileName: "
     << (this->SolutionFileName ? this->SolutionFileName : "(none)") << "\n";
}
