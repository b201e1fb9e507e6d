#include "gpumesh/runtime/ProgramBinaryCache.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <system_error>

namespace gpumesh
{

namespace fs = std::filesystem;

namespace
{
const char magic[] = "GPUMESH-CL-BINARY-1\n";
constexpr std::size_t magicSize = sizeof(magic) - 1;

// FNV-1a with a final avalanche; two seeds give the 128 bits that name a source text.
std::uint64_t hash64(const void* data, std::size_t size, std::uint64_t seed)
{
  std::uint64_t h = 0xcbf29ce484222325ull ^ seed;
  const auto* bytes = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < size; ++i)
  {
    h ^= bytes[i];
    h *= 0x100000001b3ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ull;
  return h ^ (h >> 33);
}

std::string hex(std::uint64_t value)
{
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(value));
  return text;
}

const char* environment(const char* name)
{
  const char* value = std::getenv(name);
  return value && *value ? value : nullptr;
}

bool readExactly(std::ifstream& in, void* data, std::size_t size)
{
  return static_cast<bool>(in.read(static_cast<char*>(data), static_cast<std::streamsize>(size)));
}
} // namespace

ProgramBinaryCache::ProgramBinaryCache(std::string folder)
  : Folder(std::move(folder))
{
}

std::string ProgramBinaryCache::defaultFolder()
{
  if (const char* folder = environment("GPUMESH_CACHE_DIR"))
    return folder;
  if (const char* folder = environment("XDG_CACHE_HOME"))
    return (fs::path(folder) / "gpumesh").string();
  if (const char* home = environment("HOME"))
    return (fs::path(home) / ".cache" / "gpumesh").string();
  return {};
}

ProgramBinaryCache ProgramBinaryCache::fromEnvironment()
{
  const char* setting = std::getenv("GPUMESH_PROGRAM_CACHE");
  return ProgramBinaryCache(setting && std::string(setting) == "0" ? std::string() : defaultFolder());
}

std::string ProgramBinaryCache::key(
  const std::string& deviceIdentity, const std::string& options, const std::string& source)
{
  return deviceIdentity + "\noptions: " + options + "\nsource: " + std::to_string(source.size()) + " bytes " +
    hex(hash64(source.data(), source.size(), 0)) + hex(hash64(source.data(), source.size(), 0x9e3779b97f4a7c15ull));
}

std::string ProgramBinaryCache::path(const std::string& key, const char* extension) const
{
  return (fs::path(Folder) / (hex(hash64(key.data(), key.size(), 0)) + extension)).string();
}

std::vector<unsigned char> ProgramBinaryCache::load(const std::string& key) const
{
  return read(path(key, ".bin"), key);
}

void ProgramBinaryCache::store(const std::string& key, const std::vector<unsigned char>& binary) const
{
  if (write(path(key, ".bin"), key, binary))
    trim();
}

std::string ProgramBinaryCache::loadNote(const std::string& key) const
{
  const std::vector<unsigned char> text = read(path(key, ".note"), key);
  return std::string(text.begin(), text.end());
}

void ProgramBinaryCache::storeNote(const std::string& key, const std::string& text) const
{
  write(path(key, ".note"), key, std::vector<unsigned char>(text.begin(), text.end()));
}

std::vector<unsigned char> ProgramBinaryCache::read(const std::string& file, const std::string& key) const
{
  if (!enabled())
    return {};
  std::ifstream in(file, std::ios::binary);
  if (!in)
    return {};
  std::error_code error;
  const std::uint64_t fileSize = fs::file_size(file, error);
  if (error)
    return {};
  // Every length is checked against the file's size before anything is allocated: a
  // truncated or foreign file is a miss.
  char header[magicSize];
  std::uint64_t keySize = 0;
  if (!readExactly(in, header, magicSize) || std::memcmp(header, magic, magicSize) != 0 ||
    !readExactly(in, &keySize, sizeof(keySize)) || keySize != key.size())
    return {};
  std::string storedKey(keySize, '\0');
  std::uint64_t binarySize = 0;
  std::uint64_t binaryHash = 0;
  if (!readExactly(in, storedKey.data(), keySize) || storedKey != key ||
    !readExactly(in, &binarySize, sizeof(binarySize)) || !readExactly(in, &binaryHash, sizeof(binaryHash)) ||
    binarySize == 0 || magicSize + 3 * sizeof(std::uint64_t) + keySize + binarySize != fileSize)
    return {};
  std::vector<unsigned char> binary(binarySize);
  if (!readExactly(in, binary.data(), binary.size()) || hash64(binary.data(), binary.size(), 0) != binaryHash)
    return {};
  // A hit makes the file the most recently used.
  fs::last_write_time(file, fs::file_time_type::clock::now(), error);
  return binary;
}

bool ProgramBinaryCache::write(
  const std::string& file, const std::string& key, const std::vector<unsigned char>& binary) const
{
  if (!enabled() || binary.empty())
    return false;
  std::error_code error;
  fs::create_directories(Folder, error);
  // A name no other thread or process writes: readers see the old file or the whole new one.
  static std::atomic<unsigned> counter{ 0 };
  const std::string temporary = file + ".tmp" + std::to_string(std::random_device{}()) + "-" + std::to_string(++counter);
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    const std::uint64_t keySize = key.size();
    const std::uint64_t binarySize = binary.size();
    const std::uint64_t binaryHash = hash64(binary.data(), binary.size(), 0);
    out.write(magic, magicSize);
    out.write(reinterpret_cast<const char*>(&keySize), sizeof(keySize));
    out.write(key.data(), static_cast<std::streamsize>(key.size()));
    out.write(reinterpret_cast<const char*>(&binarySize), sizeof(binarySize));
    out.write(reinterpret_cast<const char*>(&binaryHash), sizeof(binaryHash));
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    out.close();
    if (!out)
    {
      fs::remove(temporary, error);
      return false;
    }
  }
  fs::rename(temporary, file, error);
  if (error)
  {
    fs::remove(temporary, error);
    return false;
  }
  return true;
}

void ProgramBinaryCache::setLimits(std::size_t maxFiles, std::uint64_t maxBytes)
{
  MaxFiles = maxFiles;
  MaxBytes = maxBytes;
}

void ProgramBinaryCache::trim() const
{
  struct Entry
  {
    fs::path path;
    fs::file_time_type used;
    std::uint64_t bytes;
  };
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  std::error_code error;
  for (fs::directory_iterator it(Folder, error), end; !error && it != end; it.increment(error))
  {
    std::error_code entryError;
    const fs::path& file = it->path();
    if (file.extension() != ".bin" || !it->is_regular_file(entryError))
    {
      // The temporary file of a process that died while writing, a day later.
      if (file.filename().string().find(".tmp") != std::string::npos &&
        it->last_write_time(entryError) < fs::file_time_type::clock::now() - std::chrono::hours(24))
        fs::remove(file, entryError);
      continue;
    }
    Entry entry{ file, it->last_write_time(entryError), it->file_size(entryError) };
    if (!entryError)
    {
      total += entry.bytes;
      entries.push_back(std::move(entry));
    }
  }
  if (entries.size() <= MaxFiles && total <= MaxBytes)
    return;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  std::size_t count = entries.size();
  for (const Entry& entry : entries)
  {
    if (count <= MaxFiles && total <= MaxBytes)
      break;
    // Another process may have removed it already; either way it no longer counts.
    fs::remove(entry.path, error);
    --count;
    total -= entry.bytes;
  }
}

} // namespace gpumesh
