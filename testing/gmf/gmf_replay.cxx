// The GMF reader and writer under AddressSanitizer and UndefinedBehaviorSanitizer.
//
// Built from plugin/IO's sources (and the few Adapter and core pieces they use) with
// -fsanitize=address,undefined; ParaView's VTK libraries are linked as they are. Replays
//   1. every seed file (testing/gmf/fixtures, data/gmf) as it is;
//   2. `--variants` mutations of them, generated deterministically from `--seed`: byte and bit
//      flips, truncations, keywords removed, repeated or swapped (the next positions of a
//      binary file rewritten to match), counts, versions and dimensions replaced by edge
//      values (0, -1, 2^31, 2^32 + 1, 2^63 - 1, ...), bit flips in the binary headers;
//   3. hand-made writer inputs that GMF cannot hold (wrong point counts, unknown cell types,
//      point ids out of range, short arrays), and corrupted copies of what the reader gave.
// Each readable variant is written back (text or binary, in a temporary directory) and the
// written file read again. A sanitizer report or a crash ends the run with a failure (the
// variant is saved as replay-failure.<ext> in the working directory, with the command that
// replays it alone); so does a broken promise of the reader: output left after an error, a
// cell naming a point that does not exist, or a file it wrote that it cannot read back. An
// ordinary error of the reader or the writer is not a failure.
//
// Usage: gmf_replay [--variants N] [--seed S] [--seconds T] [--only I] [--verbose] DIR...
//   --seconds: stop generating variants after T seconds (the prefix run is reported).
#include "vtkGMFReader.h"
#include "vtkGMFWriter.h"

#include "vtkCallbackCommand.h"
#include "vtkCellArray.h"
#include "vtkCellData.h"
#include "vtkCellType.h"
#include "vtkFieldData.h"
#include "vtkIdList.h"
#include "vtkIntArray.h"
#include "vtkLogger.h"
#include "vtkNew.h"
#include "vtkObject.h"
#include "vtkObjectFactory.h"
#include "vtkOutputWindow.h"
#include "vtkPointData.h"
#include "vtkPoints.h"
#include "vtkUnsignedCharArray.h"
#include "vtkUnstructuredGrid.h"

#include <sanitizer/common_interface_defs.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

