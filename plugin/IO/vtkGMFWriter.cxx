#include "vtkGMFWriter.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkCellTypes.h"
#include "vtkDataArray.h"
#include "vtkFloatArray.h"
#include "vtkIdList.h"
#include "vtkInformation.h"
#include "vtkObjectFactory.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGMFOutputFile.h"

#include <vtksys/SystemTools.hxx>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <unordered_map>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

vtkStandardNewMacro(vtkGMFWriter);

namespace
{
// Slots of the cells of each GMF keyword: the element kinds, then Corners and Ridges.
constexpr int CornerSlot = gmf::ElementKindCount;
constexpr int RidgeSlot = gmf::ElementKindCount + 1;
constexpr int SlotCount = gmf::ElementKindCount + 2;

// "vtkHexahedron", or "cell of type 90" for a type VTK has no class for.
std::string CellTypeName(int type)
{
  const char* name = type >= 0 && type < VTK_NUMBER_OF_CELL_TYPES
    ? vtkCellTypes::GetClassNameFromTypeId(type)
    : nullptr;
  return name && *name ? name : "cell of type " + std::to_string(type);
}

// Cell types and points of a vtkUnstructuredGrid or vtkPolyData, without a copy.
class CellAccess
{
public:
  explicit CellAccess(vtkPointSet* input)
    : Grid(vtkUnstructuredGrid::SafeDownCast(input))
    , Poly(vtkPolyData::SafeDownCast(input))
  {
    if (this->Grid && this->Grid->GetCellTypesArray())
    {
      // The grid's own arrays: no per-cell dispatch through vtkCellArray.
      this->Types = this->Grid->GetCellTypesArray()->GetPointer(0);
      vtkCellArray* cells = this->Grid->GetCells();
      if (cells->IsStorage64Bit())
      {
        this->Offsets64 = cells->GetOffsetsArray64()->GetPointer(0);
        this->Connectivity64 = cells->GetConnectivityArray64()->GetPointer(0);
        this->Entries = cells->GetConnectivityArray64()->GetNumberOfValues();
      }
      else
      {
        this->Offsets32 = cells->GetOffsetsArray32()->GetPointer(0);
        this->Connectivity32 = cells->GetConnectivityArray32()->GetPointer(0);
        this->Entries = cells->GetConnectivityArray32()->GetNumberOfValues();
      }
    }
  }
  int Type(vtkIdType cell) const
  {
    return this->Types ? this->Types[cell] : this->Poly->GetCellType(cell);
  }
  /// The number of points of a cell, after checking that its ids lie in order inside the
  /// cell array and name points of the input; FormatError naming the cell otherwise.
  vtkIdType CheckedCount(vtkIdType cell, vtkIdType pointCount, int type)
  {
    if (this->Offsets64)
    {
      return this->CheckedCount(cell, this->Offsets64, this->Connectivity64, pointCount, type);
    }
    if (this->Offsets32)
    {
      return this->CheckedCount(cell, this->Offsets32, this->Connectivity32, pointCount, type);
    }
    vtkIdType count;
    const vtkIdType* points;
    this->Poly->GetCellPoints(cell, count, points);
    return CheckedCount(cell, points, count, pointCount, type);
  }
  void Points(vtkIdType cell, vtkIdType& count, const vtkIdType*& points)
  {
    if (this->Offsets64)
    {
      count = this->Offsets64[cell + 1] - this->Offsets64[cell];
      points = this->Connectivity64 + this->Offsets64[cell];
    }
    else if (this->Offsets32)
    {
      const vtkTypeInt32 first = this->Offsets32[cell];
      count = this->Offsets32[cell + 1] - first;
      this->Scratch.resize(static_cast<std::size_t>(count));
      for (vtkIdType i = 0; i < count; ++i)
      {
        this->Scratch[i] = this->Connectivity32[first + i];
      }
      points = this->Scratch.data();
    }
    else
    {
      this->Poly->GetCellPoints(cell, count, points);
    }
  }

private:
  template <class Index>
  vtkIdType CheckedCount(vtkIdType cell, const Index* offsets, const Index* connectivity,
    vtkIdType pointCount, int type) const
  {
    const vtkIdType first = offsets[cell];
    const vtkIdType last = offsets[cell + 1];
    if (first < 0 || last < first || last > this->Entries)
    {
      throw gmf::FormatError("cell " + std::to_string(cell) + " (a " + CellTypeName(type) +
        "): its offsets (" + std::to_string(first) + ", " + std::to_string(last) +
        ") do not lie in order inside the cell array's " + std::to_string(this->Entries) +
        " point ids (a corrupt cell array)");
    }
    return CheckedCount(cell, connectivity + first, last - first, pointCount, type);
  }
  template <class Index>
  static vtkIdType CheckedCount(
    vtkIdType cell, const Index* points, vtkIdType count, vtkIdType pointCount, int type)
  {
    for (vtkIdType i = 0; i < count; ++i)
    {
      if (points[i] < 0 || points[i] >= pointCount)
      {
        throw gmf::FormatError("cell " + std::to_string(cell) + " (a " + CellTypeName(type) +
          ") refers to point " + std::to_string(points[i]) + "; the input has " +
          std::to_string(pointCount) + " points");
      }
    }
    return count;
  }

