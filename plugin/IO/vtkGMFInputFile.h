// Reading a GMF file (.mesh/.sol text, .meshb/.solb binary, every version and byte order):
// the file is mapped into memory, its keywords are indexed once, and the lines of one keyword
// are then decoded straight from the mapping. The binary path decodes fixed-size records
// (no per-line parsing); the text path parses numbers with std::from_chars. Every read is
// bounded by the end of the mapping, and a keyword's lines by the next keyword: a truncated or
// malformed file is a FormatError naming the keyword and the position (byte offset in binary
// files, line number in text files). A file has one Dimension (a line's layout depends on it).
// Only regular files are opened (a FIFO would block).
#ifndef vtkGMFInputFile_h
#define vtkGMFInputFile_h

#include "vtkGMFFormat.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace gmf
{
/// One keyword of the file that the reader knows how to decode.
struct Section
{
  int keyword = 0;
  std::int64_t lines = 0;
  std::vector<int> solutionTypes; // SolAt keywords: the type of each field
  int reals = 0;                  // reals per line
  int integers = 0;               // integers per line (after the reals)
  std::size_t keywordOffset = 0;  // where the keyword starts
  std::size_t dataOffset = 0;     // where its first line starts
};

/// The first `columns` integers of each line must lie in 1..count: indices of `what`
/// ("vertex" in "Vertices", "edge" in "Edges").
struct IndexCheck
{
  int columns = 0;
  std::int64_t count = 0;
  const char* what = "";
  const char* of = "";
};

class InputFile
{
public:
  /// Maps and indexes the file; text or binary by its extension (.mesh/.sol or .meshb/.solb).
  explicit InputFile(const std::string& path);
  ~InputFile();
  InputFile(const InputFile&) = delete;
  InputFile& operator=(const InputFile&) = delete;

  const Layout& GetLayout() const { return this->FileLayout; }
  bool IsBinary() const { return this->Binary; }
  const std::string& GetPath() const { return this->Path; }
  /// The indexed section of a keyword, or nullptr when the file does not have it.
  const Section* Find(int keyword) const;
  /// The keywords present in the file that are not indexed (read by nobody).
  const std::vector<std::string>& GetSkippedKeywords() const { return this->Skipped; }

  /// Decodes every line of the section in order: onReal(double) for each real, then
  /// onInteger(std::int64_t) for each integer, after checking the indices of `check`.
  template <class OnReal, class OnInteger>
  void ReadLines(
    const Section& section, const IndexCheck& check, OnReal&& onReal, OnInteger&& onInteger) const;

  /// The size of the file in bytes.
  std::size_t GetSize() const { return this->Size; }
  /// Where the Dimension keyword is (for error messages).
  std::size_t GetDimensionOffset() const { return this->DimensionOffset; }
  /// "file: Triangles line 3 of 10 (byte 1234)", for error messages.
  std::string Where(const Section& section, std::int64_t line, std::size_t offset) const;
  /// "byte 1234" in a binary file, "line 57" in a text file.
  std::string Position(std::size_t offset) const;

private:
  void IndexBinary();
  void IndexText();
  void AddSection(Section section);
  [[noreturn]] void Fail(std::size_t offset, const std::string& problem) const;

  // Binary words, in the file's byte order.
  std::uint32_t Word32(std::size_t offset) const;
  std::uint64_t Word64(std::size_t offset) const;
  std::int64_t Integer(std::size_t offset, int bytes) const;
  double Real(std::size_t offset, int bytes) const;

  // Text tokens.
  std::size_t SkipBlanks(std::size_t offset) const;
  std::size_t TokenEnd(std::size_t offset) const;
  std::int64_t TextInteger(std::size_t& offset, const char* what) const;
  /// Whether the token is a word (a keyword, known or not), not a number.
  bool IsWord(std::size_t begin, std::size_t end) const;
  void CheckSolutionSize(std::size_t keywordOffset, int keyword, std::int64_t reals) const;
  /// Field `field` (from 0) of a solution keyword's header, of GMF type `type` read at
  /// `offset`: added to the section's types; returns its number of reals (an unknown type is
  /// an error).
  int AddSolutionField(Section& section, std::int64_t field, int type, std::size_t offset) const;

  template <class T>
  bool ParseNumber(std::size_t& offset, T& value) const;
  template <class Real, class Integer, bool Swap, class OnReal, class OnInteger>
  void ReadBinaryLines(
    const Section& section, const IndexCheck& check, OnReal& onReal, OnInteger& onInteger) const;

  std::string Path;
  const char* Data = nullptr;
  std::size_t Size = 0;
  bool Binary = false;
  bool SwapBytes = false;
  Layout FileLayout;
  std::size_t DimensionOffset = 0;
  std::map<int, Section> Sections;
  std::vector<std::string> Skipped;
};

template <class T>
bool InputFile::ParseNumber(std::size_t& offset, T& value) const
{
  offset = this->SkipBlanks(offset);
  const char* first = this->Data + offset;
  const char* last = this->Data + this->Size;
  auto result = std::from_chars(first, last, value);
  const char next = result.ptr != last ? *result.ptr : ' ';
  const bool separated = next == ' ' || next == '\n' || next == '\t' || next == '\r' ||
    next == '\f' || next == '\v' || next == '#';
  if (result.ec != std::errc() || !separated)
  {
    return false;
  }
  offset = static_cast<std::size_t>(result.ptr - this->Data);
  return true;
}

namespace detail
{
template <class T, bool Swap>
T Load(const char* bytes)
{
  T value;
  if (Swap)
  {
    char reversed[sizeof(T)];
    for (std::size_t b = 0; b < sizeof(T); ++b)
    {
      reversed[b] = bytes[sizeof(T) - 1 - b];
    }
    std::memcpy(&value, reversed, sizeof(T));
  }
  else
  {
    std::memcpy(&value, bytes, sizeof(T));
  }
  return value;
}
}

template <class Real, class Integer, bool Swap, class OnReal, class OnInteger>
void InputFile::ReadBinaryLines(
  const Section& section, const IndexCheck& check, OnReal& onReal, OnInteger& onInteger) const
{
  // Fixed-size records: each value is a load at a known offset, the checks and the byte order
  // resolved at compile time. Indexing checked that every line lies inside the file.
  const char* data = this->Data + section.dataOffset;
  for (std::int64_t line = 0; line < section.lines; ++line)
  {
    for (int r = 0; r < section.reals; ++r, data += sizeof(Real))
    {
      onReal(static_cast<double>(detail::Load<Real, Swap>(data)));
    }
    for (int i = 0; i < section.integers; ++i, data += sizeof(Integer))
    {
      const std::int64_t value = detail::Load<Integer, Swap>(data);
      if (i < check.columns && (value < 1 || value > check.count))
      {
        throw FormatError(this->Where(section, line, static_cast<std::size_t>(data - this->Data)) +
          ": " + check.what + " " + std::to_string(value) + " does not exist (the file has " +
          std::to_string(check.count) + " " + check.of + ")");
      }
      onInteger(value);
    }
  }
}

template <class OnReal, class OnInteger>
void InputFile::ReadLines(
  const Section& section, const IndexCheck& check, OnReal&& onReal, OnInteger&& onInteger) const
{
  const int realBytes = this->FileLayout.RealBytes();
  const int integerBytes = this->FileLayout.IntegerBytes();
  if (this->Binary)
  {
    const int layout = (realBytes == 8) * 4 + (integerBytes == 8) * 2 + this->SwapBytes;
    switch (layout)
    {
      case 0: return this->ReadBinaryLines<float, std::int32_t, false>(section, check, onReal, onInteger);
      case 1: return this->ReadBinaryLines<float, std::int32_t, true>(section, check, onReal, onInteger);
      case 2: return this->ReadBinaryLines<float, std::int64_t, false>(section, check, onReal, onInteger);
      case 3: return this->ReadBinaryLines<float, std::int64_t, true>(section, check, onReal, onInteger);
      case 4: return this->ReadBinaryLines<double, std::int32_t, false>(section, check, onReal, onInteger);
      case 5: return this->ReadBinaryLines<double, std::int32_t, true>(section, check, onReal, onInteger);
      case 6: return this->ReadBinaryLines<double, std::int64_t, false>(section, check, onReal, onInteger);
      default: return this->ReadBinaryLines<double, std::int64_t, true>(section, check, onReal, onInteger);
    }
  }
  std::size_t offset = section.dataOffset;
  for (std::int64_t line = 0; line < section.lines; ++line)
  {
    for (int r = 0; r < section.reals; ++r)
    {
      bool parsed = false;
      double value = 0;
      if (realBytes == 4)
      {
        float single = 0; // version 1 holds floats: parse them as such, not rounded twice
        parsed = this->ParseNumber(offset, single);
        value = single;
      }
      else
      {
        parsed = this->ParseNumber(offset, value);
      }
      if (!parsed)
      {
        const std::size_t start = this->SkipBlanks(offset);
        throw FormatError(this->Where(section, line, start) + ": expected a real number, found '" +
          std::string(this->Data + start, this->TokenEnd(start) - start) + "'");
      }
      onReal(value);
    }
    for (int i = 0; i < section.integers; ++i)
    {
      offset = this->SkipBlanks(offset);
      const std::size_t start = offset;
      std::int64_t value = 0;
      if (!this->ParseNumber(offset, value))
      {
        throw FormatError(this->Where(section, line, start) + ": expected an integer, found '" +
          std::string(this->Data + start, this->TokenEnd(start) - start) + "'");
      }
      if (i < check.columns && (value < 1 || value > check.count))
      {
        throw FormatError(this->Where(section, line, start) + ": " + check.what + " " +
          std::to_string(value) + " does not exist (the file has " + std::to_string(check.count) +
          " " + check.of + ")");
      }
      if (integerBytes == 4 &&
        (value < std::numeric_limits<std::int32_t>::min() ||
          value > std::numeric_limits<std::int32_t>::max()))
      {
        // Versions 1 to 3 hold 32-bit integers (what a binary file of the same version holds).
        throw FormatError(this->Where(section, line, start) + ": the integer " +
          std::to_string(value) + " needs 64 bits, which only version 4 has (this file is " +
          "version " + std::to_string(this->FileLayout.version) + ")");
      }
      onInteger(value);
    }
  }
}
}

#endif