namespace
{
using Bytes = std::vector<char>;

// ---------------------------------------------------------------------------------------
// What is being replayed, for the report of a sanitizer or a signal.

std::string CurrentName = "(start-up)";
Bytes CurrentMesh;
Bytes CurrentSolution;
std::string CurrentMeshExtension;
std::string CurrentSolutionExtension;
std::string ReplayCommand;

void SaveCurrent()
{
  std::fprintf(stderr, "\ngmf_replay: failed on %s\n", CurrentName.c_str());
  if (!CurrentMesh.empty())
  {
    const std::string mesh = "replay-failure" + CurrentMeshExtension;
    std::ofstream(mesh, std::ios::binary).write(CurrentMesh.data(), CurrentMesh.size());
    std::fprintf(stderr, "gmf_replay: the mesh is saved as %s\n", mesh.c_str());
    if (!CurrentSolution.empty())
    {
      const std::string solution = "replay-failure" + CurrentSolutionExtension;
      std::ofstream(solution, std::ios::binary).write(CurrentSolution.data(), CurrentSolution.size());
      std::fprintf(stderr, "gmf_replay: its solution as %s\n", solution.c_str());
    }
  }
  std::fprintf(stderr, "gmf_replay: replay it alone with: %s\n", ReplayCommand.c_str());
}

void OnSanitizerDeath()
{
  SaveCurrent();
}

void OnSignal(int signal)
{
  // Not async-signal-safe, but the process is about to end anyway.
  std::fprintf(stderr, "\ngmf_replay: signal %d (%s)\n", signal,
    signal == SIGALRM ? "a variant ran for more than 20 s: a hang" : strsignal(signal));
  SaveCurrent();
  std::_Exit(3);
}

[[noreturn]] void Broken(const std::string& promise)
{
  std::fprintf(stderr, "\ngmf_replay: %s\n", promise.c_str());
  SaveCurrent();
  std::_Exit(4);
}

// ---------------------------------------------------------------------------------------
// Seeds

struct Seed
{
  std::string path;
  std::string extension; // ".mesh", ".meshb", ".sol", ".solb"
  Bytes data;
  int partner = -1; // the mesh of a solution, the solution beside a mesh
};

bool IsMesh(const std::string& extension)
{
  return extension == ".mesh" || extension == ".meshb";
}

bool IsBinary(const std::string& extension)
{
  return extension == ".meshb" || extension == ".solb";
}

std::string Extension(const std::string& name)
{
  const std::size_t dot = name.rfind('.');
  return dot == std::string::npos ? "" : name.substr(dot);
}

std::string Stem(const std::string& path)
{
  return path.substr(0, path.size() - Extension(path).size());
}

Bytes ReadAll(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteAll(const std::string& path, const Bytes& data)
{
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out)
  {
    std::fprintf(stderr, "gmf_replay: cannot write %s\n", path.c_str());
    std::exit(2);
  }
}

std::vector<Seed> LoadSeeds(const std::vector<std::string>& directories)
{
  std::vector<Seed> seeds;
  for (const std::string& directory : directories)
  {
    DIR* dir = ::opendir(directory.c_str());
    if (!dir)
    {
      std::fprintf(stderr, "gmf_replay: cannot open %s\n", directory.c_str());
      std::exit(2);
    }
    std::vector<std::string> names;
    while (dirent* entry = ::readdir(dir))
    {
      const std::string name = entry->d_name;
      const std::string extension = Extension(name);
      if (name[0] != '.' &&
        (extension == ".mesh" || extension == ".meshb" || extension == ".sol" ||
          extension == ".solb"))
      {
        names.push_back(name);
      }
    }
    ::closedir(dir);
    std::sort(names.begin(), names.end()); // the same order everywhere: deterministic variants
    for (const std::string& name : names)
    {
      Seed seed;
      seed.path = directory + "/" + name;
      seed.extension = Extension(name);
      seed.data = ReadAll(seed.path);
      seeds.push_back(seed);
    }
  }
  // Partners: the file of the same stem (mesh <-> solution); a solution without one goes with
  // the mesh of its directory whose name shares the longest beginning with its own.
  for (std::size_t s = 0; s < seeds.size(); ++s)
  {
    std::size_t best = 0;
    for (std::size_t m = 0; m < seeds.size(); ++m)
    {
      if (IsMesh(seeds[s].extension) == IsMesh(seeds[m].extension))
      {
        continue;
      }
      const std::string a = Stem(seeds[s].path);
      const std::string b = Stem(seeds[m].path);
      if (a == b)
      {
        seeds[s].partner = static_cast<int>(m);
        break;
      }
      const std::size_t common =
        std::mismatch(a.begin(), a.end(), b.begin(), b.end()).first - a.begin();
      const bool sameDirectory = a.substr(0, a.rfind('/')) == b.substr(0, b.rfind('/'));
      if (!IsMesh(seeds[s].extension) && sameDirectory && common > best)
      {
        best = common;
        seeds[s].partner = static_cast<int>(m);
      }
    }
  }
  return seeds;
}

// ---------------------------------------------------------------------------------------
// Mutations

// Edge values for counts, versions, dimensions, indices and field types.
const std::int64_t EdgeValues[] = { 0, 1, 2, 3, 4, 5, -1, -2, 127, 255, 65535, 2147483647,
  2147483648LL, -2147483648LL, 4294967295LL, 4294967297LL, 9223372036854775807LL,
  -9223372036854775807LL - 1, 1000000, 100000000 };

// A binary file as its keyword blocks ([start, end) each), found by their next positions.
struct Blocks
{
  int positionBytes = 4;
  std::size_t headerEnd = 8;
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
};

Blocks BinaryBlocks(const Bytes& data)
{
  Blocks result;
  if (data.size() < 8)
  {
    return result;
  }
  std::int32_t version;
  std::memcpy(&version, data.data() + 4, 4);
  result.positionBytes = version >= 3 ? 8 : 4;
  std::size_t offset = 8;
  while (offset + 4 + result.positionBytes <= data.size() && result.blocks.size() < 64)
  {
    std::int64_t next = 0;
    if (result.positionBytes == 8)
    {
      std::memcpy(&next, data.data() + offset + 4, 8);
    }
    else
    {
      std::int32_t next32;
      std::memcpy(&next32, data.data() + offset + 4, 4);
      next = next32;
    }
    if (next == 0 || next <= static_cast<std::int64_t>(offset) ||
      static_cast<std::size_t>(next) > data.size())
    {
      result.blocks.emplace_back(offset, data.size());
      break;
    }
    result.blocks.emplace_back(offset, static_cast<std::size_t>(next));
    offset = static_cast<std::size_t>(next);
  }
  return result;
}

// The blocks in a new order (some repeated or left out), each block's next position rewritten
// to the block that now follows it (0 after the last).
Bytes Reassemble(const Bytes& data, const Blocks& layout, const std::vector<std::size_t>& order)
{
  Bytes out(data.begin(), data.begin() + layout.headerEnd);
  for (std::size_t i = 0; i < order.size(); ++i)
  {
    const auto& block = layout.blocks[order[i]];
    const std::size_t start = out.size();
    out.insert(out.end(), data.begin() + block.first, data.begin() + block.second);
    const std::int64_t next = i + 1 < order.size() ? static_cast<std::int64_t>(out.size()) : 0;
    if (block.second - block.first >= static_cast<std::size_t>(4 + layout.positionBytes))
    {
      if (layout.positionBytes == 8)
      {
        std::memcpy(out.data() + start + 4, &next, 8);
      }
      else
      {
        const std::int32_t next32 = static_cast<std::int32_t>(next);
        std::memcpy(out.data() + start + 4, &next32, 4);
      }
    }
  }
  return out;
}

// A text file as its keyword blocks: each starts at a line whose first word starts with a
// capital letter.
std::vector<std::pair<std::size_t, std::size_t>> TextBlocks(const Bytes& data)
{
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < data.size(); ++i)
  {
    if ((i == 0 || data[i - 1] == '\n') && data[i] >= 'A' && data[i] <= 'Z')
    {
      starts.push_back(i);
    }
  }
  std::vector<std::pair<std::size_t, std::size_t>> blocks;
  for (std::size_t b = 0; b < starts.size(); ++b)
  {
    blocks.emplace_back(starts[b], b + 1 < starts.size() ? starts[b + 1] : data.size());
  }
  return blocks;
}

