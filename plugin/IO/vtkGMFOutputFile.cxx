#include "vtkGMFOutputFile.h"

#include <cerrno>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace gmf
{
namespace
{
constexpr std::size_t BufferBytes = std::size_t(1) << 22;

bool EndsWith(const std::string& text, const char* suffix)
{
  const std::size_t length = std::strlen(suffix);
  return text.size() >= length && text.compare(text.size() - length, length, suffix) == 0;
}

// The process's umask, read without changing it (umask() would, for every thread).
mode_t CurrentUmask()
{
  std::ifstream status("/proc/self/status");
  std::string key;
  while (status >> key)
  {
    if (key == "Umask:")
    {
      std::string value;
      status >> value;
      return static_cast<mode_t>(std::strtoul(value.c_str(), nullptr, 8));
    }
  }
  return 022;
}
}

bool OutputFile::IsBinaryName(const std::string& path)
{
  return EndsWith(path, ".meshb") || EndsWith(path, ".solb");
}

OutputFile::OutputFile(const std::string& path, int version, int dimension)
  : Path(path)
  , Binary(IsBinaryName(path))
  , Buffer(new char[BufferBytes])
{
  if (!this->Binary && !EndsWith(path, ".mesh") && !EndsWith(path, ".sol"))
  {
    throw FormatError(path + ": not a GMF file name (.mesh, .meshb, .sol or .solb)");
  }
  if (version < FirstVersion || version > LastVersion)
  {
    throw FormatError(path + ": unknown version " + std::to_string(version) + " (1 to 4)");
  }
  if (dimension != 2 && dimension != 3)
  {
    throw FormatError(path + ": dimension " + std::to_string(dimension) + " (must be 2 or 3)");
  }
  this->FileLayout.version = version;
  this->FileLayout.dimension = dimension;
  // The temporary file goes beside the file it replaces (the target of a symbolic link), so
  // that the rename of Commit stays in one file system.
  this->Target = path;
  struct stat status;
  const bool exists = ::stat(path.c_str(), &status) == 0;
  struct stat link;
  if (exists && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
  {
    if (char* resolved = ::realpath(path.c_str(), nullptr))
    {
      this->Target = resolved;
      std::free(resolved);
    }
  }
  if (exists && !S_ISREG(status.st_mode))
  {
    throw FormatError(path + ": exists and is not a regular file");
  }
  const std::size_t slash = this->Target.rfind('/');
  const std::string directory = slash == std::string::npos ? "" : this->Target.substr(0, slash + 1);
  const std::string name =
    slash == std::string::npos ? this->Target : this->Target.substr(slash + 1);
  std::string temporary = directory + "." + name + ".XXXXXX";
  const int descriptor = ::mkostemp(&temporary[0], O_CLOEXEC);
  if (descriptor < 0)
  {
    throw FormatError(path + ": cannot create a temporary file beside it: " + std::strerror(errno));
  }
  this->Temporary = temporary;
  // The permissions of the file replaced, or those a new file gets (mkstemp gives 0600).
  const mode_t mode = exists ? (status.st_mode & 07777) : (0666 & ~CurrentUmask());
  ::fchmod(descriptor, mode);
  this->File = ::fdopen(descriptor, "wb");
  if (!this->File)
  {
    const int error = errno;
    ::close(descriptor);
    ::unlink(this->Temporary.c_str());
    throw FormatError(path + ": cannot create: " + std::strerror(error));
  }
  try
  {
    if (this->Binary)
    {
      const std::int32_t header[3] = { 1, version, Dimension };
      this->Put(header, sizeof(header));
      this->PutPosition(this->Offset + this->FileLayout.PositionBytes() + 4);
      const std::int32_t value = dimension;
      this->Put(&value, 4);
    }
    else
    {
      const std::string header = "MeshVersionFormatted " + std::to_string(version) +
        "\n\nDimension " + std::to_string(dimension) + "\n";
      this->PutText(header.c_str());
    }
  }
  catch (...)
  {
    std::fclose(this->File); // no destructor after a constructor that throws
    ::unlink(this->Temporary.c_str());
    throw;
  }
}

OutputFile::~OutputFile()
{
  if (this->File)
  {
    std::fclose(this->File);
  }
  if (!this->Temporary.empty())
  {
    ::unlink(this->Temporary.c_str()); // never committed: the file that was there stays
  }
}

void OutputFile::Put(const void* bytes, std::size_t count)
{
  if (this->Used + count > BufferBytes)
  {
    this->Flush();
  }
  std::memcpy(this->Buffer.get() + this->Used, bytes, count);
  this->Used += count;
  this->Offset += count;
}

void OutputFile::PutText(const char* text)
{
  this->Put(text, std::strlen(text));
}

void OutputFile::PutPosition(std::uint64_t position)
{
  if (this->FileLayout.PositionBytes() == 8)
  {
    const std::int64_t value = static_cast<std::int64_t>(position);
    this->Put(&value, 8);
    return;
  }
  if (position > static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
  {
    throw FormatError(this->Path + ": the file passes 2 GiB, which version " +
      std::to_string(this->FileLayout.version) + " cannot address (use version 3 or 4)");
  }
  const std::int32_t value = static_cast<std::int32_t>(position);
  this->Put(&value, 4);
}

void OutputFile::Flush()
{
  if (this->Used && std::fwrite(this->Buffer.get(), 1, this->Used, this->File) != this->Used)
  {
    throw FormatError(this->Path + ": write failed: " + std::strerror(errno));
  }
  this->Used = 0;
}

void OutputFile::CheckKeywordComplete()
{
  if (this->Binary && this->CurrentKeyword && this->Offset != this->KeywordEnd)
  {
    throw FormatError(this->Path + ": " + KeywordName(this->CurrentKeyword) +
      " was given a different number of values than it declared");
  }
}

void OutputFile::BeginKeyword(int keyword, std::int64_t lines, const std::vector<int>& types)
{
  this->CheckKeywordComplete();
  const Layout& layout = this->FileLayout;
  int solutionSize = 0;
  for (int type : types)
  {
    solutionSize += SolutionTypeSize(type, layout.dimension);
  }
  int reals = 0;
  int integers = 0;
  LineFormat(keyword, layout.dimension, solutionSize, reals, integers);
  this->CurrentKeyword = keyword;
  if (!this->Binary)
  {
    std::string header = "\n" + KeywordName(keyword) + "\n" + std::to_string(lines) + "\n";
    if (!types.empty())
    {
      header += std::to_string(types.size());
      for (int type : types)
      {
        header += " " + std::to_string(type);
      }
      header += "\n";
    }
    this->PutText(header.c_str());
    return;
  }
  const std::uint64_t headerBytes = 4 + layout.PositionBytes() + layout.IntegerBytes() +
    (types.empty() ? 0 : 4 * (1 + types.size()));
  const std::uint64_t lineBytes =
    std::uint64_t(reals) * layout.RealBytes() + std::uint64_t(integers) * layout.IntegerBytes();
  this->KeywordEnd = this->Offset + headerBytes + lineBytes * std::uint64_t(lines);
  const std::int32_t code = keyword;
  this->Put(&code, 4);
  this->PutPosition(this->KeywordEnd);
  this->Integer(lines);
  if (!types.empty())
  {
    const std::int32_t count = static_cast<std::int32_t>(types.size());
    this->Put(&count, 4);
    for (int type : types)
    {
      const std::int32_t value = type;
      this->Put(&value, 4);
    }
  }
}

void OutputFile::Real(double value)
{
  const bool single = this->FileLayout.RealBytes() == 4;
  if (this->Binary)
  {
    if (single)
    {
      const float narrow = static_cast<float>(value);
      this->Put(&narrow, 4);
    }
    else
    {
      this->Put(&value, 8);
    }
    return;
  }
  char text[64];
  const auto result = single ? std::to_chars(text, text + 63, static_cast<float>(value))
                             : std::to_chars(text, text + 63, value);
  *result.ptr = ' ';
  this->Put(text, static_cast<std::size_t>(result.ptr - text) + 1);
}

void OutputFile::Integer(std::int64_t value)
{
  if (this->FileLayout.IntegerBytes() == 4 &&
    (value < std::numeric_limits<std::int32_t>::min() ||
      value > std::numeric_limits<std::int32_t>::max()))
  {
    throw FormatError(this->Path + ": " + KeywordName(this->CurrentKeyword) + ": the integer " +
      std::to_string(value) + " needs 64 bits, which only version 4 has");
  }
  if (this->Binary)
  {
    if (this->FileLayout.IntegerBytes() == 4)
    {
      const std::int32_t narrow = static_cast<std::int32_t>(value);
      this->Put(&narrow, 4);
    }
    else
    {
      this->Put(&value, 8);
    }
    return;
  }
  char text[32];
  const auto result = std::to_chars(text, text + 31, value);
  *result.ptr = ' ';
  this->Put(text, static_cast<std::size_t>(result.ptr - text) + 1);
}

void OutputFile::EndLine()
{
  if (!this->Binary)
  {
    this->Buffer[this->Used - 1] = '\n'; // replaces the space after the last value
  }
}

void OutputFile::Close()
{
  if (!this->File)
  {
    throw FormatError(this->Path + ": closed twice");
  }
  this->CheckKeywordComplete();
  this->CurrentKeyword = 0;
  if (this->Binary)
  {
    const std::int32_t code = End;
    this->Put(&code, 4);
    this->PutPosition(0);
  }
  else
  {
    this->PutText("\nEnd\n");
  }
  this->Flush();
  // On disk before it replaces anything: a crash after Commit must not leave an empty file.
  const bool synced = std::fflush(this->File) == 0 && ::fsync(::fileno(this->File)) == 0;
  const int error = errno;
  const int status = std::fclose(this->File);
  this->File = nullptr;
  if (!synced || status != 0)
  {
    throw FormatError(this->Path + ": writing failed: " + std::strerror(synced ? errno : error));
  }
  this->Closed = true;
}

void OutputFile::Commit()
{
  if (!this->Closed || this->Temporary.empty())
  {
    throw FormatError(this->Path + ": committed before it was closed");
  }
  if (::rename(this->Temporary.c_str(), this->Target.c_str()) != 0)
  {
    throw FormatError(this->Path + ": cannot replace it with " + this->Temporary + ": " +
      std::strerror(errno));
  }
  this->Temporary.clear();
}
}