  vtkUnstructuredGrid* Grid;
  vtkPolyData* Poly;
  const unsigned char* Types = nullptr;
  const vtkTypeInt64* Offsets64 = nullptr;
  const vtkTypeInt64* Connectivity64 = nullptr;
  const vtkTypeInt32* Offsets32 = nullptr;
  const vtkTypeInt32* Connectivity32 = nullptr;
  vtkIdType Entries = 0; // point ids in the grid's connectivity
  std::vector<vtkIdType> Scratch;
};

// VTK's local vertex of each GMF local vertex, for every cell type written.
const int* GmfOrderOf(int cellType)
{
  static const int pixel[4] = { 0, 1, 3, 2 };
  static const int voxel[8] = { 0, 1, 3, 2, 4, 5, 7, 6 };
  if (cellType == VTK_PIXEL)
  {
    return pixel;
  }
  if (cellType == VTK_VOXEL)
  {
    return voxel;
  }
  const gmf::ElementKind* kind = gmf::ElementKindOfCellType(cellType);
  return kind ? kind->gmfVertexOfVtk.data() : nullptr; // its own inverse
}

// The points a cell of this type has, and the name of its kind ("a hexahedron has 8"), for
// the cell types written; 0 for the others.
int PointsOf(int cellType, const char*& kindName)
{
  switch (cellType)
  {
    case VTK_VERTEX: kindName = "a vertex"; return 1;
    case VTK_LINE: kindName = "a line"; return 2;
    case VTK_TRIANGLE: kindName = "a triangle"; return 3;
    case VTK_QUAD: kindName = "a quad"; return 4;
    case VTK_PIXEL: kindName = "a pixel"; return 4;
    case VTK_TETRA: kindName = "a tetrahedron"; return 4;
    case VTK_PYRAMID: kindName = "a pyramid"; return 5;
    case VTK_WEDGE: kindName = "a wedge"; return 6;
    case VTK_HEXAHEDRON: kindName = "a hexahedron"; return 8;
    case VTK_VOXEL: kindName = "a voxel"; return 8;
    default: kindName = ""; return 0;
  }
}

int SlotOf(int cellType, bool ridge)
{
  if (cellType == VTK_VERTEX)
  {
    return CornerSlot;
  }
  if (cellType == VTK_LINE && ridge)
  {
    return RidgeSlot;
  }
  const int kindType =
    cellType == VTK_PIXEL ? VTK_QUAD : (cellType == VTK_VOXEL ? VTK_HEXAHEDRON : cellType);
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    if (gmf::ElementKindAt(k).vtkCellType == kindType)
    {
      return k;
    }
  }
  return -1;
}

// An integer-valued reference array, or nullptr.
vtkDataArray* ReferencesOf(vtkFieldData* data, const char* where)
{
  vtkDataArray* references = data->GetArray("Ref");
  if (references && references->GetNumberOfComponents() != 1)
  {
    throw gmf::FormatError(
      std::string("the ") + where + " array Ref has " +
      std::to_string(references->GetNumberOfComponents()) + " components (references have 1)");
  }
  return references;
}