// The number tokens of a text file ([start, end) each).
std::vector<std::pair<std::size_t, std::size_t>> NumberTokens(const Bytes& data)
{
  std::vector<std::pair<std::size_t, std::size_t>> tokens;
  std::size_t i = 0;
  while (i < data.size())
  {
    while (i < data.size() && std::isspace(static_cast<unsigned char>(data[i])))
    {
      ++i;
    }
    const std::size_t start = i;
    while (i < data.size() && !std::isspace(static_cast<unsigned char>(data[i])))
    {
      ++i;
    }
    if (i > start && (std::isdigit(static_cast<unsigned char>(data[start])) || data[start] == '-'))
    {
      tokens.emplace_back(start, i);
    }
  }
  return tokens;
}

std::string Mutate(Bytes& data, bool binary, std::mt19937_64& random)
{
  auto pick = [&](std::size_t n) { return n ? static_cast<std::size_t>(random() % n) : 0; };
  auto edge = [&]() { return EdgeValues[pick(std::size(EdgeValues))]; };
  const int kind = static_cast<int>(pick(9));
  std::ostringstream what;
  if (data.empty())
  {
    data.push_back('\n');
  }
  switch (kind)
  {
    case 0: // bytes replaced
    {
      const int count = 1 + static_cast<int>(pick(4));
      what << count << " bytes replaced";
      for (int i = 0; i < count; ++i)
      {
        const std::size_t at = pick(data.size());
        const char text[] = "0123456789 -.+eE\n#\xef";
        data[at] = binary ? static_cast<char>(random()) : text[pick(sizeof(text) - 1)];
        what << " @" << at;
      }
      break;
    }
    case 1: // bits flipped
    {
      const int count = 1 + static_cast<int>(pick(8));
      const std::size_t span = binary ? std::min<std::size_t>(data.size(), 64) : data.size();
      what << count << " bits flipped";
      for (int i = 0; i < count; ++i)
      {
        // Binary: half of the flips in the headers (the first 64 bytes), where they matter.
        const std::size_t at = (binary && pick(2)) ? pick(span) : pick(data.size());
        data[at] = static_cast<char>(data[at] ^ (1 << pick(8)));
        what << " @" << at;
      }
      break;
    }
    case 2: // truncated
    {
      const std::size_t size = pick(data.size());
      what << "truncated to " << size << " bytes";
      data.resize(size);
      break;
    }
    case 3: // a range of bytes repeated elsewhere
    {
      const std::size_t from = pick(data.size());
      const std::size_t length = 1 + pick(std::min<std::size_t>(64, data.size() - from));
      const std::size_t to = pick(data.size() + 1);
      what << "bytes " << from << "+" << length << " repeated at " << to;
      Bytes copy(data.begin() + from, data.begin() + from + length);
      data.insert(data.begin() + to, copy.begin(), copy.end());
      break;
    }
    case 4: // keywords repeated, left out or swapped
    case 5:
    {
      if (binary)
      {
        const Blocks layout = BinaryBlocks(data);
        const std::size_t n = layout.blocks.size();
        if (n == 0)
        {
          what << "no keywords to move";
          break;
        }
        std::vector<std::size_t> order;
        for (std::size_t b = 0; b < n; ++b)
        {
          order.push_back(b);
        }
        const std::size_t a = pick(n);
        const int how = static_cast<int>(pick(3));
        if (how == 0)
        {
          const std::size_t to = pick(n + 1);
          order.insert(order.begin() + to, a);
          what << "binary keyword " << a << " repeated at " << to;
        }
        else if (how == 1 && n > 1)
        {
          order.erase(order.begin() + a);
          what << "binary keyword " << a << " left out";
        }
        else
        {
          const std::size_t b = pick(n);
          std::swap(order[a], order[b]);
          what << "binary keywords " << a << " and " << b << " swapped";
        }
        data = Reassemble(data, layout, order);
      }
      else
      {
        const auto blocks = TextBlocks(data);
        if (blocks.empty())
        {
          what << "no keywords to move";
          break;
        }
        const auto& block = blocks[pick(blocks.size())];
        Bytes copy(data.begin() + block.first, data.begin() + block.second);
        const int how = static_cast<int>(pick(3));
        if (how == 0)
        {
          const auto& at = blocks[pick(blocks.size())];
          data.insert(data.begin() + at.first, copy.begin(), copy.end());
          what << "text keyword at " << block.first << " repeated at " << at.first;
        }
        else if (how == 1)
        {
          data.erase(data.begin() + block.first, data.begin() + block.second);
          what << "text keyword at " << block.first << " left out";
        }
        else
        {
          data.insert(data.end(), copy.begin(), copy.end());
          what << "text keyword at " << block.first << " repeated at the end";
        }
      }
      break;
    }
    case 6: // a count, version, dimension, index or field type replaced by an edge value
    case 7:
    {
      const std::int64_t value = edge();
      if (binary)
      {
        const Blocks layout = BinaryBlocks(data);
        std::int32_t version = 0;
        if (data.size() >= 8)
        {
          std::memcpy(&version, data.data() + 4, 4);
        }
        // A word of a keyword's header: the version, the next position, the value after it
        // (the dimension, a line count, a field count), or a random aligned word.
        std::size_t at = 4;
        int bytes = 4;
        const int where = static_cast<int>(pick(4));
        if (where > 0 && !layout.blocks.empty())
        {
          const std::size_t start = layout.blocks[pick(layout.blocks.size())].first;
          at = start + (where == 1 ? 4 : 4 + layout.positionBytes + (where == 3 ? 4 * pick(4) : 0));
          bytes = where == 1 ? layout.positionBytes : (version >= 4 && where == 2 ? 8 : 4);
        }
        if (pick(3) == 0)
        {
          at = 4 * pick(data.size() / 4);
        }
        what << "binary word @" << at << " (" << bytes << " bytes) = " << value;
        if (at + bytes <= data.size())
        {
          if (bytes == 8)
          {
            std::memcpy(data.data() + at, &value, 8);
          }
          else
          {
            const std::int32_t value32 = static_cast<std::int32_t>(value);
            std::memcpy(data.data() + at, &value32, 4);
          }
        }
      }
      else
      {
        const auto tokens = NumberTokens(data);
        if (tokens.empty())
        {
          what << "no numbers to replace";
          break;
        }
        // Mostly among the first numbers (version, dimension, counts, field types).
        const std::size_t t = pick(2) ? pick(std::min<std::size_t>(tokens.size(), 12)) : pick(tokens.size());
        const char* words[] = { "nan", "inf", "-inf", "1e308", "1e-320", "0x10", "99999999999999999999" };
        std::string replacement = std::to_string(value);
        if (pick(5) == 0)
        {
          replacement = words[pick(std::size(words))];
        }
        what << "number " << t << " = " << replacement;
        data.erase(data.begin() + tokens[t].first, data.begin() + tokens[t].second);
        data.insert(data.begin() + tokens[t].first, replacement.begin(), replacement.end());
      }
      break;
    }
    default: // the first word's byte order, or a Dimension / version keyword added
    {
      if (binary)
      {
        const std::uint32_t code = pick(2) ? 0x01000000u : 1u;
        what << "first word " << code;
        if (data.size() >= 4)
        {
          std::memcpy(data.data(), &code, 4);
        }
      }
      else
      {
        const std::string extra = pick(2) ? "\nDimension " + std::to_string(2 + pick(2)) + "\n"
                                          : "\nMeshVersionFormatted " + std::to_string(pick(6)) + "\n";
        const auto blocks = TextBlocks(data);
        const std::size_t at = blocks.empty() ? 0 : blocks[pick(blocks.size())].first;
        what << "'" << extra.substr(1, extra.size() - 2) << "' inserted at " << at;
        data.insert(data.begin() + at, extra.begin(), extra.end());
      }
      break;
    }
  }
  return what.str();
}

