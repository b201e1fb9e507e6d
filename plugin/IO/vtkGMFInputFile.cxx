#include "vtkGMFInputFile.h"

#include <algorithm>
#include <cctype>
#include <cerrno>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gmf
{
namespace
{
bool EndsWith(const std::string& text, const char* suffix)
{
  const std::size_t length = std::strlen(suffix);
  return text.size() >= length && text.compare(text.size() - length, length, suffix) == 0;
}

// Characters that end a token: white space and '#' (a comment), looked up in one step.
struct Separators
{
  bool blank[256] = {};
  bool separator[256] = {};
  Separators()
  {
    for (unsigned char c : { ' ', '\t', '\r', '\n', '\f', '\v' })
    {
      blank[c] = separator[c] = true;
    }
    separator[static_cast<unsigned char>('#')] = true;
  }
};
const Separators Characters;

bool IsBlank(char c)
{
  return Characters.blank[static_cast<unsigned char>(c)];
}

bool IsSeparator(char c)
{
  return Characters.separator[static_cast<unsigned char>(c)];
}

template <class T>
T Swapped(T value)
{
  unsigned char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  std::reverse(bytes, bytes + sizeof(T));
  std::memcpy(&value, bytes, sizeof(T));
  return value;
}
}

InputFile::InputFile(const std::string& path)
  : Path(path)
{
  if (EndsWith(path, ".meshb") || EndsWith(path, ".solb"))
  {
    this->Binary = true;
  }
  else if (!EndsWith(path, ".mesh") && !EndsWith(path, ".sol"))
  {
    throw FormatError(path + ": not a GMF file name (.mesh, .meshb, .sol or .solb)");
  }
  // O_NONBLOCK: opening a FIFO for reading otherwise waits for a writer (for ever).
  const int descriptor = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (descriptor < 0)
  {
    throw FormatError(path + ": cannot open: " + std::strerror(errno));
  }
  struct stat status;
  if (::fstat(descriptor, &status) != 0)
  {
    const int error = errno;
    ::close(descriptor);
    throw FormatError(path + ": cannot read: " + std::strerror(error));
  }
  if (!S_ISREG(status.st_mode))
  {
    ::close(descriptor);
    throw FormatError(path + ": not a regular file (a FIFO, device or directory)");
  }
  if (status.st_size == 0)
  {
    ::close(descriptor);
    throw FormatError(path + ": empty file");
  }
  this->Size = static_cast<std::size_t>(status.st_size);
  // MAP_POPULATE reads the file in at once: far cheaper than one page fault per 4 KiB page.
  void* mapping =
    ::mmap(nullptr, this->Size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, descriptor, 0);
  ::close(descriptor);
  if (mapping == MAP_FAILED)
  {
    throw FormatError(path + ": cannot map the file: " + std::strerror(errno));
  }
  ::madvise(mapping, this->Size, MADV_SEQUENTIAL);
  this->Data = static_cast<const char*>(mapping);
  try
  {
    if (this->Binary)
    {
      this->IndexBinary();
    }
    else
    {
      this->IndexText();
    }
  }
  catch (...)
  {
    ::munmap(const_cast<char*>(this->Data), this->Size);
    throw;
  }
}

InputFile::~InputFile()
{
  ::munmap(const_cast<char*>(this->Data), this->Size);
}

const Section* InputFile::Find(int keyword) const
{
  auto found = this->Sections.find(keyword);
  return found == this->Sections.end() ? nullptr : &found->second;
}

std::string InputFile::Position(std::size_t offset) const
{
  if (this->Binary)
  {
    return "byte " + std::to_string(offset);
  }
  const std::size_t end = std::min(offset, this->Size);
  return "line " + std::to_string(1 + std::count(this->Data, this->Data + end, '\n'));
}

void InputFile::Fail(std::size_t offset, const std::string& problem) const
{
  throw FormatError(this->Path + ", " + this->Position(offset) + ": " + problem);
}

std::string InputFile::Where(const Section& section, std::int64_t line, std::size_t offset) const
{
  return this->Path + ": " + KeywordName(section.keyword) + " line " + std::to_string(line + 1) +
    " of " + std::to_string(section.lines) + " (" + this->Position(offset) + ")";
}

void InputFile::AddSection(Section section)
{
  if (this->Sections.count(section.keyword))
  {
    this->Fail(section.keywordOffset, KeywordName(section.keyword) + " appears twice");
  }
  this->Sections[section.keyword] = std::move(section);
}

// ---------------------------------------------------------------------------------------
// Binary files

std::uint32_t InputFile::Word32(std::size_t offset) const
{
  std::uint32_t value;
  std::memcpy(&value, this->Data + offset, 4);
  return this->SwapBytes ? Swapped(value) : value;
}

std::uint64_t InputFile::Word64(std::size_t offset) const
{
  std::uint64_t value;
  std::memcpy(&value, this->Data + offset, 8);
  return this->SwapBytes ? Swapped(value) : value;
}

std::int64_t InputFile::Integer(std::size_t offset, int bytes) const
{
  return bytes == 4 ? static_cast<std::int32_t>(this->Word32(offset))
                    : static_cast<std::int64_t>(this->Word64(offset));
}

double InputFile::Real(std::size_t offset, int bytes) const
{
  if (bytes == 4)
  {
    const std::uint32_t word = this->Word32(offset);
    float value;
    std::memcpy(&value, &word, 4);
    return value;
  }
  const std::uint64_t word = this->Word64(offset);
  double value;
  std::memcpy(&value, &word, 8);
  return value;
}

void InputFile::IndexBinary()
{
  if (this->Size < 8)
  {
    this->Fail(0, "truncated: a binary GMF file starts with two 32-bit words");
  }
  std::uint32_t code;
  std::memcpy(&code, this->Data, 4);
  if (code == 0x01000000u)
  {
    this->SwapBytes = true;
  }
  else if (code != 1)
  {
    this->Fail(0, "not a binary GMF file: the first word is " + std::to_string(code) +
        ", expected 1 in either byte order");
  }
  Layout& layout = this->FileLayout;
  layout.version = static_cast<std::int32_t>(this->Word32(4));
  if (layout.version < FirstVersion || layout.version > LastVersion)
  {
    this->Fail(4, "unknown version " + std::to_string(layout.version) + " (GMF versions are 1 to 4)");
  }
  const int positionBytes = layout.PositionBytes();
  const int integerBytes = layout.IntegerBytes();
  std::size_t& dimensionOffset = this->DimensionOffset;
  std::size_t offset = 8;
  while (offset < this->Size)
  {
    const std::size_t keywordOffset = offset;
    if (this->Size - offset < static_cast<std::size_t>(4 + positionBytes))
    {
      this->Fail(offset, "truncated keyword header");
    }
    const int keyword = static_cast<std::int32_t>(this->Word32(offset));
    const std::int64_t next = this->Integer(offset + 4, positionBytes);
    offset += 4 + positionBytes;
    if (keyword == End)
    {
      break;
    }
    // What this keyword may hold: up to the next keyword, or to the end of the file (a next
    // position outside the file is reported after the keyword, which may be truncated).
    const bool nextInside = next > static_cast<std::int64_t>(keywordOffset) &&
      static_cast<std::uint64_t>(next) <= this->Size;
    const std::size_t limit = nextInside ? static_cast<std::size_t>(next) : this->Size;
    if (nextInside && offset > limit)
    {
      this->Fail(keywordOffset + 4, KeywordName(keyword) + ": the next keyword's position " +
          std::to_string(next) + " lies inside this keyword's header");
    }
    if (keyword == Dimension)
    {
      if (limit - offset < 4)
      {
        this->Fail(offset, "truncated Dimension");
      }
      if (dimensionOffset)
      {
        // Lines are laid out with the dimension of the moment they are indexed: one
        // dimension per file.
        this->Fail(keywordOffset, "Dimension appears twice (first at " +
            this->Position(dimensionOffset) + ")");
      }
      dimensionOffset = keywordOffset;
      layout.dimension = static_cast<std::int32_t>(this->Word32(offset));
      if (layout.dimension != 2 && layout.dimension != 3)
      {
        this->Fail(offset, "Dimension " + std::to_string(layout.dimension) + " (must be 2 or 3)");
      }
    }
    else
    {
      int reals = 0;
      int integers = 0;
      if (LineFormat(keyword, layout.dimension, 0, reals, integers))
      {
        Section section;
        section.keyword = keyword;
        section.keywordOffset = keywordOffset;
        if (layout.dimension == 0)
        {
          this->Fail(keywordOffset, KeywordName(keyword) + " comes before Dimension");
        }
        if (limit - offset < static_cast<std::size_t>(integerBytes))
        {
          this->Fail(offset, "truncated " + KeywordName(keyword) + " header");
        }
        section.lines = this->Integer(offset, integerBytes);
        offset += integerBytes;
        if (section.lines < 0)
        {
          this->Fail(offset - integerBytes,
            KeywordName(keyword) + " has a negative line count " + std::to_string(section.lines));
        }
        std::int64_t solutionSize = 0;
        if (IsSolutionKeyword(keyword))
        {
          if (limit - offset < 4)
          {
            this->Fail(offset, "truncated " + KeywordName(keyword) + " header");
          }
          const std::int64_t fields = static_cast<std::int32_t>(this->Word32(offset));
          offset += 4;
          if (fields < 1 || static_cast<std::size_t>(fields) > (limit - offset) / 4)
          {
            this->Fail(offset - 4, KeywordName(keyword) + " declares " + std::to_string(fields) +
                " fields (truncated or corrupt header)");
          }
          for (std::int64_t f = 0; f < fields; ++f, offset += 4)
          {
            const int type = static_cast<std::int32_t>(this->Word32(offset));
            solutionSize += this->AddSolutionField(section, f, type, offset);
          }
        }
        this->CheckSolutionSize(keywordOffset, keyword, solutionSize);
        LineFormat(keyword, layout.dimension, static_cast<int>(solutionSize), section.reals,
          section.integers);
        section.dataOffset = offset;
        const std::size_t lineBytes = static_cast<std::size_t>(section.reals) *
            layout.RealBytes() + static_cast<std::size_t>(section.integers) * integerBytes;
        const std::size_t available = this->Size - offset;
        if (lineBytes > 0 && static_cast<std::uint64_t>(section.lines) > available / lineBytes)
        {
          this->Fail(offset, "truncated " + KeywordName(keyword) + ": " +
              std::to_string(section.lines) + " lines of " + std::to_string(lineBytes) +
              " bytes need " + std::to_string(section.lines * lineBytes) + " bytes, the file has " +
              std::to_string(available) + " left (" + std::to_string(available / lineBytes) +
              " complete lines)");
        }
        if (lineBytes > 0 &&
          static_cast<std::uint64_t>(section.lines) > (limit - offset) / lineBytes)
        {
          // The lines would run into the next keyword, whose header would be read as data.
          this->Fail(section.keywordOffset + 4 + positionBytes,
            KeywordName(keyword) + " declares " + std::to_string(section.lines) + " lines of " +
              std::to_string(lineBytes) + " bytes, the next keyword at byte " +
              std::to_string(limit) + " leaves room for " +
              std::to_string((limit - offset) / lineBytes) + " lines");
        }
        this->AddSection(std::move(section));
      }
      else if (keyword != MeshVersionFormatted)
      {
        this->Skipped.push_back(KeywordName(keyword));
      }
    }
    if (next == 0)
    {
      break;
    }
    if (!nextInside)
    {
      this->Fail(keywordOffset + 4, KeywordName(keyword) + ": the next keyword's position " +
          std::to_string(next) + " is outside the file (" + std::to_string(this->Size) +
          " bytes) or not after this keyword");
    }
    offset = static_cast<std::size_t>(next);
  }
  if (layout.dimension == 0)
  {
    this->Fail(8, "no Dimension keyword");
  }
}

// ---------------------------------------------------------------------------------------
// Text files

std::size_t InputFile::SkipBlanks(std::size_t offset) const
{
  while (offset < this->Size)
  {
    const char c = this->Data[offset];
    if (c == '#')
    {
      while (offset < this->Size && this->Data[offset] != '\n')
      {
        ++offset;
      }
    }
    else if (IsBlank(c))
    {
      ++offset;
    }
    else
    {
      break;
    }
  }
  return offset;
}

std::size_t InputFile::TokenEnd(std::size_t offset) const
{
  while (offset < this->Size && !IsSeparator(this->Data[offset]))
  {
    ++offset;
  }
  return offset;
}

std::int64_t InputFile::TextInteger(std::size_t& offset, const char* what) const
{
  std::int64_t value = 0;
  if (!this->ParseNumber(offset, value))
  {
    const std::size_t start = this->SkipBlanks(offset);
    if (start >= this->Size)
    {
      this->Fail(start, std::string("truncated: expected ") + what + ", found the end of the file");
    }
    this->Fail(start, std::string("expected ") + what + ", found '" +
        std::string(this->Data + start, this->TokenEnd(start) - start) + "'");
  }
  return value;
}

bool InputFile::IsWord(std::size_t begin, std::size_t end) const
{
  if (begin >= end || !std::isalpha(static_cast<unsigned char>(this->Data[begin])))
  {
    return false;
  }
  double value; // "nan", "inf", "infinity" are numbers
  const auto result = std::from_chars(this->Data + begin, this->Data + end, value);
  return result.ec != std::errc() || result.ptr != this->Data + end;
}

int InputFile::AddSolutionField(Section& section, std::int64_t field, int type, std::size_t offset) const
{
  const int size = SolutionTypeSize(type, this->FileLayout.dimension);
  if (size == 0)
  {
    this->Fail(offset, KeywordName(section.keyword) + " field " + std::to_string(field + 1) +
        " has unknown type " + std::to_string(type) + " (1 to 4)");
  }
  section.solutionTypes.push_back(type);
  return size;
}

void InputFile::CheckSolutionSize(std::size_t keywordOffset, int keyword, std::int64_t reals) const
{
  // Reals per line are counted in int; files of more are not made by any GMF writer.
  constexpr std::int64_t most = std::int64_t(1) << 24;
  if (reals > most)
  {
    this->Fail(keywordOffset, KeywordName(keyword) + ": its fields have " +
        std::to_string(reals) + " reals per line, more than the " + std::to_string(most) +
        " this reader takes");
  }
}

void InputFile::IndexText()
{
  Layout& layout = this->FileLayout;
  // A UTF-8 byte order mark (written by some editors) is not part of the first keyword.
  const bool byteOrderMark = this->Size >= 3 && std::memcmp(this->Data, "\xEF\xBB\xBF", 3) == 0;
  std::size_t& dimensionOffset = this->DimensionOffset;
  std::size_t versionOffset = 0;
  std::size_t offset = this->SkipBlanks(byteOrderMark ? 3 : 0);
  while (offset < this->Size)
  {
    const std::size_t end = this->TokenEnd(offset);
    if (!this->IsWord(offset, end))
    {
      offset = this->SkipBlanks(end); // a value of a keyword nobody reads
      continue;
    }
    const std::size_t keywordOffset = offset;
    const int keyword = KeywordCode(this->Data + offset, end - offset);
    int reals = 0;
    int integers = 0;
    offset = end;
    if (keyword == End)
    {
      break;
    }
    if (keyword == MeshVersionFormatted)
    {
      if (layout.version != 0)
      {
        this->Fail(keywordOffset, "MeshVersionFormatted appears twice (first at " +
            this->Position(versionOffset) + ")");
      }
      versionOffset = keywordOffset;
      layout.version = static_cast<int>(this->TextInteger(offset, "the version"));
      if (layout.version < FirstVersion || layout.version > LastVersion)
      {
        this->Fail(keywordOffset,
          "unknown version " + std::to_string(layout.version) + " (GMF versions are 1 to 4)");
      }
    }
    else if (keyword == Dimension)
    {
      if (layout.dimension != 0) // 0 is refused below: a dimension was seen
      {
        // Lines are laid out with the dimension of the moment they are indexed: one
        // dimension per file.
        this->Fail(keywordOffset, "Dimension appears twice (first at " +
            this->Position(dimensionOffset) + ")");
      }
      dimensionOffset = keywordOffset;
      layout.dimension = static_cast<int>(this->TextInteger(offset, "the dimension"));
      if (layout.dimension != 2 && layout.dimension != 3)
      {
        this->Fail(keywordOffset,
          "Dimension " + std::to_string(layout.dimension) + " (must be 2 or 3)");
      }
    }
    else if (keyword == 0 || !LineFormat(keyword, layout.dimension, 0, reals, integers))
    {
      this->Skipped.emplace_back(this->Data + keywordOffset, end - keywordOffset);
    }
    else
    {
      if (layout.version == 0)
      {
        this->Fail(keywordOffset, KeywordName(keyword) + " comes before MeshVersionFormatted");
      }
      if (layout.dimension == 0)
      {
        this->Fail(keywordOffset, KeywordName(keyword) + " comes before Dimension");
      }
      Section section;
      section.keyword = keyword;
      section.keywordOffset = keywordOffset;
      section.lines = this->TextInteger(offset, "a line count");
      if (section.lines < 0)
      {
        this->Fail(keywordOffset,
          KeywordName(keyword) + " has a negative line count " + std::to_string(section.lines));
      }
      std::int64_t solutionSize = 0;
      if (IsSolutionKeyword(keyword))
      {
        const std::int64_t fields = this->TextInteger(offset, "the number of fields");
        if (fields < 1 || static_cast<std::size_t>(fields) > this->Size)
        {
          this->Fail(keywordOffset,
            KeywordName(keyword) + " declares " + std::to_string(fields) + " fields");
        }
        for (std::int64_t f = 0; f < fields; ++f)
        {
          const int type = static_cast<int>(this->TextInteger(offset, "a field type"));
          solutionSize += this->AddSolutionField(section, f, type, offset);
        }
      }
      this->CheckSolutionSize(keywordOffset, keyword, solutionSize);
      LineFormat(keyword, layout.dimension, static_cast<int>(solutionSize), section.reals,
        section.integers);
      section.dataOffset = offset;
      // Step over the values without converting them, so that the keyword search resumes
      // after the data even when a value looks like a word ("nan"); a capitalized word that
      // is no number is the next keyword, known or not: the section is shorter than it
      // declares. (Other words are bad values, reported when the lines are decoded.)
      const std::int64_t perLine = section.reals + section.integers;
      for (std::int64_t line = 0; line < section.lines; ++line)
      {
        for (std::int64_t v = 0; v < perLine; ++v)
        {
          offset = this->SkipBlanks(offset);
          const std::size_t tokenEnd = this->TokenEnd(offset);
          const bool atEnd = offset >= this->Size;
          // Keyword names (libMeshb's, and those of other writers) start with a capital.
          if (atEnd ||
            (std::isupper(static_cast<unsigned char>(this->Data[offset])) &&
              this->IsWord(offset, tokenEnd)))
          {
            this->Fail(offset, "truncated " + KeywordName(keyword) + ": it declares " +
                std::to_string(section.lines) + " lines of " + std::to_string(perLine) +
                " values, found " +
                (atEnd ? std::string("the end of the file")
                       : std::string(this->Data + offset, tokenEnd - offset)) +
                " in line " + std::to_string(line + 1));
          }
          offset = tokenEnd;
        }
      }
      this->AddSection(std::move(section));
    }
    offset = this->SkipBlanks(offset);
  }
  if (layout.version == 0)
  {
    this->Fail(0, "no MeshVersionFormatted keyword");
  }
  if (layout.dimension == 0)
  {
    this->Fail(0, "no Dimension keyword");
  }
}
}