std::int64_t ReferenceValue(vtkDataArray* references, vtkIdType id, const char* what)
{
  if (!references)
  {
    return 0;
  }
  // Signed 32- and 64-bit integers in VTK's standard layout (the arrays the reader makes), read
  // straight from their memory (vtkTypeInt32Array::FastDownCast of a vtkIntArray would be a
  // cast to a type the object does not have); anything else must hold integers.
  const int type = references->GetDataType();
  const bool signedInteger = type == VTK_INT || type == VTK_LONG || type == VTK_LONG_LONG ||
    type == VTK_ID_TYPE || type == VTK_SIGNED_CHAR || type == VTK_SHORT;
  if (signedInteger && references->HasStandardMemoryLayout() &&
    references->GetNumberOfComponents() == 1)
  {
    const void* values = references->GetVoidPointer(0);
    switch (references->GetDataTypeSize())
    {
      case 4:
        return static_cast<const std::int32_t*>(values)[id];
      case 8:
        return static_cast<const std::int64_t*>(values)[id];
      default:
        break;
    }
  }
  const double value = references->GetComponent(id, 0);
  if (value != std::floor(value) || std::abs(value) > 9.2e18)
  {
    throw gmf::FormatError(std::string("Ref of ") + what + " " + std::to_string(id) + " is " +
      std::to_string(value) + ", not an integer");
  }
  return static_cast<std::int64_t>(value);
}

bool IsSkippedArray(const char* name)
{
  return !name || !std::strcmp(name, "Ref") || !std::strcmp(name, "GMFKeyword") ||
    !std::strcmp(name, "vtkGhostType") || !std::strcmp(name, "vtkValidPointMask");
}

struct Field
{
  vtkDataArray* array;
  int type;
};

int FieldType(vtkDataArray* array, int dimension, const char* where)
{
  const int components = array->GetNumberOfComponents();
  const int type = gmf::SolutionTypeOfSize(components, dimension);
  if (!type)
  {
    throw gmf::FormatError(std::string("the ") + where + " array " + array->GetName() + " has " +
      std::to_string(components) + " components; a GMF field of dimension " +
      std::to_string(dimension) + " has 1 (scalar), " + std::to_string(dimension) +
      " (vector), " + std::to_string(dimension * (dimension + 1) / 2) +
      " (symmetric matrix) or " + std::to_string(dimension * dimension) + " (matrix)");
  }
  return type;
}

std::vector<int> TypesOf(const std::vector<Field>& fields)
{
  std::vector<int> types;
  for (const Field& field : fields)
  {
    types.push_back(field.type);
  }
  return types;
}

template <class Ids>
void WriteFieldLines(gmf::OutputFile& file, const std::vector<Field>& fields, const Ids& ids)
{
  for (vtkIdType id : ids)
  {
    for (const Field& field : fields)
    {
      for (int c = 0; c < field.array->GetNumberOfComponents(); ++c)
      {
        file.Real(field.array->GetComponent(id, c));
      }
    }
    file.EndLine();
  }
}

// 0, 1, ..., count - 1, for WriteFieldLines over every point.
struct AllIds
{
  struct Iterator
  {
    vtkIdType id;
    vtkIdType operator*() const { return this->id; }
    Iterator& operator++()
    {
      ++this->id;
      return *this;
    }
    bool operator!=(const Iterator& other) const { return this->id != other.id; }
  };
  vtkIdType count;
  Iterator begin() const { return { 0 }; }
  Iterator end() const { return { this->count }; }
};

// The cells of one slot in order, found by scanning the slot of every cell: no list of ids
// to allocate (30M cells would take 240 MB).
class SlotCells
{
public:
  SlotCells(const std::vector<signed char>& slots, int slot, std::size_t count)
    : Slots(slots.data())
    , End(static_cast<vtkIdType>(slots.size()))
    , Slot(static_cast<signed char>(slot))
    , Count(count)
  {
  }
  class Iterator
  {
  public:
    Iterator(const SlotCells& owner, vtkIdType cell)
      : Owner(owner)
      , Cell(cell)
    {
      this->Skip();
    }
    vtkIdType operator*() const { return this->Cell; }
    Iterator& operator++()
    {
      ++this->Cell;
      this->Skip();
      return *this;
    }
    bool operator!=(const Iterator& other) const { return this->Cell != other.Cell; }

  private:
    void Skip()
    {
      while (this->Cell < this->Owner.End && this->Owner.Slots[this->Cell] != this->Owner.Slot)
      {
        ++this->Cell;
      }
    }
    const SlotCells& Owner;
    vtkIdType Cell;
  };
  Iterator begin() const { return Iterator(*this, this->Count ? 0 : this->End); }
  Iterator end() const { return Iterator(*this, this->End); }
  std::size_t size() const { return this->Count; }
  bool empty() const { return this->Count == 0; }

private:
  const signed char* Slots;
  vtkIdType End;
  signed char Slot;
  std::size_t Count;
};