// ---------------------------------------------------------------------------------------
// Reading and writing

// Errors and warnings, expected by the thousand, go nowhere (they still reach the observers:
// turning vtkObject's global warning display off would also silence the ErrorEvent).
class QuietOutputWindow : public vtkOutputWindow
{
public:
  static QuietOutputWindow* New();
  vtkTypeMacro(QuietOutputWindow, vtkOutputWindow);
  void DisplayText(const char*) override {}
};
vtkStandardNewMacro(QuietOutputWindow);

bool Verbose = false;

// Counts the errors of a reader or writer (an observer of ErrorEvent takes the message, which
// VTK then does not display); --verbose prints them.
struct ErrorCounter
{
  int errors = 0;
  static void Count(vtkObject*, unsigned long, void* clientData, void* callData)
  {
    ++static_cast<ErrorCounter*>(clientData)->errors;
    if (Verbose && callData)
    {
      std::printf("  error: %s\n", static_cast<const char*>(callData));
    }
  }
};

struct Totals
{
  long read = 0;
  long readErrors = 0;
  long written = 0;
  long writeErrors = 0;
  long readBack = 0;
};

// The reader's promises on a grid it gave: every cell names points it has; the arrays have a
// tuple for each point or cell.
void CheckGrid(vtkUnstructuredGrid* grid, const char* what)
{
  const vtkIdType points = grid->GetNumberOfPoints();
  const vtkIdType cells = grid->GetNumberOfCells();
  vtkNew<vtkIdList> ids;
  for (vtkIdType c = 0; c < cells; ++c)
  {
    grid->GetCellPoints(c, ids);
    for (vtkIdType i = 0; i < ids->GetNumberOfIds(); ++i)
    {
      if (ids->GetId(i) < 0 || ids->GetId(i) >= points)
      {
        Broken(std::string(what) + ": cell " + std::to_string(c) + " names point " +
          std::to_string(ids->GetId(i)) + " of " + std::to_string(points));
      }
    }
  }
  for (vtkIdType a = 0; a < grid->GetPointData()->GetNumberOfArrays(); ++a)
  {
    if (grid->GetPointData()->GetAbstractArray(a)->GetNumberOfTuples() != points)
    {
      Broken(std::string(what) + ": a point array's length is not the number of points");
    }
  }
  for (vtkIdType a = 0; a < grid->GetCellData()->GetNumberOfArrays(); ++a)
  {
    if (grid->GetCellData()->GetAbstractArray(a)->GetNumberOfTuples() != cells)
    {
      Broken(std::string(what) + ": a cell array's length is not the number of cells");
    }
  }
}

