#include "vtkGPUMeshGhostLayer.h"

#include "vtkGPUMeshCellArrays.h"
#include "vtkGPUMeshDistributed.h"
#include "vtkGPUMeshGhostCellMessage.h"
#include "vtkGPUMeshHostLoops.h"
#include "vtkGPUMeshIdMap.h"
#include "vtkGPUMeshOutputArrays.h"
#include "vtkGPUMeshPieceInterface.h"

#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkDataArray.h"
#include "vtkDataSetAttributes.h"
#include "vtkFloatArray.h"
#include "vtkIdList.h"
#include "vtkNew.h"
#include "vtkPointData.h"
#include "vtkPointSet.h"
#include "vtkPoints.h"
#include "vtkPolyData.h"
#include "vtkTimerLog.h"
#include "vtkTypeInt32Array.h"
#include "vtkTypeInt64Array.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include "vtkGPUMeshAdapter.h"
#include "vtkGPUMeshKeptMesh.h"

#include "gpumesh/runtime/Error.h"
#include "gpumesh/topology/CellsTouching.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <limits>
#include <map>

namespace vtkGPUMeshDistributed
{

namespace
{
using vtkGPUMeshGhostCellMessage::ArrayView;
using vtkGPUMeshGhostCellMessage::Message;
constexpr vtkIdType block = 1 << 16;

// One vtkCellArray of the input: its first cell's id and how its cells get a VTK type.
struct Section
{
  enum Kind
  {
    Vertices,
    Lines,
    Polygons,
    Strips,
    Typed // an unstructured grid's cells, typed by its types array
  };
  vtkCellArray* Cells = nullptr;
  vtkIdType FirstCell = 0;
  Kind SectionKind = Typed;
};

struct Cells
{
  std::vector<Section> Sections;
  const unsigned char* Types = nullptr; // a grid's cell types
  const unsigned char* Ghosts = nullptr; // the input's vtkGhostType, or null

  explicit Cells(vtkPointSet* input)
  {
    if (auto* grid = vtkUnstructuredGrid::SafeDownCast(input))
    {
      if (grid->GetCells())
      {
        this->Sections.push_back({ grid->GetCells(), 0, Section::Typed });
        this->Types = grid->GetCellTypesArray()->GetPointer(0);
      }
    }
    else if (auto* poly = vtkPolyData::SafeDownCast(input))
    {
      vtkIdType first = 0;
      const Section::Kind kinds[] = { Section::Vertices, Section::Lines, Section::Polygons, Section::Strips };
      vtkCellArray* arrays[] = { poly->GetVerts(), poly->GetLines(), poly->GetPolys(), poly->GetStrips() };
      for (int k = 0; k < 4; ++k)
      {
        if (arrays[k] && arrays[k]->GetNumberOfCells() > 0)
        {
          this->Sections.push_back({ arrays[k], first, kinds[k] });
          first += arrays[k]->GetNumberOfCells();
        }
      }
    }
    else
    {
      throw gpumesh::Error(std::string("Cannot build ghost cells for a ") + input->GetClassName());
    }
    if (vtkUnsignedCharArray* ghosts = input->GetCellGhostArray())
    {
      this->Ghosts = ghosts->GetPointer(0);
    }
  }

  bool Owned(vtkIdType cell) const
  {
    return !this->Ghosts || !(this->Ghosts[cell] & vtkDataSetAttributes::DUPLICATECELL);
  }

  int TypeOf(const Section& section, vtkIdType cell, vtkIdType size) const
  {
    switch (section.SectionKind)
    {
      case Section::Vertices:
        return size == 1 ? VTK_VERTEX : VTK_POLY_VERTEX;
      case Section::Lines:
        return size == 2 ? VTK_LINE : VTK_POLY_LINE;
      case Section::Polygons:
        return size == 3 ? VTK_TRIANGLE : size == 4 ? VTK_QUAD : VTK_POLYGON;
      case Section::Strips:
        return VTK_TRIANGLE_STRIP;
      default:
        return this->Types[cell];
    }
  }