// Everything the writer writes, gathered and checked before a byte is written.
struct Plan
{
  std::vector<signed char> slots; // the slot of every cell
  std::array<std::size_t, SlotCount> counts{};
  SlotCells Cells(int slot) const { return SlotCells(this->slots, slot, this->counts[slot]); }
  vtkDataArray* pointReferences = nullptr;
  vtkDataArray* cellReferences = nullptr;
  std::vector<Field> pointFields;
  std::array<std::vector<Field>, gmf::ElementKindCount> cellFields;
  std::vector<std::int64_t> ridgeEdges; // the Edges index (1-based) of each ridge
};

// An array of the input must have a tuple for each of its points or cells: it is read at each.
void CheckTuples(vtkDataArray* array, vtkIdType count, const char* where)
{
  if (array && array->GetNumberOfTuples() < count)
  {
    throw gmf::FormatError(std::string("the ") + where + " array " +
      (array->GetName() ? array->GetName() : "(unnamed)") + " has " +
      std::to_string(array->GetNumberOfTuples()) + " tuples for " + std::to_string(count) + " " +
      where + "s");
  }
}

Plan MakePlan(vtkPointSet* input, int dimension, bool withSolution)
{
  Plan plan;
  CellAccess access(input);
  vtkDataArray* keywords = input->GetCellData()->GetArray("GMFKeyword");
  const vtkIdType cellCount = input->GetNumberOfCells();
  const vtkIdType pointCount = input->GetNumberOfPoints();
  CheckTuples(keywords, cellCount, "cell");
  // The slot of every cell, then the cells of each slot, each list allocated once. Every cell
  // is checked here, before a byte is written: its type, its number of points, its point ids.
  std::vector<signed char>& slots = plan.slots;
  slots.resize(static_cast<std::size_t>(cellCount));
  std::array<std::size_t, SlotCount>& counts = plan.counts;
  std::array<int, VTK_NUMBER_OF_CELL_TYPES> slotOfType;
  slotOfType.fill(-2);
  for (vtkIdType cell = 0; cell < cellCount; ++cell)
  {
    const int type = access.Type(cell);
    if (type < 0 || type >= VTK_NUMBER_OF_CELL_TYPES)
    {
      throw gmf::FormatError("cell " + std::to_string(cell) + " has the cell type " +
        std::to_string(type) + ", which is no VTK cell type (0 to " +
        std::to_string(VTK_NUMBER_OF_CELL_TYPES - 1) + ")");
    }
    const bool ridge = keywords && keywords->GetComponent(cell, 0) == gmf::Ridges;
    int slot = ridge ? SlotOf(type, true) : slotOfType[type];
    if (slot == -2)
    {
      slot = slotOfType[type] = SlotOf(type, false);
    }
    if (slot < 0)
    {
      throw gmf::FormatError("cell " + std::to_string(cell) + " is a " + CellTypeName(type) +
        ", which GMF cannot hold (vertices, lines, triangles, quads, tetrahedra, pyramids, "
        "wedges and hexahedra, pixels and voxels can be written)");
    }
    const char* kindName = "";
    const int expected = PointsOf(type, kindName);
    const vtkIdType count = access.CheckedCount(cell, pointCount, type);
    if (count != expected)
    {
      throw gmf::FormatError("cell " + std::to_string(cell) + " is a " + CellTypeName(type) +
        " with " + std::to_string(count) + " points (" + kindName + " has " +
        std::to_string(expected) + ")");
    }
    slots[cell] = static_cast<signed char>(slot);
    ++counts[slot];
  }

  plan.pointReferences = ReferencesOf(input->GetPointData(), "point");
  plan.cellReferences = ReferencesOf(input->GetCellData(), "cell");
  CheckTuples(plan.pointReferences, pointCount, "point");
  CheckTuples(plan.cellReferences, cellCount, "cell");

  if (!plan.Cells(RidgeSlot).empty())
  {
    // A ridge names an edge: find each ridge's among the Edges being written.
    std::unordered_map<std::uint64_t, std::int64_t> edgeIndex;
    auto key = [](vtkIdType a, vtkIdType b) {
      return (static_cast<std::uint64_t>(std::min(a, b)) << 32) ^
        static_cast<std::uint64_t>(std::max(a, b));
    };
    vtkIdType count;
    const vtkIdType* points;
    std::int64_t index = 0;
    for (vtkIdType edge : plan.Cells(0))
    {
      access.Points(edge, count, points);
      edgeIndex.emplace(key(points[0], points[1]), ++index);
    }
    for (vtkIdType cell : plan.Cells(RidgeSlot))
    {
      access.Points(cell, count, points);
      auto found = edgeIndex.find(key(points[0], points[1]));
      if (found == edgeIndex.end())
      {
        throw gmf::FormatError("cell " + std::to_string(cell) + " is a ridge (GMFKeyword 14) on " +
          "points " + std::to_string(points[0]) + " and " + std::to_string(points[1]) +
          ", which no edge (line cell) joins; GMF ridges name edges");
      }
      plan.ridgeEdges.push_back(found->second);
    }
  }

  if (!withSolution)
  {
    return plan;
  }
  vtkPointData* pointData = input->GetPointData();
  for (int a = 0; a < pointData->GetNumberOfArrays(); ++a)
  {
    vtkDataArray* array = pointData->GetArray(a);
    if (array && !IsSkippedArray(array->GetName()))
    {
      CheckTuples(array, pointCount, "point");
      plan.pointFields.push_back({ array, FieldType(array, dimension, "point") });
    }
  }
  vtkCellData* cellData = input->GetCellData();
  for (int a = 0; a < cellData->GetNumberOfArrays(); ++a)
  {
    vtkDataArray* array = cellData->GetArray(a);
    if (!array || IsSkippedArray(array->GetName()))
    {
      continue;
    }
    CheckTuples(array, cellCount, "cell");
    const int type = FieldType(array, dimension, "cell");
    for (int k = 0; k < gmf::ElementKindCount; ++k)
    {
      // A cell array goes to the kinds where it has a value: the reader fills the cells of
      // other kinds with NaN, and these are not written back as fields of those kinds.
      bool hasValue = false;
      for (vtkIdType cell : plan.Cells(k))
      {
        for (int c = 0; c < array->GetNumberOfComponents() && !hasValue; ++c)
        {
          hasValue = !std::isnan(array->GetComponent(cell, c));
        }
        if (hasValue)
        {
          break;
        }
      }
      if (hasValue)
      {
        plan.cellFields[k].push_back({ array, type });
      }
    }
  }
  return plan;
}