// Reads the mesh (with the solution beside it); nullptr after a reader error, which must
// leave the output empty.
vtkSmartPointer<vtkUnstructuredGrid> Read(const std::string& path, Totals& totals, const char* what)
{
  vtkNew<vtkGMFReader> reader;
  ErrorCounter counter;
  vtkNew<vtkCallbackCommand> callback;
  callback->SetCallback(&ErrorCounter::Count);
  callback->SetClientData(&counter);
  reader->AddObserver(vtkCommand::ErrorEvent, callback);
  reader->SetFileName(path.c_str());
  reader->Update();
  vtkUnstructuredGrid* output = reader->GetOutput();
  ++totals.read;
  if (counter.errors)
  {
    ++totals.readErrors;
    if (output->GetNumberOfPoints() || output->GetNumberOfCells() ||
      output->GetPointData()->GetNumberOfArrays() || output->GetCellData()->GetNumberOfArrays())
    {
      Broken(std::string(what) + ": the reader reported an error and left an output");
    }
    return nullptr;
  }
  CheckGrid(output, what);
  vtkSmartPointer<vtkUnstructuredGrid> grid = vtkSmartPointer<vtkUnstructuredGrid>::New();
  grid->ShallowCopy(output);
  return grid;
}

// Writes the grid; true when written. A written file must read back with the same counts.
bool WriteAndReadBack(vtkDataSet* grid, const std::string& path, int version, bool checkBack,
  Totals& totals)
{
  vtkNew<vtkGMFWriter> writer;
  ErrorCounter counter;
  vtkNew<vtkCallbackCommand> callback;
  callback->SetCallback(&ErrorCounter::Count);
  callback->SetClientData(&counter);
  writer->AddObserver(vtkCommand::ErrorEvent, callback);
  writer->SetInputData(grid);
  writer->SetFileName(path.c_str());
  writer->SetVersion(version);
  writer->Write();
  if (counter.errors)
  {
    ++totals.writeErrors;
    return false;
  }
  ++totals.written;
  vtkSmartPointer<vtkUnstructuredGrid> back = Read(path, totals, "the file the writer wrote");
  if (!back)
  {
    Broken("the writer wrote " + path + " (version " + std::to_string(version) +
      "), which the reader refuses");
  }
  ++totals.readBack;
  if (checkBack &&
    (back->GetNumberOfPoints() != grid->GetNumberOfPoints() ||
      back->GetNumberOfCells() != grid->GetNumberOfCells()))
  {
    Broken("the written file reads back with other counts (" +
      std::to_string(back->GetNumberOfPoints()) + " points, " +
      std::to_string(back->GetNumberOfCells()) + " cells for " +
      std::to_string(grid->GetNumberOfPoints()) + ", " + std::to_string(grid->GetNumberOfCells()) +
      ")");
  }
  return true;
}