  const Section& SectionOf(vtkIdType cell) const
  {
    std::size_t s = 0;
    while (s + 1 < this->Sections.size() && this->Sections[s + 1].FirstCell <= cell)
    {
      ++s;
    }
    return this->Sections[s];
  }
};

// The owned cells of the input that use a point flagged (non-zero) in `shared`, ascending.
template <typename Flags>
std::vector<vtkIdType> cellsTouching(const Cells& cells, const Flags& shared)
{
  std::vector<vtkIdType> found;
  for (const Section& section : cells.Sections)
  {
    const std::vector<vtkIdType> part = vtkGPUMeshCellArrays::CellsTouching(
      section.Cells, section.FirstCell, shared, [&](vtkIdType c) { return cells.Owned(c); });
    found.insert(found.end(), part.begin(), part.end());
  }
  return found;
}

// The owned cells of the input holding a shared point (`pairs`: (point, neighbour), sorted by
// point; `setOf`: non-zero at those points), ascending: found on the device in the input's kept
// mesh (`kept`, or got here relative to `origin`) where `device` allows (then no pass over the
// piece's cells here), else by a pass over its cells on all threads.
std::vector<vtkIdType> interfaceCells(vtkPointSet* input, const Cells& cells,
  const gpumesh::HostVector<std::uint16_t>& setOf, const std::vector<std::pair<vtkIdType, std::size_t>>& pairs,
  const PieceDevice* device, const std::array<double, 3>& origin, std::shared_ptr<const gpumesh::DeviceMesh> kept,
  bool& onDevice)
{
  onDevice = false;
  if (device && !cells.Ghosts && vtkGPUMeshKeptMesh::ExtendsOnDevice(*device->Run))
  {
    gpumesh::DeviceRun& run = *device->Run;
    if (!kept)
    {
      auto description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
      description.view.points.origin = origin;
      vtkTimerLogScope upload("GPUMesh: upload mesh");
      kept = vtkGPUMeshKeptMesh::Get(run, vtkGPUMeshPiece::Of(input), std::move(description), device->MinimumDimension);
    }
    // The kept mesh checked every point id: they are the device's 32-bit ones.
    std::vector<cl_int> shared;
    shared.reserve(pairs.size());
    for (const auto& pair : pairs)
      shared.push_back(static_cast<cl_int>(pair.first));
    if (const auto found = gpumesh::cellsTouchingPoints(run, *kept, shared))
    {
      onDevice = true;
      return std::vector<vtkIdType>(found->begin(), found->end());
    }
  }
  return cellsTouching(cells, setOf);
}

// Each neighbour's cells among `interfaceCells` (ascending): those holding a point whose set of
// neighbours (setOf: its index in `sets` plus one, 0 for a point not shared) has it. In fixed
// blocks on all threads, each block's lists joined in block order: every list stays ascending.
std::vector<std::vector<vtkIdType>> cellsForNeighbors(const Cells& cells, const std::vector<vtkIdType>& interfaceCells,
  const gpumesh::HostVector<std::uint16_t>& setOf, const std::vector<std::vector<std::size_t>>& sets,
  std::size_t count)
{
  return vtkGPUMeshHostLoops::Lists<vtkIdType>(static_cast<vtkIdType>(interfaceCells.size()), count, 1 << 12,
    [&](vtkIdType first, vtkIdType last, const auto& add) {
      // A cell's points through its own cell array (vtkPolyData::GetCellPoints would first
      // build the polydata's cell map: a pass over every cell); the list holds them where the
      // array's ids are not vtkIdType.
      vtkNew<vtkIdList> scratch;
      std::vector<std::uint8_t> target(count);
      for (vtkIdType i = first; i < last; ++i)
      {
        const vtkIdType c = interfaceCells[static_cast<std::size_t>(i)];
        const Section& section = cells.SectionOf(c);
        vtkIdType size;
        const vtkIdType* ids;
        section.Cells->GetCellAtId(c - section.FirstCell, size, ids, scratch);
        std::fill(target.begin(), target.end(), 0);
        for (vtkIdType k = 0; k < size; ++k)
        {
          if (const std::uint16_t set = setOf[static_cast<std::size_t>(ids[k])])
            for (std::size_t n : sets[set - 1])
              target[n] = 1;
        }
        for (std::size_t n = 0; n < count; ++n)
        {
          if (target[n])
            add(n, c);
        }
      }
    });
}

// The input's mesh kept on the device where the ghosted piece is built there (a GPU, an input
// without ghost cells of its own) and the device holds the input's own coordinates (not rounded
// to float: the origin, unknown yet, does not matter to it); else null.
std::shared_ptr<const gpumesh::DeviceMesh> keptWithInputCoordinates(vtkPointSet* input, const PieceDevice& device)
{
  gpumesh::DeviceRun& run = *device.Run;
  if (input->GetCellGhostArray() || !vtkGPUMeshKeptMesh::ExtendsOnDevice(run))
    return nullptr;
  auto description = vtkGPUMeshAdapter::DescribeMesh(input, run.precision());
  if (description.view.points.roundedIn(run.precision()))
    return nullptr;
  vtkTimerLogScope upload("GPUMesh: upload mesh");
  return vtkGPUMeshKeptMesh::Get(run, vtkGPUMeshPiece::Of(input), std::move(description), device.MinimumDimension);
}

// `cellIds` of the input with their points, point and cell arrays and the points' global ids,
// as the message a neighbour reads (vtkGPUMeshGhostCellMessage). The cells are gathered on all
// threads (the cells' sizes, where each cell's ids go, then the ids and types, in fixed blocks)
// where there are many (a tetrahedron piece's); within a block of messages written at once,
// on that block's thread.
vtkGPUMeshNeighbors::Buffer packCells(vtkPointSet* input, const Cells& cells, const std::vector<vtkIdType>& cellIds,
  const vtkGPUMeshGlobalPointIds& globalIds, gpumesh::HostVector<std::int32_t>& localOf,
  std::vector<vtkIdType>& points)
{
  constexpr vtkIdType block = 1 << 13;
  const auto count = static_cast<vtkIdType>(cellIds.size());
  const vtkIdType blocks = (count + block - 1) / block;
  vtkGPUMeshGhostCellMessage::Cells sent;
  sent.Types.resize(cellIds.size());
  sent.Offsets.resize(cellIds.size() + 1);
  sent.Offsets[0] = 0;
  std::vector<vtkIdType> idsBefore(static_cast<std::size_t>(blocks) + 1, 0); // per block
  vtkGPUMeshHostLoops::For(0, blocks, 1, [&](vtkIdType first, vtkIdType last) {
    for (vtkIdType b = first; b < last; ++b)
    {
      vtkIdType ids = 0;
      for (vtkIdType i = b * block; i < std::min(count, (b + 1) * block); ++i)
      {
        const vtkIdType cell = cellIds[static_cast<std::size_t>(i)];
        const Section& section = cells.SectionOf(cell);
        ids += section.Cells->GetCellSize(cell - section.FirstCell);
        sent.Offsets[static_cast<std::size_t>(i) + 1] = ids;
      }
      idsBefore[static_cast<std::size_t>(b) + 1] = ids;
    }
  });
  for (std::size_t b = 1; b < idsBefore.size(); ++b)
    idsBefore[b] += idsBefore[b - 1];
  sent.Ids.resize(static_cast<std::size_t>(idsBefore.back()));
  vtkGPUMeshHostLoops::For(0, blocks, 1, [&](vtkIdType first, vtkIdType last) {
    vtkNew<vtkIdList> scratch;
    for (vtkIdType b = first; b < last; ++b)
    {
      for (vtkIdType i = b * block; i < std::min(count, (b + 1) * block); ++i)
      {
        const vtkIdType cell = cellIds[static_cast<std::size_t>(i)];
        const Section& section = cells.SectionOf(cell);
        vtkIdType size;
        const vtkIdType* ids;
        section.Cells->GetCellAtId(cell - section.FirstCell, size, ids, scratch);
        vtkIdType& end = sent.Offsets[static_cast<std::size_t>(i) + 1];
        end += idsBefore[static_cast<std::size_t>(b)];
        std::copy(ids, ids + size, sent.Ids.begin() + (end - size));
        sent.Types[static_cast<std::size_t>(i)] = static_cast<unsigned char>(cells.TypeOf(section, cell, size));
      }
    }
  });
  return vtkGPUMeshGhostCellMessage::Write(input, sent, cellIds, globalIds.InputIds(), localOf, &points);
}

// Where each ghost cell and each added point of the piece comes from.
struct Received
{
  std::vector<Message> Grids; // the messages with cells, read in place
  std::vector<std::pair<int, vtkIdType>> AddedPoints; // (grid, its point)
  std::vector<long long> AddedPointIds;
  std::vector<std::vector<vtkIdType>> PieceOfPoint; // per grid, per its point: the piece point
  vtkIdType Cells = 0;
  vtkIdType Connectivity = 0;
  bool AllFixedSize = true; // every received cell of a type of a fixed number of points
};

// New arrays like those of `input` (name, components, information), of `total` tuples: the
// first `owned` copied from the input's first ones, or gathered from `sources` when given, all
// arrays in one pass on all threads into fresh huge pages (vtkGPUMeshOutputArrays::GatherArrays);
// the others from fillAdded.
void addArrays(vtkDataSetAttributes* input, vtkDataSetAttributes* out, vtkIdType total,
  const std::vector<vtkIdType>* sources, vtkIdType owned,
  const std::function<void(vtkAbstractArray* array, const char* name)>& fillAdded)
{
  std::vector<vtkSmartPointer<vtkAbstractArray>> arrays;
  std::vector<vtkAbstractArray*> to, from;
  for (int a = 0; a < input->GetNumberOfArrays(); ++a)
  {
    from.push_back(input->GetAbstractArray(a));
    arrays.push_back(vtkGPUMeshOutputArrays::NewOutputLike(from.back(), total));
    to.push_back(arrays.back());
  }
  vtkGPUMeshOutputArrays::GatherArrays(to, from, owned, sources ? 0 : owned, sources ? sources->data() : nullptr);
  for (std::size_t a = 0; a < arrays.size(); ++a)
  {
    fillAdded(arrays[a], from[a]->GetName());
    out->AddArray(arrays[a]);
  }
  vtkGPUMeshOutputArrays::PassActiveAttributes(input, out);
}

// Per received grid: its point or cell array named `name` (null when it has none).
std::vector<const ArrayView*> sourcesNamed(const Received& received, bool atPoints, const char* name)
{
  std::vector<const ArrayView*> sources;
  for (const Message& grid : received.Grids)
    sources.push_back(Message::Named(atPoints ? grid.PointArrays : grid.CellArrays, name));
  return sources;
}

// Sets tuple `to` of `array` from tuple `from` of `source` (a received array of the same
// name), or to zeros when there is none.
void setTuple(vtkAbstractArray* array, vtkIdType to, vtkAbstractArray* source, vtkIdType from)
{
  if (source && source->GetNumberOfComponents() == array->GetNumberOfComponents() &&
    source->GetDataType() == array->GetDataType())
  {
    array->SetTuple(to, from, source);
  }
  else if (auto* data = vtkDataArray::SafeDownCast(array))
  {
    if (source && vtkDataArray::SafeDownCast(source) && source->GetNumberOfComponents() == array->GetNumberOfComponents())
    {
      data->SetTuple(to, vtkDataArray::SafeDownCast(source)->GetTuple(from));
    }
    else
    {
      for (int k = 0; k < data->GetNumberOfComponents(); ++k)
        data->SetComponent(to, k, 0.0);
    }
  }
}

// Copies tuples of the received grids' arrays (`sources`, one per grid, read in place, null
// where a grid lacks it) into `array`: as bytes where the array has VTK's standard layout and
// the source the same value type and components (no virtual call per tuple); else through
// setTuple from a copy of the source (a type the sender's array had and this one has not).
class TupleCopier
{
public:
  TupleCopier(vtkAbstractArray* array, const std::vector<const ArrayView*>& sources)
    : Array(array)
    , SourceBases(sources.size(), nullptr)
    , Converted(sources.size())
  {
    auto* data = vtkDataArray::SafeDownCast(array);
    const bool plain = data && data->HasStandardMemoryLayout() && data->GetDataType() != VTK_BIT &&
      data->GetDataTypeSize() > 0 && data->GetNumberOfTuples() > 0;
    if (plain)
    {
      this->Base = static_cast<char*>(data->GetVoidPointer(0));
      this->Bytes = static_cast<std::size_t>(data->GetNumberOfComponents()) * static_cast<std::size_t>(data->GetDataTypeSize());
    }
    for (std::size_t g = 0; g < sources.size(); ++g)
    {
      const ArrayView* source = sources[g];
      if (!source)
        continue;
      if (plain && source->Type == data->GetDataType() && source->Components == data->GetNumberOfComponents() &&
        source->TupleBytes == this->Bytes)
      {
        this->SourceBases[g] = source->Values;
        continue;
      }
      vtkSmartPointer<vtkDataArray> copy = vtk::TakeSmartPointer(vtkDataArray::CreateDataArray(source->Type));
      copy->SetNumberOfComponents(source->Components);
      copy->SetNumberOfTuples(source->Tuples);
      if (source->Tuples > 0)
        std::memcpy(copy->GetVoidPointer(0), source->Values, static_cast<std::size_t>(source->Tuples) * source->TupleBytes);
      this->Converted[g] = copy;
    }
  }
  // Whether every grid's tuples go as bytes: then copies to distinct tuples may run at once.
  bool AsBytes() const
  {
    return std::all_of(this->SourceBases.begin(), this->SourceBases.end(), [](const char* base) { return base; });
  }
  void Copy(vtkIdType to, std::size_t grid, vtkIdType from)
  {
    if (const char* base = this->SourceBases[grid])
      std::memcpy(this->Base + static_cast<std::size_t>(to) * this->Bytes, base + static_cast<std::size_t>(from) * this->Bytes, this->Bytes);
    else
      setTuple(this->Array, to, this->Converted[grid], from);
  }
  // Tuples [0, count) of grid `grid` to tuples [to, to + count).
  void CopyRun(vtkIdType to, std::size_t grid, vtkIdType count)
  {
    if (const char* base = this->SourceBases[grid])
      std::memcpy(this->Base + static_cast<std::size_t>(to) * this->Bytes, base, static_cast<std::size_t>(count) * this->Bytes);
    else
      for (vtkIdType k = 0; k < count; ++k)
        setTuple(this->Array, to + k, this->Converted[grid], k);
  }

private:
  vtkAbstractArray* Array;
  std::vector<const char*> SourceBases;
  std::vector<vtkSmartPointer<vtkDataArray>> Converted;
  char* Base = nullptr;
  std::size_t Bytes = 0;
};

// The received grids' points (their coordinates), one per grid.
std::vector<const ArrayView*> pointsOfGrids(const Received& received)
{
  std::vector<const ArrayView*> sources;
  for (const Message& grid : received.Grids)
    sources.push_back(&grid.Xyz);
  return sources;
}

// Loops of the assembly over a message's cells or points: on all threads where the messages are
// large (a tetrahedron piece's), on one for a triangle piece's few thousand cells, where
// starting the threads costs more than the copies.
constexpr vtkIdType assemblyGrain = 1 << 15;

// Each added point's tuple, from the grid it came in, to tuples [to, to + added points): on all
// threads where they go as bytes.
void copyAddedPoints(TupleCopier& copier, const Received& received, vtkIdType to)
{
  const auto copy = [&](vtkIdType begin, vtkIdType end) {
    for (vtkIdType a = begin; a < end; ++a)
    {
      const auto& [grid, point] = received.AddedPoints[static_cast<std::size_t>(a)];
      copier.Copy(to + a, static_cast<std::size_t>(grid), point);
    }
  };
  const auto added = static_cast<vtkIdType>(received.AddedPoints.size());
  if (copier.AsBytes())
    vtkGPUMeshHostLoops::For(0, added, assemblyGrain, copy);
  else
    copy(0, added);
}

// Every received cell's tuple, grid after grid, to tuples [to, to + received cells).
void copyReceivedCells(TupleCopier& copier, const Received& received, vtkIdType to)
{
  for (std::size_t g = 0; g < received.Grids.size(); ++g)
  {
    copier.CopyRun(to, g, received.Grids[g].Cells);
    to += received.Grids[g].Cells;
  }
}

// The received cells from cell `cell` and point id `at` on: offsets, point ids in the piece's
// numbering, types. Ends with the offset after the last cell.
template <typename Index>
void writeReceivedCells(const Received& received, vtkIdType cell, vtkIdType at, Index* offsets, Index* ids,
  unsigned char* types)
{
  for (std::size_t g = 0; g < received.Grids.size(); ++g)
  {
    const Message& grid = received.Grids[g];
    const std::vector<vtkIdType>& pieceOf = received.PieceOfPoint[g];
    // Straight from the message (its ids were checked when it was read): a cell's ids go
    // where its offset in the message puts them.
    vtkGPUMeshHostLoops::For(0, grid.Cells, assemblyGrain, [&](vtkIdType begin, vtkIdType end) {
      for (vtkIdType c = begin; c < end; ++c)
      {
        offsets[cell + c] = static_cast<Index>(at + grid.Offset(c));
        for (auto k = grid.Offset(c); k < grid.Offset(c + 1); ++k)
          ids[at + k] = static_cast<Index>(pieceOf[static_cast<std::size_t>(grid.Id(k))]);
        types[cell + c] = grid.Types[c];
      }
    });
    cell += grid.Cells;
    at += grid.Ids;
  }
  offsets[cell] = static_cast<Index>(at);
}

// The piece: the input's points and owned cells, then the received cells and their points.
void assemble(vtkPointSet* input, const Cells& cells, const Received& received, GhostedPiece& piece)
{
  const vtkIdType inputPoints = input->GetNumberOfPoints();
  const vtkIdType added = static_cast<vtkIdType>(received.AddedPoints.size());
  const vtkIdType points = inputPoints + added;

  // Owned cells by blocks of each section: counted, then filled in parallel (offsets,
  // connectivity, types), so that the owned cells keep the input's order.
  const vtkIdType inputCells = input->GetNumberOfCells();
  struct Block
  {
    const Section* InSection;
    vtkIdType First, Last; // cells of the section
    vtkIdType CellsBefore = 0, IdsBefore = 0;
  };
  std::vector<Block> blocks;
  for (const Section& section : cells.Sections)
  {
    for (vtkIdType c = 0; c < section.Cells->GetNumberOfCells(); c += block)
      blocks.push_back({ &section, c, std::min(section.Cells->GetNumberOfCells(), c + block) });
  }
  const auto blockCount = static_cast<vtkIdType>(blocks.size());
  std::vector<vtkIdType> ownedIn(blocks.size() + 1, 0), idsIn(blocks.size() + 1, 0);
  vtkGPUMeshHostLoops::For(0, blockCount, [&](vtkIdType first, vtkIdType last) {
    for (vtkIdType b = first; b < last; ++b)
    {
      const Block& range = blocks[b];
      vtkGPUMeshCellArrays::WithStorage(range.InSection->Cells, [&](const auto* offsets, const auto*) {
        for (vtkIdType c = range.First; c < range.Last; ++c)
        {
          if (cells.Owned(range.InSection->FirstCell + c))
          {
            ++ownedIn[b + 1];
            idsIn[b + 1] += offsets[c + 1] - offsets[c];
          }
        }
      });
    }
  });
  for (vtkIdType b = 0; b < blockCount; ++b)
  {
    ownedIn[b + 1] += ownedIn[b];
    idsIn[b + 1] += idsIn[b];
  }
  const vtkIdType owned = ownedIn[blockCount];
  const vtkIdType ownedIds = idsIn[blockCount];
  const vtkIdType total = owned + received.Cells;
  const vtkIdType totalIds = ownedIds + received.Connectivity;

  piece.OwnedCells = owned;
  if (owned != inputCells)
  {
    piece.OwnedInputCell.resize(static_cast<std::size_t>(owned));
  }
  auto types = vtkGPUMeshOutputArrays::New<vtkUnsignedCharArray>(total);
  unsigned char* typeOut = types->GetPointer(0);
  // 32-bit cells when the piece allows: half the bytes to write and to upload.
  const bool narrow = points < std::numeric_limits<std::int32_t>::max() &&
    totalIds < std::numeric_limits<std::int32_t>::max();
  vtkNew<vtkCellArray> cellArray;
  const auto fill = [&](auto* offsetsOut, auto* idsOut) {
    using Index = std::remove_pointer_t<decltype(offsetsOut)>;
    vtkGPUMeshHostLoops::For(0, blockCount, [&](vtkIdType first, vtkIdType last) {
      for (vtkIdType b = first; b < last; ++b)
      {
        const Block& range = blocks[b];
        const Section& section = *range.InSection;
        vtkIdType cell = ownedIn[b];
        vtkIdType at = idsIn[b];
        vtkGPUMeshCellArrays::WithStorage(section.Cells, [&](const auto* offsets, const auto* ids) {
          for (vtkIdType c = range.First; c < range.Last; ++c)
          {
            const vtkIdType inputCell = section.FirstCell + c;
            if (!cells.Owned(inputCell))
              continue;
            const vtkIdType size = offsets[c + 1] - offsets[c];
            offsetsOut[cell] = static_cast<Index>(at);
            for (vtkIdType k = 0; k < size; ++k)
              idsOut[at + k] = static_cast<Index>(ids[offsets[c] + k]);
            typeOut[cell] = static_cast<unsigned char>(cells.TypeOf(section, inputCell, size));
            if (!piece.OwnedInputCell.empty())
              piece.OwnedInputCell[cell] = inputCell;
            at += size;
            ++cell;
          }
        });
      }
    });
    writeReceivedCells(received, owned, ownedIds, offsetsOut, idsOut, typeOut);
  };
  if (narrow)
  {
    auto offsets = vtkGPUMeshOutputArrays::New<vtkTypeInt32Array>(total + 1);
    auto ids = vtkGPUMeshOutputArrays::New<vtkTypeInt32Array>(totalIds);
    fill(offsets->GetPointer(0), ids->GetPointer(0));
    cellArray->SetData(offsets, ids);
  }
  else
  {
    auto offsets = vtkGPUMeshOutputArrays::New<vtkTypeInt64Array>(total + 1);
    auto ids = vtkGPUMeshOutputArrays::New<vtkTypeInt64Array>(totalIds);
    fill(offsets->GetPointer(0), ids->GetPointer(0));
    cellArray->SetData(offsets, ids);
  }

  auto mesh = vtkSmartPointer<vtkUnstructuredGrid>::New();
  // Without faces: the two-argument SetCells scans every type for polyhedra on one thread
  // (a polyhedron is refused by name when the piece is described to the device).
  mesh->SetCells(types, cellArray, nullptr, nullptr);

  // Points: the input's, then the added ones.
  vtkNew<vtkPoints> xyz;
  if (input->GetPoints())
  {
    vtkDataArray* inputXyz = input->GetPoints()->GetData();
    xyz->SetData(vtkDataArray::SafeDownCast(vtkGPUMeshOutputArrays::NewOutputLike(inputXyz, points)));
    vtkGPUMeshOutputArrays::CopyTuples(xyz->GetData(), inputXyz, inputPoints);
  }
  else
  {
    xyz->SetNumberOfPoints(points);
  }
  {
    TupleCopier copier(xyz->GetData(), pointsOfGrids(received));
    copyAddedPoints(copier, received, inputPoints);
  }
  mesh->SetPoints(xyz);

  const bool allOwned = owned == inputCells;
  addArrays(input->GetPointData(), mesh->GetPointData(), points, nullptr, inputPoints,
    [&](vtkAbstractArray* array, const char* name) {
      TupleCopier copier(array, sourcesNamed(received, true, name));
      copyAddedPoints(copier, received, inputPoints);
    });
  const char* ghostName = vtkDataSetAttributes::GhostArrayName();
  addArrays(input->GetCellData(), mesh->GetCellData(), total, allOwned ? nullptr : &piece.OwnedInputCell, owned,
    [&](vtkAbstractArray* array, const char* name) {
      TupleCopier copier(array, sourcesNamed(received, false, name));
      copyReceivedCells(copier, received, owned);
    });
  vtkUnsignedCharArray* ghosts = vtkUnsignedCharArray::SafeDownCast(mesh->GetCellData()->GetArray(ghostName));
  if (!ghosts)
  {
    vtkNew<vtkUnsignedCharArray> fresh;
    fresh->SetName(ghostName);
    fresh->SetNumberOfTuples(total);
    vtkGPUMeshHostLoops::Fill(fresh->GetPointer(0), fresh->GetPointer(0) + owned, static_cast<unsigned char>(0));
    mesh->GetCellData()->AddArray(fresh);
    ghosts = fresh;
  }
  for (vtkIdType c = owned; c < total; ++c)
  {
    ghosts->SetValue(c, ghosts->GetValue(c) | vtkDataSetAttributes::DUPLICATECELL);
  }
  mesh->GetFieldData()->ShallowCopy(input->GetFieldData());
  piece.Mesh = mesh;
}

// Whether the device takes cells of this type from two sections (those of a fixed number of
// points; the others would need their offsets joined).
bool fixedSize(int type)
{
  switch (type)
  {
    case VTK_VERTEX:
    case VTK_LINE:
    case VTK_TRIANGLE:
    case VTK_QUAD:
    case VTK_PIXEL:
    case VTK_TETRA:
    case VTK_VOXEL:
    case VTK_HEXAHEDRON:
    case VTK_WEDGE:
    case VTK_PYRAMID:
      return true;
    default:
      return false;
  }
}

// Arrays like those of `input`, of `count` tuples (in reused host pages: each is written once,
// and fresh pages would fault on that first write), filled from the same-named arrays of the
// received grids' point or cell data (zeros where a grid lacks one).
void layerArrays(vtkDataSetAttributes* input, vtkDataSetAttributes* out, vtkIdType count, const std::function<void(vtkAbstractArray*, const char*)>& fill)
{
  for (int a = 0; a < input->GetNumberOfArrays(); ++a)
  {
    vtkAbstractArray* source = input->GetAbstractArray(a);
    vtkSmartPointer<vtkAbstractArray> array = vtkGPUMeshOutputArrays::NewOutputLike(source, count);
    fill(array, source->GetName());
    out->AddArray(array);
  }
}

// The received cells as the piece's ghost layer (vtkGPUMeshPiece): the input is the piece's
// Mesh as it is, and the cells, their points the input lacks and their arrays follow it.
void addLayer(vtkPointSet* input, const Received& received, GhostedPiece& piece)
{
  const auto added = static_cast<vtkIdType>(received.AddedPoints.size());
  piece.Mesh = input;
  piece.OwnedCells = input->GetNumberOfCells();

  // Fresh arrays in reused host pages (vtkGPUMeshOutputArrays), each written once below.
  auto offsets = vtkGPUMeshOutputArrays::New<vtkTypeInt64Array>(received.Cells + 1);
  auto connectivity = vtkGPUMeshOutputArrays::New<vtkTypeInt64Array>(received.Connectivity);
  auto types = vtkGPUMeshOutputArrays::New<vtkUnsignedCharArray>(received.Cells);
  writeReceivedCells(received, 0, 0, offsets->GetPointer(0), connectivity->GetPointer(0), types->GetPointer(0));
  piece.Layer.MoreCells = vtkSmartPointer<vtkCellArray>::New();
  piece.Layer.MoreCells->SetData(offsets, connectivity);
  piece.Layer.MoreTypes = types;

  vtkDataArray* inputXyz = input->GetPoints() ? input->GetPoints()->GetData() : nullptr;
  if (inputXyz && inputXyz->HasStandardMemoryLayout())
    piece.Layer.MorePoints = vtkGPUMeshOutputArrays::NewLike(inputXyz, added);
  else
  {
    if (inputXyz)
      piece.Layer.MorePoints = vtk::TakeSmartPointer(inputXyz->NewInstance());
    else
      piece.Layer.MorePoints = vtkSmartPointer<vtkFloatArray>::New();
    piece.Layer.MorePoints->SetNumberOfComponents(3);
    piece.Layer.MorePoints->SetNumberOfTuples(added);
  }
  {
    TupleCopier copier(piece.Layer.MorePoints, pointsOfGrids(received));
    copyAddedPoints(copier, received, 0);
  }
  piece.Layer.MorePointData = vtkSmartPointer<vtkPointData>::New();
  layerArrays(input->GetPointData(), piece.Layer.MorePointData, added, [&](vtkAbstractArray* array, const char* name) {
    TupleCopier copier(array, sourcesNamed(received, true, name));
    copyAddedPoints(copier, received, 0);
  });
  piece.Layer.MoreCellData = vtkSmartPointer<vtkCellData>::New();
  layerArrays(input->GetCellData(), piece.Layer.MoreCellData, received.Cells, [&](vtkAbstractArray* array, const char* name) {
    TupleCopier copier(array, sourcesNamed(received, false, name));
    copyReceivedCells(copier, received, 0);
  });
}
} // namespace

GhostedPiece BuildGhostedPiece(vtkPointSet* input, vtkMultiProcessController* controller, const PieceDevice* device)
{
  GhostedPiece piece;
  vtkTimerLog::MarkStartEvent("GPUMesh: piece interface");
  // With a device, the box first: the origin of the input's device mesh follows from it. Where
  // the device holds the input's own coordinates the origin does not matter to that mesh: it
  // goes there first, and the device finds the box and the points in the neighbours' boxes.
  std::shared_ptr<const gpumesh::DeviceMesh> kept;
  vtkGPUMeshPieceBox box;
  if (device)
  {
    AllSucceed(controller, [&] {
      kept = keptWithInputCoordinates(input, *device);
      box = kept ? vtkGPUMeshPieceBox::OnDevice(*device->Run, *kept) : vtkGPUMeshPieceBox::Of(input);
    });
  }
  vtkGPUMeshPieceInterface interface = vtkGPUMeshPieceInterface::Find(input, controller, device ? &box : nullptr);
  const std::array<double, 3> origin =
    device ? GlobalBoundsCentre(box.Box, controller) : std::array<double, 3>{ 0.0, 0.0, 0.0 };
  vtkTimerLog::MarkEndEvent("GPUMesh: piece interface");
  vtkGPUMeshNeighbors& neighbors = interface.Neighbors;
  const std::size_t count = neighbors.Count();
  const vtkIdType inputPoints = input->GetNumberOfPoints();

  // What each neighbour gets: the owned cells touching a point the two share.
  std::vector<vtkGPUMeshNeighbors::Buffer> sent(count);
  AllSucceed(controller, [&] {
    vtkTimerLogScope packing("GPUMesh: pack ghost cells");
    const Cells cells(input);
    // The neighbours of each shared point, as one of the few distinct sets that occur: a dense
    // per-point index (0: not shared), zeroed on all threads and read for every point of every
    // interface cell (a hash map's lookups cost more where the interface is large: tetrahedra).
    // (point, neighbour) pairs of the interface, sorted: each point's run is its set.
    std::vector<std::pair<vtkIdType, std::size_t>> pairs;
    for (std::size_t n = 0; n < count; ++n)
    {
      for (vtkIdType p : interface.Shared[n])
        pairs.emplace_back(p, n);
    }
    std::sort(pairs.begin(), pairs.end());
    std::vector<std::vector<std::size_t>> sets;
    std::map<std::vector<std::size_t>, std::uint16_t> setIndex;
    gpumesh::HostVector<std::uint16_t> setOf(static_cast<std::size_t>(inputPoints));
    vtkGPUMeshHostLoops::Fill(setOf.begin(), setOf.end(), std::uint16_t(0));
    std::vector<std::size_t> set;
    for (std::size_t i = 0; i < pairs.size();)
    {
      const vtkIdType p = pairs[i].first;
      set.clear();
      for (; i < pairs.size() && pairs[i].first == p; ++i)
        set.push_back(pairs[i].second);
      auto found = setIndex.find(set);
      if (found == setIndex.end())
      {
        if (sets.size() + 1 > std::numeric_limits<std::uint16_t>::max())
          throw gpumesh::Error("Too many distinct sets of neighbouring processes share points with this piece");
        found = setIndex.emplace(set, static_cast<std::uint16_t>(sets.size() + 1)).first;
        sets.push_back(set);
      }
      setOf[static_cast<std::size_t>(p)] = found->second;
    }
    // The owned cells that use a shared point, ascending: those sent.
    const std::vector<vtkIdType> sharing =
      interfaceCells(input, cells, setOf, pairs, device, origin, kept, piece.InterfaceCellsOnDevice);
    const std::vector<std::vector<vtkIdType>> cellsFor = cellsForNeighbors(cells, sharing, setOf, sets, count);
    // The points sent, each message's own list (each point once per message) as it is: their
    // one reader looks them up by global id, in any order.
    std::vector<std::vector<vtkIdType>> messagePoints(count);
    std::vector<std::size_t> nonEmpty;
    std::size_t messageCells = 0;
    for (std::size_t n = 0; n < count; ++n)
    {
      if (!cellsFor[n].empty())
        nonEmpty.push_back(n);
      messageCells += cellsFor[n].size();
    }
    // A message numbers its points in one pass over its cells, with a table of local point
    // numbers as large as the piece (Write leaves it as it found it, for the next message). Several messages at
    // once need a table each, worth its fill only where the messages are large beside the
    // piece (a tetrahedron piece's, not a triangle piece's: measured on 4 H200, h200x4-s17b).
    const bool atOnce = nonEmpty.size() > 1 && 4 * messageCells >= static_cast<std::size_t>(inputPoints);
    // Block b of `blocks` of the messages, one after the other with one table.
    const auto packBlock = [&](std::size_t b, std::size_t blocks) {
      gpumesh::HostVector<std::int32_t> localOf; // filled by the block's first message
      for (std::size_t i = nonEmpty.size() * b / blocks; i < nonEmpty.size() * (b + 1) / blocks; ++i)
      {
        const std::size_t n = nonEmpty[i];
        sent[n] = packCells(input, cells, cellsFor[n], interface.GlobalIds, localOf, messagePoints[n]);
      }
    };
    if (!atOnce)
    {
      packBlock(0, 1); // the table's fill on all threads
    }
    else
    {
      // A block of messages a thread (a piece between two others writes its two at once).
      const std::size_t blocks = std::min<std::size_t>(nonEmpty.size(), vtkGPUMeshHostLoops::Threads());
      vtkGPUMeshHostLoops::For(0, static_cast<vtkIdType>(blocks), 1, [&](vtkIdType first, vtkIdType last) {
        for (vtkIdType b = first; b < last; ++b)
          packBlock(static_cast<std::size_t>(b), blocks);
      });
    }
    for (const std::vector<vtkIdType>& points : messagePoints)
      piece.SentPoints.insert(piece.SentPoints.end(), points.begin(), points.end());
  });
  vtkTimerLog::MarkStartEvent("GPUMesh: exchange ghost cells");
  const std::vector<vtkGPUMeshNeighbors::Buffer> bytes = neighbors.Exchange(sent);
  vtkTimerLog::MarkEndEvent("GPUMesh: exchange ghost cells");
  piece.BytesExchanged = neighbors.BytesExchanged();

  AllSucceed(controller, [&] {
    vtkTimerLogScope assembling("GPUMesh: assemble ghosted piece");
    const Cells cells(input);
    Received received;
    // Points of received cells: the shared ones are this piece's, the others are added once
    // (ghost cells of two processes may share a point this one lacks).
    std::vector<Message> grids(count); // read in place: `bytes` outlives them
    // Each message checked in turn (on all threads where it is large).
    for (std::size_t n = 0; n < count; ++n)
      grids[n] = vtkGPUMeshGhostCellMessage::Read(bytes[n], neighbors.Ranks()[n]);
    std::size_t expected = 0; // ids the map below will hold at most
    for (std::size_t n = 0; n < count; ++n)
      expected += interface.Shared[n].size() + static_cast<std::size_t>(grids[n].Points);
    vtkGPUMeshIdMap pieceOfId(expected);
    for (std::size_t n = 0; n < count; ++n)
    {
      for (vtkIdType p : interface.Shared[n])
        pieceOfId.Emplace(interface.GlobalIds[static_cast<std::size_t>(p)], p);
    }
    for (std::size_t n = 0; n < count; ++n)
    {
      Message& grid = grids[n];
      if (grid.Cells == 0) // a message's points are those of its cells: none to add without them
        continue;
      std::vector<vtkIdType> pieceOf(static_cast<std::size_t>(grid.Points));
      for (vtkIdType p = 0; p < grid.Points; ++p)
      {
        const long long id = grid.GlobalId(p);
        const auto [at, added] =
          pieceOfId.Emplace(id, inputPoints + static_cast<vtkIdType>(received.AddedPoints.size()));
        if (added)
        {
          received.AddedPoints.emplace_back(static_cast<int>(received.Grids.size()), p);
          received.AddedPointIds.push_back(id);
        }
        pieceOf[p] = at;
      }
      received.Cells += grid.Cells;
      for (vtkIdType c = 0; c < grid.Cells && received.AllFixedSize; ++c)
        received.AllFixedSize = fixedSize(grid.Types[c]);
      received.Connectivity += grid.Ids;
      received.PieceOfPoint.push_back(std::move(pieceOf));
      piece.GhostCellOwners.emplace_back(neighbors.Ranks()[n], grid.Cells);
      received.Grids.push_back(std::move(grid));
    }
    if (received.Grids.empty() && !cells.Ghosts)
    {
      // Nothing to add or leave out: the input itself.
      piece.Mesh = vtk::TakeSmartPointer(input->NewInstance());
      piece.Mesh->ShallowCopy(input);
      piece.OwnedCells = input->GetNumberOfCells();
    }
    else if (!cells.Ghosts && received.AllFixedSize)
    {
      addLayer(input, received, piece);
    }
    else
    {
      assemble(input, cells, received, piece);
    }
    piece.InputGlobalIds = std::move(interface.GlobalIds); // moved, not copied: the input's array, or as large as the piece
    piece.AddedGlobalIds = std::move(received.AddedPointIds);
    piece.InputPoints = inputPoints;
    piece.InputBox = interface.Neighbors.OwnBox();
  });
  return piece;
}

std::vector<vtkIdType> PieceCellsOfInput(const GhostedPiece& piece, vtkIdType inputCells)
{
  std::vector<vtkIdType> source;
  if (!piece.OwnedInputCell.empty())
  {
    source.assign(static_cast<std::size_t>(inputCells), -1);
    for (std::size_t c = 0; c < piece.OwnedInputCell.size(); ++c)
      source[piece.OwnedInputCell[c]] = static_cast<vtkIdType>(c);
  }
  return source;
}

} // namespace vtkGPUMeshDistributed