// The smallest version that holds the data exactly.
int ChooseVersion(vtkPointSet* input, const Plan& plan, int dimension, bool binary)
{
  bool single = input->GetPoints()->GetDataType() == VTK_FLOAT;
  for (const Field& field : plan.pointFields)
  {
    single = single && field.array->GetDataType() == VTK_FLOAT;
  }
  for (const auto& fields : plan.cellFields)
  {
    for (const Field& field : fields)
    {
      single = single && field.array->GetDataType() == VTK_FLOAT;
    }
  }
  const double limit32 = std::numeric_limits<std::int32_t>::max();
  auto rangeNeeds64 = [&](vtkDataArray* references) {
    if (!references || references->GetNumberOfTuples() == 0 ||
      (references->GetDataTypeSize() <= 4 && references->GetDataType() != VTK_FLOAT &&
        references->GetDataType() != VTK_UNSIGNED_INT))
    {
      return false; // 32-bit signed or narrower integers fit
    }
    double range[2];
    references->GetRange(range, 0);
    return range[0] < -limit32 - 1 || range[1] > limit32;
  };
  if (input->GetNumberOfPoints() > limit32 || input->GetNumberOfCells() > limit32 ||
    rangeNeeds64(plan.pointReferences) || rangeNeeds64(plan.cellReferences))
  {
    return 4;
  }
  if (binary)
  {
    // Bytes of the mesh file with 32-bit positions; past 2 GiB they no longer fit.
    double bytes = double(input->GetNumberOfPoints()) * (dimension * (single ? 4 : 8) + 4);
    for (int k = 0; k < gmf::ElementKindCount; ++k)
    {
      bytes += double(plan.counts[k]) * 4 * (gmf::ElementKindAt(k).vertices + 1);
    }
    bytes += 4.0 * (plan.counts[CornerSlot] + plan.counts[RidgeSlot]);
    double solutionBytes = 0;
    for (const Field& field : plan.pointFields)
    {
      solutionBytes += 8.0 * field.array->GetNumberOfComponents() * input->GetNumberOfPoints();
    }
    for (int k = 0; k < gmf::ElementKindCount; ++k)
    {
      for (const Field& field : plan.cellFields[k])
      {
        solutionBytes += 8.0 * field.array->GetNumberOfComponents() * plan.counts[k];
      }
    }
    if (std::max(bytes, solutionBytes) + 4096 > limit32)
    {
      return 3;
    }
  }
  return single ? 1 : 2;
}