// A copy of the grid with one cell's type or one point id replaced, or an array shortened:
// input the writer must refuse or write correctly.
vtkSmartPointer<vtkUnstructuredGrid> Corrupted(vtkUnstructuredGrid* grid, std::mt19937_64& random)
{
  auto copy = vtkSmartPointer<vtkUnstructuredGrid>::New();
  copy->DeepCopy(grid);
  const vtkIdType cells = copy->GetNumberOfCells();
  if (cells == 0)
  {
    return copy;
  }
  const vtkIdType cell = static_cast<vtkIdType>(random() % cells);
  vtkNew<vtkIdList> ids;
  copy->GetCellPoints(cell, ids);
  int type = copy->GetCellType(cell);
  switch (random() % 4)
  {
    case 0:
      type = static_cast<int>(random() % 256);
      if (type == VTK_POLYHEDRON)
      {
        type = VTK_EMPTY_CELL; // its ids are a face stream that InsertNextCell would parse
      }
      break;
    case 1:
      if (ids->GetNumberOfIds() > 0)
      {
        const vtkIdType values[] = { -1, -2, copy->GetNumberOfPoints(), 1LL << 40 };
        ids->SetId(static_cast<vtkIdType>(random() % ids->GetNumberOfIds()), values[random() % 4]);
      }
      break;
    case 2:
      ids->SetNumberOfIds(static_cast<vtkIdType>(random() % (ids->GetNumberOfIds() + 2)));
      for (vtkIdType i = 0; i < ids->GetNumberOfIds(); ++i)
      {
        ids->SetId(i, i % std::max<vtkIdType>(1, copy->GetNumberOfPoints()));
      }
      break;
    default:
      if (vtkDataArray* refs = copy->GetCellData()->GetArray("Ref"))
      {
        refs->SetNumberOfTuples(cells / 2);
      }
      break;
  }
  // Rebuild the cells with the one replaced (vtkUnstructuredGrid has no ReplaceCell of
  // another size).
  vtkNew<vtkUnstructuredGrid> rebuilt;
  rebuilt->SetPoints(copy->GetPoints());
  rebuilt->GetPointData()->ShallowCopy(copy->GetPointData());
  rebuilt->GetCellData()->ShallowCopy(copy->GetCellData());
  rebuilt->Allocate(cells);
  vtkNew<vtkIdList> other;
  for (vtkIdType c = 0; c < cells; ++c)
  {
    if (c == cell)
    {
      rebuilt->InsertNextCell(type, ids);
    }
    else
    {
      copy->GetCellPoints(c, other);
      rebuilt->InsertNextCell(copy->GetCellType(c), other);
    }
  }
  copy->ShallowCopy(rebuilt);
  return copy;
}

