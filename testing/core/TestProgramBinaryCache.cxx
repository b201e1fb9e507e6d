// Programs kept on disk between processes: a second context (as a second process would) loads
// them and computes the same; a damaged, foreign or unwritable cache builds from source; the
// key follows options and source; the folder stays bounded; programs build concurrently.
#include "gpumesh/primitives/Reduce.h"
#include "gpumesh/runtime/DeviceContext.h"
#include "gpumesh/runtime/DeviceRun.h"
#include "gpumesh/runtime/KernelSources.h"
#include "gpumesh/runtime/ProgramBinaryCache.h"

#include <gtest/gtest.h>

#include <chrono>
#include <unistd.h>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

using namespace gpumesh;
namespace fs = std::filesystem;

namespace
{
// A fresh folder per test, removed afterwards.
class ProgramBinaryCacheTest : public ::testing::Test
{
protected:
  void SetUp() override
  {
    Folder = fs::temp_directory_path() /
      ("gpumesh-cache-test-" + std::to_string(::getpid()) + "-" +
        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(Folder);
  }
  void TearDown() override { fs::remove_all(Folder); }

  // A context of its own, as a new process would have (acquire() shares one per process).
  std::shared_ptr<DeviceContext> freshContext(const std::string& folder) const
  {
    const DeviceInfo info = selectDevice("auto");
    auto context = std::make_shared<DeviceContext>(info, openDevice(info));
    context->setBinaryCache(ProgramBinaryCache(folder));
    return context;
  }

  std::vector<fs::path> binaries() const
  {
    std::vector<fs::path> files;
    if (fs::exists(Folder))
      for (const auto& entry : fs::directory_iterator(Folder))
        if (entry.path().extension() == ".bin")
          files.push_back(entry.path());
    return files;
  }

  fs::path Folder;
};

std::vector<float> values(std::size_t n)
{
  std::mt19937 generator(7);
  std::uniform_real_distribution<float> distribution(-3.0f, 5.0f);
  std::vector<float> result(n);
  for (auto& v : result)
    v = distribution(generator);
  return result;
}

// A whole algorithm (the reduction's programs) on `context`, and what getting its programs took.
Statistics reduceOn(const std::shared_ptr<DeviceContext>& context, ProgramCounts& counts)
{
  const std::vector<float> data = values(100000);
  DeviceRun run(context);
  RealBuffer buffer = run.uploadReal(data.data(), data.size(), "values");
  const Statistics statistics = reduceStatistics(run, buffer, data.size());
  counts = run.programCounts();
  return statistics;
}

void expectSame(const Statistics& a, const Statistics& b)
{
  EXPECT_EQ(a.count, b.count);
  EXPECT_EQ(a.minimum, b.minimum);
  EXPECT_EQ(a.maximum, b.maximum);
  EXPECT_EQ(a.sum, b.sum);
  EXPECT_EQ(a.l2Norm(), b.l2Norm());
}

void setAge(const fs::path& file, std::chrono::hours age)
{
  fs::last_write_time(file, fs::file_time_type::clock::now() - age);
}
} // namespace

TEST_F(ProgramBinaryCacheTest, SecondContextLoadsProgramsAndComputesTheSame)
{
  ProgramCounts first;
  const Statistics built = reduceOn(freshContext(Folder.string()), first);
  EXPECT_GE(first.built, 1u);
  EXPECT_EQ(first.fromBinaryCache, 0u);
  EXPECT_EQ(binaries().size(), first.built);

  auto second = freshContext(Folder.string());
  ProgramCounts loaded;
  expectSame(reduceOn(second, loaded), built);
  EXPECT_EQ(loaded.built, 0u);
  EXPECT_EQ(loaded.fromBinaryCache, first.built);
  EXPECT_EQ(second->programsBuilt(), 0u);
  EXPECT_EQ(second->programsFromBinaryCache(), first.built);
}

TEST_F(ProgramBinaryCacheTest, DamagedFilesAreBuiltFromSource)
{
  ProgramCounts first;
  const Statistics built = reduceOn(freshContext(Folder.string()), first);
  ASSERT_FALSE(binaries().empty());
  // Truncated, garbled in the middle, emptied: each is a miss, rebuilt and rewritten whole.
  for (int damage = 0; damage < 3; ++damage)
  {
    for (const auto& file : binaries())
    {
      const auto size = fs::file_size(file);
      if (damage == 0)
        fs::resize_file(file, size / 2);
      else if (damage == 1)
      {
        std::fstream stream(file, std::ios::in | std::ios::out | std::ios::binary);
        stream.seekp(static_cast<std::streamoff>(size / 2));
        stream.write("garbage!", 8);
      }
      else
        fs::resize_file(file, 0);
    }
    ProgramCounts counts;
    expectSame(reduceOn(freshContext(Folder.string()), counts), built);
    EXPECT_EQ(counts.built, first.built) << "damage " << damage;
    EXPECT_EQ(counts.fromBinaryCache, 0u) << "damage " << damage;
  }
  ProgramCounts repaired;
  reduceOn(freshContext(Folder.string()), repaired);
  EXPECT_EQ(repaired.fromBinaryCache, first.built);
}

TEST_F(ProgramBinaryCacheTest, BinaryTheDriverRejectsIsBuiltFromSource)
{
  // A well-formed file whose key matches but whose binary is not one the driver knows.
  auto context = freshContext(Folder.string());
  const std::string options = "-DWG=64";
  context->binaryCache().store(ProgramBinaryCache::key(context->deviceIdentity(), "-cl-std=CL1.2 " + options,
                                 programSource("reduce")),
    std::vector<unsigned char>(4096, 0x5a));
  ProgramCounts counts;
  EXPECT_NO_THROW(context->program("reduce", options, &counts));
  EXPECT_EQ(counts.built, 1u);
  EXPECT_EQ(counts.fromBinaryCache, 0u);
}

TEST_F(ProgramBinaryCacheTest, EntryOfAnotherKeyIsBuiltFromSourceAndReplaced)
{
  // A whole, valid file of another program (other options) where this key's file goes: the key
  // it holds does not match, so it is a miss, the program is built from source and its own
  // binary replaces the file.
  auto context = freshContext(Folder.string());
  ProgramCounts first;
  context->program("reduce", "-DWG=64", &first);
  ASSERT_EQ(first.built, 1u);
  const std::string source = programSource("reduce");
  const ProgramBinaryCache& cache = context->binaryCache();
  const std::string stored = ProgramBinaryCache::key(context->deviceIdentity(), "-cl-std=CL1.2 -DWG=64", source);
  const std::string wanted = ProgramBinaryCache::key(context->deviceIdentity(), "-cl-std=CL1.2 -DWG=32", source);
  ASSERT_FALSE(cache.load(stored).empty());
  fs::copy_file(cache.path(stored), cache.path(wanted), fs::copy_options::overwrite_existing);
  EXPECT_TRUE(cache.load(wanted).empty());

  ProgramCounts counts;
  freshContext(Folder.string())->program("reduce", "-DWG=32", &counts);
  EXPECT_EQ(counts.built, 1u);
  EXPECT_EQ(counts.fromBinaryCache, 0u);
  ProgramCounts again;
  freshContext(Folder.string())->program("reduce", "-DWG=32", &again);
  EXPECT_EQ(again.fromBinaryCache, 1u);
  EXPECT_EQ(again.built, 0u);
}

TEST_F(ProgramBinaryCacheTest, UnwritableFolderBuildsFromSource)
{
  // A folder below a plain file cannot be created, even by root.
  fs::create_directories(Folder);
  std::ofstream(Folder / "file") << "not a folder";
  const std::string unwritable = (Folder / "file" / "cache").string();
  for (int process = 0; process < 2; ++process)
  {
    ProgramCounts counts;
    EXPECT_NO_THROW(reduceOn(freshContext(unwritable), counts));
    EXPECT_GE(counts.built, 1u);
    EXPECT_EQ(counts.fromBinaryCache, 0u);
  }
}

TEST_F(ProgramBinaryCacheTest, KeyFollowsDeviceOptionsAndSource)
{
  const std::string source = programSource("reduce");
  const std::string key = ProgramBinaryCache::key("device A", "-DWG=64", source);
  EXPECT_EQ(key, ProgramBinaryCache::key("device A", "-DWG=64", source));
  EXPECT_NE(key, ProgramBinaryCache::key("device B", "-DWG=64", source));
  EXPECT_NE(key, ProgramBinaryCache::key("device A", "-DWG=128", source));
  EXPECT_NE(key, ProgramBinaryCache::key("device A", "-DWG=64", source + " "));
  std::string edited = source;
  edited[edited.size() / 2] ^= 1; // same length, one bit
  EXPECT_NE(key, ProgramBinaryCache::key("device A", "-DWG=64", edited));

  // Different keys live in different files; a file never answers for another key.
  ProgramBinaryCache cache(Folder.string());
  cache.store(key, { 1, 2, 3 });
  const std::string other = ProgramBinaryCache::key("device A", "-DWG=128", source);
  EXPECT_NE(cache.path(key), cache.path(other));
  EXPECT_EQ(cache.load(key), (std::vector<unsigned char>{ 1, 2, 3 }));
  EXPECT_TRUE(cache.load(other).empty());
  fs::copy_file(cache.path(key), cache.path(other));
  EXPECT_TRUE(cache.load(other).empty());
}

TEST_F(ProgramBinaryCacheTest, FolderStaysBoundedLeastRecentlyUsedFirst)
{
  ProgramBinaryCache cache(Folder.string());
  cache.setLimits(3, 1u << 20);
  const std::vector<unsigned char> binary(1000, 7);
  for (const char* key : { "a", "b", "c" })
    cache.store(key, binary);
  setAge(cache.path("a"), std::chrono::hours(3));
  setAge(cache.path("b"), std::chrono::hours(2));
  setAge(cache.path("c"), std::chrono::hours(1));
  ASSERT_FALSE(cache.load("a").empty()); // now the most recently used
  cache.store("d", binary);
  EXPECT_EQ(binaries().size(), 3u);
  EXPECT_TRUE(cache.load("b").empty());
  EXPECT_FALSE(cache.load("a").empty());
  EXPECT_FALSE(cache.load("c").empty());
  EXPECT_FALSE(cache.load("d").empty());

  // Bytes bound the folder too.
  cache.setLimits(100, 2500);
  cache.store("e", binary);
  EXPECT_EQ(binaries().size(), 2u);
  EXPECT_FALSE(cache.load("e").empty());
}

TEST_F(ProgramBinaryCacheTest, EnvironmentChoosesTheFolderOrTurnsItOff)
{
  const char* const names[] = { "GPUMESH_PROGRAM_CACHE", "GPUMESH_CACHE_DIR", "XDG_CACHE_HOME", "HOME" };
  std::vector<std::pair<bool, std::string>> saved; // set, value
  for (const char* name : names)
  {
    const char* value = std::getenv(name);
    saved.emplace_back(value != nullptr, value ? value : "");
  }
  setenv("HOME", "/home/someone", 1);
  unsetenv("XDG_CACHE_HOME");
  unsetenv("GPUMESH_CACHE_DIR");
  unsetenv("GPUMESH_PROGRAM_CACHE");
  EXPECT_EQ(ProgramBinaryCache::defaultFolder(), "/home/someone/.cache/gpumesh");
  setenv("XDG_CACHE_HOME", "/xdg", 1);
  EXPECT_EQ(ProgramBinaryCache::defaultFolder(), "/xdg/gpumesh");
  setenv("GPUMESH_CACHE_DIR", "/mine", 1);
  EXPECT_EQ(ProgramBinaryCache::fromEnvironment().folder(), "/mine");
  setenv("GPUMESH_PROGRAM_CACHE", "0", 1);
  EXPECT_FALSE(ProgramBinaryCache::fromEnvironment().enabled());
  for (std::size_t i = 0; i < saved.size(); ++i)
    saved[i].first ? setenv(names[i], saved[i].second.c_str(), 1) : unsetenv(names[i]);
}

TEST_F(ProgramBinaryCacheTest, ProgramsBuildConcurrentlyOnceAndNeedsAreRemembered)
{
  auto context = freshContext(Folder.string());
  const std::vector<ProgramRequest> requests = { { "reduce", "-DWG=64" }, { "reduce", "-DWG=32" },
    { "reduce", "-DWG=128" }, { "reduce", "-DWG=64" } };
  ProgramCounts counts;
  context->buildPrograms(requests, &counts);
  EXPECT_EQ(counts.built + counts.fromBinaryCache, 3u);
  EXPECT_EQ(context->programsBuilt(), 3u);
  ProgramCounts again;
  context->buildPrograms(requests, &again);
  context->program("reduce", "-DWG=32", &again);
  EXPECT_EQ(again.built + again.fromBinaryCache, 0u);

  // A failing program among them: the others are built, the error comes once all finished.
  EXPECT_THROW(context->buildPrograms({ { "reduce", "-DWG=not_a_number" }, { "reduce", "-DWG=16" } }), Error);
  EXPECT_EQ(context->programsBuilt(), 5u);

  // What a user needed, as a later process finds it (sorted, without repeats).
  context->rememberProgramsNeededBy("some filter Single", requests);
  auto later = freshContext(Folder.string());
  EXPECT_EQ(later->programsNeededBy("some filter Single"),
    (std::vector<ProgramRequest>{ { "reduce", "-DWG=128" }, { "reduce", "-DWG=32" }, { "reduce", "-DWG=64" } }));
  EXPECT_TRUE(later->programsNeededBy("another filter").empty());
  ProgramCounts loaded;
  later->buildPrograms(later->programsNeededBy("some filter Single"), &loaded);
  EXPECT_EQ(loaded.fromBinaryCache, 3u);
  EXPECT_EQ(loaded.built, 0u);

  // A later run that needed fewer programs and one more (a larger mesh, another property) adds
  // to what was remembered: the next process builds all of them.
  later->rememberProgramsNeededBy("some filter Single", { { "reduce", "-DWG=16" }, { "reduce", "-DWG=32" } });
  EXPECT_EQ(freshContext(Folder.string())->programsNeededBy("some filter Single"),
    (std::vector<ProgramRequest>{
      { "reduce", "-DWG=128" }, { "reduce", "-DWG=16" }, { "reduce", "-DWG=32" }, { "reduce", "-DWG=64" } }));

  // A program that an older version of the kernels had is forgotten when the list is added to.
  later->rememberProgramsNeededBy("older filter", { { "no_such_program", "" }, { "reduce", "-DWG=16" } });
  later->rememberProgramsNeededBy("older filter", { { "reduce", "-DWG=32" } });
  EXPECT_EQ(freshContext(Folder.string())->programsNeededBy("older filter"),
    (std::vector<ProgramRequest>{ { "reduce", "-DWG=16" }, { "reduce", "-DWG=32" } }));
}
