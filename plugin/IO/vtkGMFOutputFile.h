// Writing a GMF file keyword by keyword: text (.mesh/.sol) or binary (.meshb/.solb, this
// machine's byte order) by the extension, in a given version and dimension. Values go through
// a large buffer; text numbers are written with std::to_chars in their shortest exact form,
// so that reading them back gives the same values.
#ifndef vtkGMFOutputFile_h
#define vtkGMFOutputFile_h

#include "vtkGMFFormat.h"

#include <cstdint>
#include <cstdio>
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
  /// Writes End and closes the file; throws FormatError if anything could not be written.
  void Close();

private:
  void Put(const void* bytes, std::size_t count);
  void PutText(const char* text);
  void PutPosition(std::uint64_t position);
  void Flush();
  void CheckKeywordComplete();

  std::string Path;
  std::FILE* File = nullptr;
  bool Binary = false;
  Layout FileLayout;
  std::vector<char> Buffer;
  std::size_t Used = 0;
  std::uint64_t Offset = 0;        // bytes written so far, buffer included
  std::uint64_t KeywordEnd = 0;    // where the current binary keyword's data must end
  int CurrentKeyword = 0;
};
}

#endif