// Hand-made writer input: cells of each type with every point count from 0 to 9, unknown
// types, point ids out of range.
void WriterCases(const std::string& directory, Totals& totals)
{
  const int types[] = { VTK_VERTEX, VTK_LINE, VTK_TRIANGLE, VTK_QUAD, VTK_PIXEL, VTK_TETRA,
    VTK_PYRAMID, VTK_WEDGE, VTK_HEXAHEDRON, VTK_VOXEL, VTK_POLYGON, VTK_EMPTY_CELL, 81, 82, 90,
    200, 255 };
  int n = 0;
  for (int type : types)
  {
    for (int count = 0; count <= 9; ++count)
    {
      for (vtkIdType bad : { vtkIdType(0), vtkIdType(-1), vtkIdType(10) })
      {
        vtkNew<vtkUnstructuredGrid> grid;
        vtkNew<vtkPoints> points;
        for (int p = 0; p < 10; ++p)
        {
          points->InsertNextPoint(p % 2, (p / 2) % 2, p / 4);
        }
        grid->SetPoints(points);
        vtkNew<vtkIdList> ids;
        for (int i = 0; i < count; ++i)
        {
          ids->InsertNextId(i == count - 1 && bad ? bad : i);
        }
        grid->Allocate(2);
        grid->InsertNextCell(VTK_TRIANGLE, 3, std::vector<vtkIdType>{ 0, 1, 2 }.data());
        grid->InsertNextCell(type, ids);
        CurrentName = "writer case: cell type " + std::to_string(type) + " with " +
          std::to_string(count) + " points, last id " + std::to_string(bad);
        CurrentMesh.clear();
        const std::string path = directory + (n++ % 2 ? "/case_binary.meshb" : "/case_text.mesh");
        WriteAndReadBack(grid, path, 0, true, totals);
      }
    }
  }
}

std::string Quote(const std::vector<std::string>& arguments)
{
  std::string text;
  for (const std::string& argument : arguments)
  {
    text += (text.empty() ? "" : " ") + argument;
  }
  return text;
}
}

