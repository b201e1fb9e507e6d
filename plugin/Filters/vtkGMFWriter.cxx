#include "vtkGMFWriter.h"

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
#include "vtkUnstructuredGrid.h"

#include "vtkGMFOutputFile.h"

#include <vtksys/SystemTools.hxx>

#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>
#include <vector>

vtkStandardNewMacro(vtkGMFWriter);

namespace
{
// Slots of the cells of each GMF keyword: the element kinds, then Corners and Ridges.
constexpr int CornerSlot = gmf::ElementKindCount;
constexpr int RidgeSlot = gmf::ElementKindCount + 1;
constexpr int SlotCount = gmf::ElementKindCount + 2;

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
      this->Types = this->Grid->GetCellTypesArray()->GetPointer(0);
    }
  }
  int Type(vtkIdType cell) const
  {
    return this->Types ? this->Types[cell] : this->Poly->GetCellType(cell);
  }
  void Points(vtkIdType cell, vtkIdType& count, const vtkIdType*& points)
  {
    if (this->Grid)
    {
      this->Grid->GetCellPoints(cell, count, points);
    }
    else
    {
      this->Poly->GetCellPoints(cell, count, points);
    }
  }

private:
  vtkUnstructuredGrid* Grid;
  vtkPolyData* Poly;
  const unsigned char* Types = nullptr;
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

