// Built OpenCL programs kept on disk between processes, for drivers that keep none themselves.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace gpumesh
{

/// A folder of program binaries (CL_PROGRAM_BINARIES), one file per key. A key names
/// everything a binary depends on: platform, device, driver version, build options and the
/// program's full source text. The cache is only ever a shortcut: a missing, corrupt,
/// truncated or foreign file, or a folder that cannot be read or written, is a miss and never
/// an error; files are written whole (temporary file, then rename) so that processes sharing
/// the folder never read half a file; and the folder is bounded, the least recently used
/// files (by modification time, which a hit renews) removed beyond maxFiles or maxBytes.
class ProgramBinaryCache
{
public:
  /// `folder` empty: a disabled cache (every load misses, every store is dropped).
  explicit ProgramBinaryCache(std::string folder = {});

  /// The cache of this process's user: a disabled one when GPUMESH_PROGRAM_CACHE is "0",
  /// else in defaultFolder().
  static ProgramBinaryCache fromEnvironment();
  /// $GPUMESH_CACHE_DIR, else $XDG_CACHE_HOME/gpumesh, else $HOME/.cache/gpumesh ("" when
  /// none of them is set).
  static std::string defaultFolder();

  /// The key of a program: the identity of the device and its driver, the build options,
  /// and the source's length and 128-bit hash (the file keeps the key and checks it on load).
  static std::string key(const std::string& deviceIdentity, const std::string& options, const std::string& source);
  /// The file a key's binary (".bin") or note (".note") lives in: the key's hash in hexadecimal.
  std::string path(const std::string& key, const char* extension = ".bin") const;

  bool enabled() const { return !Folder.empty(); }
  const std::string& folder() const { return Folder; }

  /// The binary stored under `key`, or an empty vector when there is none usable.
  std::vector<unsigned char> load(const std::string& key) const;
  /// Stores `binary` under `key` and trims the folder; failures are ignored.
  void store(const std::string& key, const std::vector<unsigned char>& binary) const;

  /// A short text stored under `key` beside the binaries (what a filter needs), "" when none.
  /// Notes are few and small: they do not count against the bounds.
  std::string loadNote(const std::string& key) const;
  void storeNote(const std::string& key, const std::string& text) const;

  /// Bounds of the folder (defaults: 512 files, 256 MiB).
  void setLimits(std::size_t maxFiles, std::uint64_t maxBytes);
  std::size_t maxFiles() const { return MaxFiles; }
  std::uint64_t maxBytes() const { return MaxBytes; }

private:
  std::vector<unsigned char> read(const std::string& file, const std::string& key) const;
  bool write(const std::string& file, const std::string& key, const std::vector<unsigned char>& bytes) const;
  void trim() const;

  std::string Folder;
  std::size_t MaxFiles = 512;
  std::uint64_t MaxBytes = std::uint64_t(256) << 20;
};

} // namespace gpumesh