int main(int argc, char* argv[])
{
  long variants = 3000;
  unsigned long long seedValue = 29;
  double seconds = 0;
  long only = 0;
  bool haveOnly = false;
  bool verbose = false;
  std::vector<std::string> directories;
  std::vector<std::string> arguments{ argv[0] };
  for (int a = 1; a < argc; ++a)
  {
    const std::string argument = argv[a];
    if ((argument == "--variants" || argument == "--seed" || argument == "--seconds" ||
          argument == "--only") &&
      a + 1 < argc)
    {
      const std::string value = argv[++a];
      if (argument == "--variants")
      {
        variants = std::stol(value);
        arguments.push_back(argument + " " + value);
      }
      else if (argument == "--seed")
      {
        seedValue = std::stoull(value);
        arguments.push_back(argument + " " + value);
      }
      else if (argument == "--seconds")
      {
        seconds = std::stod(value);
      }
      else
      {
        only = std::stol(value);
        haveOnly = true;
      }
    }
    else if (argument == "--verbose")
    {
      verbose = true;
      Verbose = true;
    }
    else if (!argument.empty() && argument[0] != '-')
    {
      directories.push_back(argument);
      arguments.push_back(argument);
    }
    else
    {
      std::fprintf(stderr,
        "usage: gmf_replay [--variants N] [--seed S] [--seconds T] [--only I] [--verbose] DIR...\n");
      return 2;
    }
  }
  if (directories.empty())
  {
    std::fprintf(stderr, "gmf_replay: no seed directories\n");
    return 2;
  }
  __sanitizer_set_death_callback(&OnSanitizerDeath);
  for (int signal : { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM })
  {
    std::signal(signal, &OnSignal);
  }
  vtkNew<QuietOutputWindow> quiet;
  if (!verbose)
  {
    vtkOutputWindow::SetInstance(quiet);
    vtkLogger::SetStderrVerbosity(vtkLogger::VERBOSITY_OFF);
  }

  const std::vector<Seed> seeds = LoadSeeds(directories);
  if (seeds.empty())
  {
    std::fprintf(stderr, "gmf_replay: no .mesh, .meshb, .sol or .solb files in the directories\n");
    return 2;
  }
  const char* temporary = std::getenv("TMPDIR");
  std::string pattern =
    std::string(temporary && *temporary ? temporary : "/tmp") + "/gmf-replay-XXXXXX";
  const char* made = ::mkdtemp(&pattern[0]);
  if (!made)
  {
    std::perror("gmf_replay: mkdtemp");
    return 2;
  }
  const std::string work = made;
  const auto start = std::chrono::steady_clock::now();
  Totals totals;
  std::mt19937_64 random(seedValue);
  long done = 0;
  // Variant -1 - s is seed s as it is; 0.. are mutations.
  const long first = -static_cast<long>(seeds.size());
  for (long v = first; v < variants; ++v)
  {
    // Every variant draws the same numbers whether or not it runs (--only replays one).
    const std::size_t s = v < 0 ? static_cast<std::size_t>(-1 - v) : static_cast<std::size_t>(v) % seeds.size();
    const Seed& seed = seeds[s];
    std::mt19937_64 variantRandom(random());
    if (haveOnly && v != only)
    {
      continue;
    }
    if (seconds > 0 && v >= 0 &&
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() > seconds)
    {
      std::printf("gmf_replay: stopped after %.0f s, before variant %ld of %ld (--seconds)\n",
        seconds, v, variants);
      break;
    }
    Bytes data = seed.data;
    std::string what = "as it is";
    if (v >= 0)
    {
      what = Mutate(data, IsBinary(seed.extension), variantRandom);
    }
    // The mesh and its solution, one of them mutated, side by side under one stem.
    const Seed* partner = seed.partner >= 0 ? &seeds[static_cast<std::size_t>(seed.partner)] : nullptr;
    const bool seedIsMesh = IsMesh(seed.extension);
    if (!seedIsMesh && !partner)
    {
      continue; // a solution without a mesh: nothing reads it
    }
    const std::string stem = work + "/v" + std::to_string(v < 0 ? -v : v);
    const std::string meshExtension = seedIsMesh ? seed.extension : partner->extension;
    const std::string meshPath = stem + meshExtension;
    CurrentMeshExtension = meshExtension;
    CurrentMesh = seedIsMesh ? data : partner->data;
    CurrentSolution.clear();
    WriteAll(meshPath, CurrentMesh);
    std::string solutionPath;
    if (partner && (!seedIsMesh || variantRandom() % 2 == 0))
    {
      CurrentSolutionExtension = seedIsMesh ? partner->extension : seed.extension;
      CurrentSolution = seedIsMesh ? partner->data : data;
      solutionPath = stem + CurrentSolutionExtension;
      WriteAll(solutionPath, CurrentSolution);
    }
    CurrentName = "variant " + std::to_string(v) + " of " + seed.path + ": " + what;
    ReplayCommand = Quote(arguments) + " --only " + std::to_string(v);
    if (verbose)
    {
      std::printf("%s\n", CurrentName.c_str());
    }
    ::alarm(20);
    vtkSmartPointer<vtkUnstructuredGrid> grid = Read(meshPath, totals, "the reader's output");
    if (grid)
    {
      // Written back in the other encoding or the same, automatic version or a given one.
      const bool binary = variantRandom() % 2;
      const int version = static_cast<int>(variantRandom() % 5);
      // (Stems of their own: a .sol of one encoding would be read with the other's mesh.)
      WriteAndReadBack(
        grid, work + (binary ? "/out_binary.meshb" : "/out_text.mesh"), version, true, totals);
      if (variantRandom() % 4 == 0)
      {
        CurrentName += ", its output corrupted for the writer";
        WriteAndReadBack(Corrupted(grid, variantRandom),
          work + (binary ? "/bad_text.mesh" : "/bad_binary.meshb"), 0, false, totals);
      }
    }
    ::alarm(0);
    std::remove(meshPath.c_str());
    if (!solutionPath.empty())
    {
      std::remove(solutionPath.c_str());
    }
    ++done;
  }
  if (!haveOnly)
  {
    WriterCases(work, totals);
  }
  const std::string cleanup = "rm -rf '" + work + "'";
  if (std::system(cleanup.c_str()) != 0)
  {
    std::fprintf(stderr, "gmf_replay: could not remove %s\n", work.c_str());
  }
  const double elapsed =
    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("gmf_replay: %zu seeds, %ld files replayed (seeds and mutations, seed %llu) in %.1f s: "
              "%ld reads (%ld reader errors), %ld files written (%ld writer errors), %ld read back; "
              "no sanitizer report, crash or broken promise\n",
    seeds.size(), done, seedValue, elapsed, totals.read, totals.readErrors, totals.written,
    totals.writeErrors, totals.readBack);
  return 0;
}