void WriteFieldLines(gmf::OutputFile& file, const std::vector<Field>& fields,
  const std::vector<vtkIdType>* ids, vtkIdType count)
{
  for (vtkIdType i = 0; i < count; ++i)
  {
    const vtkIdType id = ids ? (*ids)[i] : i;
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

// Everything the writer writes, gathered and checked before a byte is written.
struct Plan
{
  std::array<std::vector<vtkIdType>, SlotCount> cells;
  vtkDataArray* pointReferences = nullptr;
  vtkDataArray* cellReferences = nullptr;
  std::vector<Field> pointFields;
  std::array<std::vector<Field>, gmf::ElementKindCount> cellFields;
  std::vector<std::int64_t> ridgeEdges; // the Edges index (1-based) of each ridge
};

Plan MakePlan(vtkPointSet* input, int dimension, bool withSolution)
{
  Plan plan;
  CellAccess access(input);
  vtkDataArray* keywords = input->GetCellData()->GetArray("GMFKeyword");
  const vtkIdType cellCount = input->GetNumberOfCells();
  // The slot of every cell, then the cells of each slot, each list allocated once.
  std::vector<signed char> slots(static_cast<std::size_t>(cellCount));
  std::array<std::size_t, SlotCount> counts{};
  std::array<int, VTK_NUMBER_OF_CELL_TYPES> slotOfType;
  slotOfType.fill(-2);
  for (vtkIdType cell = 0; cell < cellCount; ++cell)
  {
    const int type = access.Type(cell);
    const bool ridge = keywords && keywords->GetComponent(cell, 0) == gmf::Ridges;
    int slot = ridge ? SlotOf(type, true) : slotOfType[type];
    if (slot == -2)
    {
      slot = slotOfType[type] = SlotOf(type, false);
    }
    if (slot < 0)
    {
      const char* name = vtkCellTypes::GetClassNameFromTypeId(type);
      throw gmf::FormatError("cell " + std::to_string(cell) + " is a " +
        (name ? name : std::to_string(type)) +
        ", which GMF cannot hold (vertices, lines, triangles, quads, tetrahedra, pyramids, "
        "wedges and hexahedra, pixels and voxels can be written)");
    }
    slots[cell] = static_cast<signed char>(slot);
    ++counts[slot];
  }
  for (int slot = 0; slot < SlotCount; ++slot)
  {
    plan.cells[slot].reserve(counts[slot]);
  }
  for (vtkIdType cell = 0; cell < cellCount; ++cell)
  {
    plan.cells[slots[cell]].push_back(cell);
  }
  plan.pointReferences = ReferencesOf(input->GetPointData(), "point");
  plan.cellReferences = ReferencesOf(input->GetCellData(), "cell");

  if (!plan.cells[RidgeSlot].empty())
  {
    // A ridge names an edge: find each ridge's among the Edges being written.
    std::unordered_map<std::uint64_t, std::int64_t> edgeIndex;
    auto key = [](vtkIdType a, vtkIdType b) {
      return (static_cast<std::uint64_t>(std::min(a, b)) << 32) ^
        static_cast<std::uint64_t>(std::max(a, b));
    };
    vtkIdType count;
    const vtkIdType* points;
    const std::vector<vtkIdType>& edges = plan.cells[0];
    for (std::size_t e = 0; e < edges.size(); ++e)
    {
      access.Points(edges[e], count, points);
      edgeIndex.emplace(key(points[0], points[1]), static_cast<std::int64_t>(e + 1));
    }
    for (vtkIdType cell : plan.cells[RidgeSlot])
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
    const int type = FieldType(array, dimension, "cell");
    for (int k = 0; k < gmf::ElementKindCount; ++k)
    {
      // A cell array goes to the kinds where it has a value: the reader fills the cells of
      // other kinds with NaN, and these are not written back as fields of those kinds.
      bool hasValue = false;
      for (vtkIdType cell : plan.cells[k])
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
      bytes += double(plan.cells[k].size()) * 4 * (gmf::ElementKindAt(k).vertices + 1);
    }
    bytes += 4.0 * (plan.cells[CornerSlot].size() + plan.cells[RidgeSlot].size());
    double solutionBytes = 0;
    for (const Field& field : plan.pointFields)
    {
      solutionBytes += 8.0 * field.array->GetNumberOfComponents() * input->GetNumberOfPoints();
    }
    for (int k = 0; k < gmf::ElementKindCount; ++k)
    {
      for (const Field& field : plan.cellFields[k])
      {
        solutionBytes += 8.0 * field.array->GetNumberOfComponents() * plan.cells[k].size();
      }
    }
    if (std::max(bytes, solutionBytes) + 4096 > limit32)
    {
      return 3;
    }
  }
  return single ? 1 : 2;
}

void WriteMesh(vtkPointSet* input, const Plan& plan, const std::string& path, int version,
  int dimension, vtkGMFWriter* progress)
{
  gmf::OutputFile file(path, version, dimension);
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
    const std::vector<vtkIdType>& cells = plan.cells[k];
    if (cells.empty())
    {
      continue;
    }
    const gmf::ElementKind& kind = gmf::ElementKindAt(k);
    file.BeginKeyword(kind.keyword, static_cast<std::int64_t>(cells.size()));
    for (vtkIdType cell : cells)
    {
      access.Points(cell, count, cellPoints);
      const int* order = GmfOrderOf(access.Type(cell));
      for (int j = 0; j < kind.vertices; ++j)
      {
        file.Integer(cellPoints[order[j]] + 1);
      }
      file.Integer(ReferenceValue(plan.cellReferences, cell, "cell"));
      file.EndLine();
    }
    progress->UpdateProgress(0.2 + 0.6 * (k + 1) / gmf::ElementKindCount);
  }
  if (!plan.cells[CornerSlot].empty())
  {
    file.BeginKeyword(gmf::Corners, static_cast<std::int64_t>(plan.cells[CornerSlot].size()));
    for (vtkIdType cell : plan.cells[CornerSlot])
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
  file.Close();
}

void WriteSolutionFile(vtkPointSet* input, const Plan& plan, const std::string& path, int version,
  int dimension)
{
  gmf::OutputFile file(path, version, dimension);
  if (!plan.pointFields.empty())
  {
    file.BeginKeyword(gmf::SolAtVertices, input->GetNumberOfPoints(), TypesOf(plan.pointFields));
    WriteFieldLines(file, plan.pointFields, nullptr, input->GetNumberOfPoints());
  }
  for (int k = 0; k < gmf::ElementKindCount; ++k)
  {
    if (!plan.cellFields[k].empty())
    {
      const std::vector<vtkIdType>& cells = plan.cells[k];
      file.BeginKeyword(gmf::ElementKindAt(k).solutionKeyword,
        static_cast<std::int64_t>(cells.size()), TypesOf(plan.cellFields[k]));
      WriteFieldLines(file, plan.cellFields[k], &cells, static_cast<vtkIdType>(cells.size()));
    }
  }
  file.Close();
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
    WriteMesh(input, plan, path, version, this->Dimension, this);
    bool hasFields = !plan.pointFields.empty();
    for (const auto& fields : plan.cellFields)
    {
      hasFields = hasFields || !fields.empty();
    }
    if (hasFields)
    {
      WriteSolutionFile(input, plan, SolutionFileNameOf(path), version, this->Dimension);
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