void WriteMesh(vtkPointSet* input, const Plan& plan, gmf::OutputFile& file, int dimension,
  vtkGMFWriter* progress)
{
  vtkPoints* points = input->GetPoints();
  const vtkIdType pointCount = input->GetNumberOfPoints();
  file.BeginKeyword(gmf::Vertices, pointCount);
  const void* raw = points->GetData()->GetVoidPointer(0);
  const int pointType = points->GetDataType();
  for (vtkIdType p = 0; p < pointCount; ++p)
  {
    for (int d = 0; d < dimension; ++d)
    {
      file.Real(pointType == VTK_DOUBLE ? static_cast<const double*>(raw)[3 * p + d]
          : pointType == VTK_FLOAT      ? static_cast<const float*>(raw)[3 * p + d]
                                        : points->GetPoint(p)[d]);
    }
    file.Integer(ReferenceValue(plan.pointReferences, p, "point"));
    file.EndLine();
  }
  progress->UpdateProgress(0.2);

  CellAccess access(input);
  vtkIdType count;
  const vtkIdType* cellPoints;
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    const SlotCells cells = plan.Cells(k);
    if (cells.empty())
    {
      continue;
    }
    const gmf::ElementKind& kind = gmf::ElementKindAt(k);
    file.BeginKeyword(kind.keyword, static_cast<std::int64_t>(cells.size()));
    int orderType = -1;
    const int* order = nullptr;
    for (vtkIdType cell : cells)
    {
      access.Points(cell, count, cellPoints);
      if (access.Type(cell) != orderType)
      {
        orderType = access.Type(cell);
        order = GmfOrderOf(orderType);
      }
      for (int j = 0; j < kind.vertices; ++j)
      {
        file.Integer(cellPoints[order[j]] + 1);
      }
      file.Integer(ReferenceValue(plan.cellReferences, cell, "cell"));
      file.EndLine();
    }
    progress->UpdateProgress(0.2 + 0.6 * (k + 1) / gmf::ElementKindCount);
  }
  if (!plan.Cells(CornerSlot).empty())
  {
    file.BeginKeyword(gmf::Corners, static_cast<std::int64_t>(plan.counts[CornerSlot]));
    for (vtkIdType cell : plan.Cells(CornerSlot))
    {
      access.Points(cell, count, cellPoints);
      file.Integer(cellPoints[0] + 1);
      file.EndLine();
    }
  }
  if (!plan.ridgeEdges.empty())
  {
    file.BeginKeyword(gmf::Ridges, static_cast<std::int64_t>(plan.ridgeEdges.size()));
    for (std::int64_t edge : plan.ridgeEdges)
    {
      file.Integer(edge);
      file.EndLine();
    }
  }
}

void WriteSolutionFile(vtkPointSet* input, const Plan& plan, gmf::OutputFile& file)
{
  if (!plan.pointFields.empty())
  {
    file.BeginKeyword(gmf::SolAtVertices, input->GetNumberOfPoints(), TypesOf(plan.pointFields));
    WriteFieldLines(file, plan.pointFields, AllIds{ input->GetNumberOfPoints() });
  }
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    if (!plan.cellFields[k].empty())
    {
      const SlotCells cells = plan.Cells(k);
      file.BeginKeyword(gmf::ElementKindAt(k).solutionKeyword,
        static_cast<std::int64_t>(cells.size()), TypesOf(plan.cellFields[k]));
      WriteFieldLines(file, plan.cellFields[k], cells);
    }
  }
}
}

vtkGMFWriter::vtkGMFWriter() = default;

vtkGMFWriter::~vtkGMFWriter()
{
  this->SetFileName(nullptr);
}

