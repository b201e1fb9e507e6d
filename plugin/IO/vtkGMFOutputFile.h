// Writing a GMF file keyword by keyword: text (.mesh/.sol) or binary (.meshb/.solb, this
// machine's byte order) by the extension, in a given version and dimension. Values go through
// a large buffer; text numbers are written with std::to_chars in their shortest exact form,
// so that reading them back gives the same values.
//
// The file is written under a temporary name beside it (".<name>.XXXXXX") and takes its name
// only in Commit, after Close: an error on the way leaves the file that was there (the
// temporary one is removed when the OutputFile goes without Commit).
#ifndef vtkGMFOutputFile_h
#define vtkGMFOutputFile_h

#include "vtkGMFFormat.h"

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

namespace gmf
{
class OutputFile
{
public:
  /// Creates the file and writes its header (version and dimension). Throws FormatError.
  OutputFile(const std::string& path, int version, int dimension);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  static bool IsBinaryName(const std::string& path);

  /// Starts a keyword of `lines` lines (solution keywords also take their field types); its
  /// lines follow with Real, Integer and EndLine, as many values as LineFormat says.
  void BeginKeyword(int keyword, std::int64_t lines, const std::vector<int>& solutionTypes = {});
  void Real(double value);
  void Integer(std::int64_t value);
  void EndLine();
  /// Writes End and closes the file (still under its temporary name); throws FormatError if
  /// anything could not be written.
  void Close();
  /// Gives the closed file its name, replacing the file of that name (whose permissions it
  /// keeps). Throws FormatError.
  void Commit();

private:
  void Put(const void* bytes, std::size_t count);
  void PutText(const char* text);
  void PutPosition(std::uint64_t position);
  void Flush();
  void CheckKeywordComplete();

  std::string Path;      // the name the file will have (in messages)
  std::string Target;    // where it goes: Path, or the file a symbolic link Path names
  std::string Temporary; // where it is written until Commit ("" once committed)
  std::FILE* File = nullptr;
  bool Closed = false;
  bool Binary = false;
  Layout FileLayout;
  std::unique_ptr<char[]> Buffer; // BufferBytes, not initialized
  std::size_t Used = 0;
  std::uint64_t Offset = 0;        // bytes written so far, buffer included
  std::uint64_t KeywordEnd = 0;    // where the current binary keyword's data must end
  int CurrentKeyword = 0;
};
}

#endif