int vtkGMFWriter::FillInputPortInformation(int, vtkInformation* info)
{
  info->Set(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkUnstructuredGrid");
  info->Append(vtkAlgorithm::INPUT_REQUIRED_DATA_TYPE(), "vtkPolyData");
  return 1;
}

std::string vtkGMFWriter::SolutionFileNameOf(const std::string& meshFileName)
{
  const std::string extension = vtksys::SystemTools::GetFilenameLastExtension(meshFileName);
  const std::string base = meshFileName.substr(0, meshFileName.size() - extension.size());
  return base + (gmf::OutputFile::IsBinaryName(meshFileName) ? ".solb" : ".sol");
}

void vtkGMFWriter::WriteData()
{
  vtkPointSet* input = vtkPointSet::SafeDownCast(this->GetInput());
  if (!input)
  {
    vtkErrorMacro(<< "the input is not a vtkUnstructuredGrid or vtkPolyData");
    return;
  }
  if (!this->FileName || !*this->FileName)
  {
    vtkErrorMacro(<< "no FileName");
    return;
  }
  const std::string path = this->FileName;
  std::string writing = "the plan of the cells";
  try
  {
    if (!input->GetPoints())
    {
      throw gmf::FormatError("the input has no points");
    }
    if (this->Dimension == 2)
    {
      for (vtkIdType p = 0; p < input->GetNumberOfPoints(); ++p)
      {
        double x[3];
        input->GetPoint(p, x);
        if (x[2] != 0)
        {
          throw gmf::FormatError("point " + std::to_string(p) + " has z = " +
            std::to_string(x[2]) + ", which Dimension 2 cannot hold");
        }
      }
    }
    const Plan plan = MakePlan(input, this->Dimension, this->WriteSolution);
    const int version = this->Version ? this->Version
                                      : ChooseVersion(input, plan, this->Dimension,
                                          gmf::OutputFile::IsBinaryName(path));
    // Both files are written under temporary names, then renamed: an error on the way leaves
    // the files that were there.
    writing = "Vertices";
    gmf::OutputFile mesh(path, version, this->Dimension);
    WriteMesh(input, plan, mesh, this->Dimension, this);
    mesh.Close();
    bool hasFields = !plan.pointFields.empty();
    for (const auto& fields : plan.cellFields)
    {
      hasFields = hasFields || !fields.empty();
    }
    const std::string solutionPath = SolutionFileNameOf(path);
    std::unique_ptr<gmf::OutputFile> solution;
    if (hasFields)
    {
      writing = "the solution";
      solution.reset(new gmf::OutputFile(solutionPath, version, this->Dimension));
      WriteSolutionFile(input, plan, *solution);
      solution->Close();
    }
    mesh.Commit();
    if (solution)
    {
      solution->Commit();
    }
    else
    {
      // A solution of an earlier save would be read with this mesh: it goes.
      struct stat status;
      if (::lstat(solutionPath.c_str(), &status) == 0 &&
        (S_ISREG(status.st_mode) || S_ISLNK(status.st_mode)) &&
        ::unlink(solutionPath.c_str()) != 0)
      {
        throw gmf::FormatError(solutionPath + ": cannot remove this solution of an earlier " +
          "save, which readers would take for the new mesh's: " + std::strerror(errno));
      }
    }
    const std::string other = gmf::OutputFile::IsBinaryName(solutionPath)
      ? solutionPath.substr(0, solutionPath.size() - 1)
      : solutionPath + "b";
    if (vtksys::SystemTools::FileExists(other, true))
    {
      vtkWarningMacro(<< other << " beside " << path << " was not written now; GMF readers may "
                      << (solution ? "find it" : "read it as the mesh's solution"));
    }
  }
  catch (const gmf::FormatError& error)
  {
    const std::string message = error.what();
    vtkErrorMacro(<< (message.compare(0, path.size(), path) == 0 ? message
                                                               : path + ": " + message));
    this->SetErrorCode(1);
    return;
  }
  catch (const std::bad_alloc&)
  {
    vtkErrorMacro(<< path << ": out of memory while writing " << writing);
    this->SetErrorCode(1);
    return;
  }
  this->UpdateProgress(1.0);
}

void vtkGMFWriter::PrintSelf(ostream& os, vtkIndent indent)
{
  this->Superclass::PrintSelf(os, indent);
  os << indent << "FileName: " << (this->FileName ? this->FileName : "(none)") << "\n";
  os << indent << "Version: " << this->Version << "\n";
  os << indent << "Dimension: " << this->Dimension << "\n";
  os << indent << "WriteSolution: " << this->WriteSolution << "\n";
}
