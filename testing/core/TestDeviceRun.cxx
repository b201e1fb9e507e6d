// Buffers, transfers and accounting of a DeviceRun.
#include "gpumesh/runtime/DeviceRun.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>
#include <numeric>

using namespace gpumesh;

TEST(DeviceRun, CountsTransfersAndMemoryInUse)
{
  auto context = DeviceContext::acquire("0");
  const std::uint64_t deviceInUseBefore = context->counters()->memoryInUse();
  const std::uint64_t deviceUploadedBefore = context->counters()->bytesUploaded();
  DeviceRun run(context);
  std::vector<float> host(1000);
  std::iota(host.begin(), host.end(), 1.0f);
  // 4000 bytes take their size class, 4096, on the device.
  {
    DeviceBuffer<float> buffer = run.upload(host.data(), host.size(), "values");
    EXPECT_EQ(run.bytesUploaded(), 4000u);
    EXPECT_EQ(run.deviceMemoryInUse(), 4096u);
    EXPECT_GE(context->counters()->bytesUploaded() - deviceUploadedBefore, 4000u);
    std::vector<float> back(1000, -1.0f);
    run.download(buffer, back.data(), back.size(), "values");
    EXPECT_EQ(back, host);
    EXPECT_EQ(run.bytesDownloaded(), 4000u);
    DeviceBuffer<float> moved = std::move(buffer);
    EXPECT_EQ(run.deviceMemoryInUse(), 4096u);
    EXPECT_THROW(run.download(moved, back.data(), 1001, "values"), Error);
  }
  EXPECT_EQ(run.deviceMemoryInUse(), 0u);
  EXPECT_EQ(run.peakDeviceMemory(), 4096u);
  EXPECT_EQ(context->counters()->memoryInUse(), deviceInUseBefore);
}

TEST(DeviceRun, RefusesABufferLargerThanTheDeviceAllows)
{
  DeviceRun run(DeviceContext::acquire("0"));
  const std::size_t tooMany = run.info().maxAllocationBytes / sizeof(float) + 1;
  try
  {
    run.allocate<float>(tooMany, "huge points");
    FAIL() << "an oversized buffer was accepted";
  }
  catch (const Error& error)
  {
    EXPECT_NE(std::string(error.what()).find("huge points"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find(run.info().label()), std::string::npos);
  }
}

TEST(DeviceRun, ReportsKernelTimesByLabel)
{
  DeviceRun run(DeviceContext::acquire("0"));
  DeviceBuffer<float> buffer = run.allocate<float>(1 << 16, "values");
  run.fill(buffer, 2.0f, "values");
  run.fill(buffer, 3.0f, "values");
  const auto timings = run.timings();
  ASSERT_EQ(timings.size(), 1u);
  EXPECT_EQ(timings[0].count, 2u);
  EXPECT_GE(timings[0].milliseconds, 0.0);
  EXPECT_GE(run.kernelMilliseconds(), 0.0);
}

TEST(DeviceRun, StagedTransfersThroughPinnedChunks)
{
  // Tiny chunks force many staged chunks, a partial last one and both directions.
  auto context = DeviceContext::acquire("0");
  const std::size_t threshold = context->stagingThreshold();
  context->setStaging(1, 4096);
  std::vector<float> host(1000003);
  std::iota(host.begin(), host.end(), 0.5f);
  {
    DeviceRun run(context);
    DeviceBuffer<float> buffer = run.upload(host.data(), host.size(), "values");
    std::vector<float> back(host.size(), -1.0f);
    run.download(buffer, back.data(), back.size(), "values");
    EXPECT_EQ(back, host);
    EXPECT_EQ(run.bytesUploaded(), 4 * host.size());
    EXPECT_EQ(run.bytesDownloaded(), 4 * host.size());
    EXPECT_GT(run.timings().size(), 0u);
    // Host memory off the 16-byte alignment the streamed copies use, both ways.
    DeviceBuffer<float> shifted = run.upload(host.data() + 1, host.size() - 1, "shifted values");
    std::vector<float> shiftedBack(host.size() + 1, -1.0f);
    run.download(shifted, shiftedBack.data() + 1, host.size() - 1, "shifted values");
    EXPECT_TRUE(std::equal(host.begin() + 1, host.end(), shiftedBack.begin() + 1));
    EXPECT_EQ(shiftedBack[0], -1.0f);
    EXPECT_EQ(shiftedBack[host.size()], -1.0f);
  }
  context->setStaging(threshold, DeviceContext::defaultStagingChunkBytes);
}

// A CPU device's buffers live in host memory the core allocates: huge-page aligned when large
// (first touch is then one fault per 2 MiB), 128-byte aligned when small, and kept alive by the
// runtime until its last command is done. A GPU's buffers are the driver's own.
TEST(DeviceRun, CpuDeviceBuffersLiveInAlignedHostMemory)
{
  auto context = DeviceContext::acquire("0");
  DeviceRun run(context);
  const bool cpu = !run.info().isGPU;
  for (const std::size_t count : { std::size_t(3), std::size_t(1) << 22 })
  {
    std::vector<cl_uint> host(count);
    std::iota(host.begin(), host.end(), 7u);
    std::vector<cl_uint> back(count, 0);
    {
      DeviceBuffer<cl_uint> buffer = run.upload(host.data(), count, "values");
      cl_mem_flags flags = 0;
      void* memory = nullptr;
      ASSERT_EQ(clGetMemObjectInfo(buffer.handle()(), CL_MEM_FLAGS, sizeof(flags), &flags, nullptr), CL_SUCCESS);
      ASSERT_EQ(clGetMemObjectInfo(buffer.handle()(), CL_MEM_HOST_PTR, sizeof(memory), &memory, nullptr), CL_SUCCESS);
      EXPECT_EQ((flags & CL_MEM_USE_HOST_PTR) != 0, cpu);
      const std::size_t alignment = count * sizeof(cl_uint) >= (std::size_t(2) << 20) ? std::size_t(2) << 20 : 128;
      EXPECT_EQ(cpu ? reinterpret_cast<std::uintptr_t>(memory) % alignment : 0u, 0u) << count << " values";
      DeviceBuffer<cl_uint> copy = run.allocate<cl_uint>(count, "copy");
      run.copy(buffer, copy, count, "values");
      buffer.release(); // the copy may still be running: the memory must outlive it
      run.download(copy, back.data(), count, "copy");
    }
    EXPECT_EQ(back, host);
  }
  EXPECT_EQ(run.deviceMemoryInUse(), 0u);
}

// A borrowed array is the host memory itself on a CPU device (a change made after borrowing
// is what the kernels read) and an upload on a GPU (they read the values as borrowed); either
// way nothing is counted as device memory on a CPU, and unaligned memory falls back to a copy.
TEST(DeviceRun, BorrowedHostMemoryIsReadInPlaceOnCpuDevices)
{
  DeviceRun run(DeviceContext::acquire("0"));
  const bool cpu = !run.info().isGPU;
  const std::size_t count = 1000;
  std::vector<cl_uint> host(count + 1);
  std::iota(host.begin(), host.end(), 1u);
  for (const std::size_t shift : { std::size_t(0), std::size_t(1) })
  {
    // shift 1: a cl_uint array one byte off its alignment, kept in a byte vector.
    std::vector<unsigned char> bytes((count + 1) * sizeof(cl_uint));
    auto* values = shift ? reinterpret_cast<cl_uint*>(bytes.data() + 1) : host.data();
    if (shift)
      std::memcpy(values, host.data(), count * sizeof(cl_uint));
    const std::uint64_t inUse = run.deviceMemoryInUse();
    DeviceBuffer<cl_uint> borrowed = run.borrow(values, count, "borrowed");
    const bool inPlace = cpu && shift == 0;
    EXPECT_EQ(run.deviceMemoryInUse() - inUse, inPlace ? 0u : BufferPool::allocationBytes(count * sizeof(cl_uint)))
      << "shift " << shift;
    std::memcpy(reinterpret_cast<unsigned char*>(values) + 5 * sizeof(cl_uint), "\x2a\0\0\0", sizeof(cl_uint));
    DeviceBuffer<cl_uint> copy = run.allocate<cl_uint>(count, "copy");
    run.copy(borrowed, copy, count, "borrowed");
    std::vector<cl_uint> back(count);
    run.download(copy, back.data(), count, "copy");
    EXPECT_EQ(back[5], inPlace ? 42u : 6u) << "shift " << shift;
    EXPECT_EQ(back[999], 1000u);
    const cl_uint six = 6;
    std::memcpy(reinterpret_cast<unsigned char*>(values) + 5 * sizeof(cl_uint), &six, sizeof(cl_uint));
  }
}

// Double precision on a device that lacks fp64 is an error naming the device, not a build
// failure deep inside a kernel.
TEST(DeviceRun, DoubleOnADeviceWithoutFp64IsAnErrorNamingIt)
{
  const auto real = gpumesh::DeviceContext::acquire("auto");
  gpumesh::DeviceInfo info = real->info();
  info.hasDoublePrecision = false;
  const auto without = std::make_shared<gpumesh::DeviceContext>(info, real->device());
  try
  {
    gpumesh::DeviceRun run(without, gpumesh::Precision::Double);
    FAIL() << "no error";
  }
  catch (const gpumesh::Error& error)
  {
    EXPECT_NE(std::string(error.what()).find(info.label()), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find("Single"), std::string::npos) << error.what();
  }
  EXPECT_NO_THROW(gpumesh::DeviceRun(without, gpumesh::Precision::Single));
}

// Generated programs (GPU Mesh Kernel's) are cached by text, the most recently used kept: a
// session that edits a kernel many times does not hold every version.
TEST(DeviceContext, GeneratedProgramsKeepTheMostRecentlyUsed)
{
  auto context = DeviceContext::acquire("0");
  const std::size_t limit = context->generatedProgramLimit();
  context->setGeneratedProgramLimit(2);
  const auto text = [](int n) {
    return "__kernel void set(__global int* a) { a[0] = " + std::to_string(9000 + n) + "; }\n";
  };
  const auto built = [&](int n) {
    bool compiled = false;
    context->generatedProgram(text(n), "", "program " + std::to_string(n), &compiled);
    return compiled;
  };
  EXPECT_TRUE(built(1));
  EXPECT_TRUE(built(2));
  EXPECT_FALSE(built(1)); // 1 is now the most recent, 2 the least
  EXPECT_TRUE(built(3));  // evicts 2
  EXPECT_EQ(context->generatedProgramCount(), 2u);
  EXPECT_FALSE(built(1));
  EXPECT_FALSE(built(3));
  EXPECT_TRUE(built(2));
  context->setGeneratedProgramLimit(limit);
}

TEST(BufferPool, SmallSizesTakeClassesLargeOnesAreExact)
{
  EXPECT_EQ(BufferPool::allocationBytes(1), 256u);
  EXPECT_EQ(BufferPool::allocationBytes(256), 256u);
  EXPECT_EQ(BufferPool::allocationBytes(257), 512u);
  EXPECT_EQ(BufferPool::allocationBytes(4000), 4096u);
  EXPECT_EQ(BufferPool::allocationBytes(BufferPool::maxPooledBytes), BufferPool::maxPooledBytes);
  EXPECT_EQ(BufferPool::allocationBytes(BufferPool::maxPooledBytes + 1), BufferPool::maxPooledBytes + 1);
}

// A small buffer let go is the memory of the run's next buffer of its class (the values it
// held are not promised), a large one goes to the device's pool (which keeps none on a CPU
// device by default), and a buffer that outlives its run is freed with nothing left counted.
TEST(BufferPool, RunReusesWhatItLetGo)
{
  auto context = DeviceContext::acquire("0");
  const std::uint64_t deviceInUseBefore = context->counters()->memoryInUse();
  DeviceBuffer<float> outlives;
  {
    DeviceRun run(context);
    cl_mem first = nullptr;
    {
      DeviceBuffer<float> buffer = run.allocate<float>(1000, "first");
      first = buffer.handle()();
    }
    EXPECT_EQ(run.deviceMemoryInUse(), 0u);
    DeviceBuffer<cl_int> again = run.allocate<cl_int>(900, "same class");
    EXPECT_EQ(again.handle()(), first);
    EXPECT_EQ(again.size(), 900u);
    std::vector<cl_int> values(900);
    std::iota(values.begin(), values.end(), 7);
    DeviceBuffer<cl_int> other = run.upload(values.data(), values.size(), "another of the class");
    EXPECT_NE(other.handle()(), first);
    std::vector<cl_int> back(900);
    run.download(other, back.data(), back.size(), "another of the class");
    EXPECT_EQ(back, values);

    const std::size_t large = BufferPool::maxPooledBytes / sizeof(float) + 1;
    {
      DeviceBuffer<float> big = run.allocate<float>(large, "large");
      EXPECT_EQ(run.deviceMemoryInUse(), 2 * 4096u + large * sizeof(float));
    }
    outlives = run.allocate<float>(10, "outlives its run");
  }
  outlives.release();
  EXPECT_EQ(context->counters()->memoryInUse(), deviceInUseBefore);
}

// A device's large buffers let go by one run are the next runs' buffers of the same size,
// until the pool needs room for newer ones.
TEST(BufferPool, LargeBuffersServeTheNextRuns)
{
  auto context = DeviceContext::acquire("0");
  const std::shared_ptr<BufferPool>& large = context->largeBuffers();
  const std::uint64_t capacity = large->capacity();
  large->clear();
  large->setCapacity(std::uint64_t(64) << 20);
  const std::size_t count = (BufferPool::maxPooledBytes + 4096) / sizeof(float);
  cl_mem first = nullptr;
  {
    DeviceRun run(context);
    first = run.allocate<float>(count, "large").handle()();
    EXPECT_EQ(large->bytesHeld(), count * sizeof(float));
    EXPECT_EQ(run.deviceMemoryInUse(), 0u);
  }
  {
    DeviceRun run(context);
    DeviceBuffer<float> again = run.allocate<float>(count, "same size, next run");
    EXPECT_EQ(again.handle()(), first);
    EXPECT_EQ(large->bytesHeld(), 0u);
    std::vector<float> values(count, 2.5f);
    DeviceBuffer<float> other = run.upload(values.data(), values.size(), "another of the size");
    EXPECT_NE(other.handle()(), first);
    std::vector<float> back(count);
    run.download(other, back.data(), back.size(), "another of the size");
    EXPECT_EQ(back, values);
    DeviceBuffer<float> larger = run.allocate<float>(count + 1, "another size");
    EXPECT_NE(larger.handle()(), first);
  }
  // Three let go (two of one size, one of another): all fit in 64 MiB, the oldest leaves for a
  // fourth.
  EXPECT_EQ(large->bytesHeld(), 3 * count * sizeof(float) + sizeof(float));
  {
    DeviceRun run(context);
    run.allocate<float>(2 * count, "a larger one, let go");
  }
  EXPECT_LE(large->bytesHeld(), std::uint64_t(64) << 20);
  large->clear();
  large->setCapacity(capacity);
}

TEST(BufferPool, LargePoolKeepsExactSizesOldestLeavingFirst)
{
  auto context = DeviceContext::acquire("0");
  const std::size_t mib = std::size_t(1) << 20;
  BufferPool pool(60 * mib, BufferPool::Kind::Large);
  const auto make = [&](std::size_t bytes) { return cl::Buffer(context->context(), CL_MEM_READ_WRITE, bytes); };
  EXPECT_FALSE(pool.keeps(4096));
  EXPECT_TRUE(pool.keeps(BufferPool::maxPooledBytes + 1));
  pool.give(make(4096), 4096); // small: released
  EXPECT_EQ(pool.bytesHeld(), 0u);
  cl::Buffer a = make(17 * mib), b = make(18 * mib), c = make(17 * mib);
  const cl_mem bHandle = b(), cHandle = c();
  pool.give(std::move(a), 17 * mib);
  pool.give(std::move(b), 18 * mib);
  pool.give(std::move(c), 17 * mib);
  EXPECT_EQ(pool.bytesHeld(), 52 * mib);
  pool.give(make(19 * mib), 19 * mib); // the oldest (a) leaves
  EXPECT_EQ(pool.bytesHeld(), 54 * mib);
  EXPECT_EQ(pool.take(17 * mib)(), cHandle);
  EXPECT_FALSE(pool.take(17 * mib)());
  EXPECT_EQ(pool.take(18 * mib)(), bHandle);
  EXPECT_FALSE(pool.take(20 * mib)());
  pool.give(make(61 * mib), 61 * mib); // beyond the capacity: released
  EXPECT_EQ(pool.bytesHeld(), 19 * mib);
  pool.setCapacity(10 * mib);
  EXPECT_EQ(pool.bytesHeld(), 0u);
}

TEST(BufferPool, HoldsAtMostItsCapacity)
{
  auto context = DeviceContext::acquire("0");
  BufferPool pool(8192);
  const auto make = [&] { return cl::Buffer(context->context(), CL_MEM_READ_WRITE, 4096); };
  pool.give(make(), 4096);
  pool.give(make(), 4096);
  pool.give(make(), 4096); // over capacity: released
  EXPECT_EQ(pool.bytesHeld(), 8192u);
  pool.give(make(), 3000); // not a size class
  EXPECT_EQ(pool.bytesHeld(), 8192u);
  EXPECT_TRUE(pool.take(4096)());
  EXPECT_FALSE(pool.take(2048)());
  EXPECT_EQ(pool.bytesHeld(), 4096u);
  pool.close();
  EXPECT_EQ(pool.bytesHeld(), 0u);
  pool.give(make(), 4096); // closed: released
  EXPECT_EQ(pool.bytesHeld(), 0u);
  EXPECT_FALSE(pool.take(4096)());
}

// One version per slot, the least recently used dropped beyond the budget, nothing larger than
// the budget kept; a run that lacks memory drops everything kept (its memory counts as in use).
TEST(KeptDeviceData, OneVersionPerSlotWithinTheBudget)
{
  KeptDeviceData kept(100);
  const auto data = [](int value) { return std::make_shared<const int>(value); };
  kept.keep("a", "1", data(1), 40);
  kept.keep("b", "1", data(2), 40);
  EXPECT_EQ(kept.bytes(), 80u);
  ASSERT_TRUE(kept.find("a", "1"));
  EXPECT_EQ(*std::static_pointer_cast<const int>(kept.find("a", "1")), 1);
  EXPECT_FALSE(kept.find("a", "2"));
  kept.keep("a", "2", data(3), 40); // replaces a's first version
  EXPECT_FALSE(kept.find("a", "1"));
  EXPECT_EQ(kept.bytes(), 80u);
  kept.keep("c", "1", data(4), 40); // b is now the least recently used
  EXPECT_FALSE(kept.find("b", "1"));
  EXPECT_TRUE(kept.find("a", "2"));
  EXPECT_TRUE(kept.find("c", "1"));
  kept.keep("d", "1", data(5), 101); // larger than the budget
  EXPECT_FALSE(kept.find("d", "1"));
  EXPECT_EQ(kept.bytes(), 80u);
  // An entry no longer wanted (its input gone) goes at the next keep.
  bool inputAlive = true;
  kept.keep("e", "1", data(6), 10, [&] { return inputAlive; });
  EXPECT_TRUE(kept.find("e", "1"));
  inputAlive = false;
  kept.keep("f", "1", data(7), 10);
  EXPECT_FALSE(kept.find("e", "1"));
  EXPECT_TRUE(kept.find("f", "1"));
  // Before a new version is made, the slot's old one goes.
  kept.forget("f");
  EXPECT_FALSE(kept.find("f", "1"));
  EXPECT_TRUE(kept.find("a", "2"));
  kept.clear();
  EXPECT_EQ(kept.bytes(), 0u);
  EXPECT_FALSE(kept.find("a", "2"));
}

TEST(KeptDeviceData, ARunShortOfMemoryDropsWhatIsKept)
{
  auto context = DeviceContext::acquire("0");
  DeviceRun run(context);
  auto buffer = std::make_shared<DeviceBuffer<cl_uchar>>(run.allocate<cl_uchar>(1 << 20, "kept"));
  context->kept().keep("slot", "version", buffer, buffer->bytes());
  buffer.reset();
  ASSERT_TRUE(context->kept().find("slot", "version"));
  const std::uint64_t inUse = context->counters()->memoryInUse();
  const std::uint64_t global = run.info().globalMemoryBytes;
  // Room for all but the kept megabyte: the kept buffer goes, and the request fits.
  EXPECT_NO_THROW(run.requireMemory(global - inUse + (1 << 20) - 4096, "a large step"));
  EXPECT_FALSE(context->kept().find("slot", "version"));
  EXPECT_EQ(context->counters()->memoryInUse(), inUse - (1u << 20));
}

// GPUMESH_COMMAND_TRACE: each run writes its commands (allocations, transfers, kernels) with
// host times in order and device times from the profiling events, when it ends.
TEST(CommandTrace, RunWritesItsCommandsWhenItEnds)
{
  const std::filesystem::path folder =
    std::filesystem::temp_directory_path() / ("gpumesh-command-trace-" + std::to_string(::getpid()));
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder);
  setenv("GPUMESH_COMMAND_TRACE", folder.c_str(), 1);
  {
    DeviceRun run(DeviceContext::acquire("0"));
    std::vector<cl_int> values(1000, 3);
    DeviceBuffer<cl_int> buffer = run.upload(values.data(), values.size(), "traced values");
    run.fill(buffer, cl_int(4), "traced fill");
    run.download(buffer, values.data(), values.size(), "traced values");
    EXPECT_EQ(values[999], 4);
  }
  unsetenv("GPUMESH_COMMAND_TRACE");
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(folder))
    files.push_back(entry.path());
  ASSERT_EQ(files.size(), 1u);
  EXPECT_EQ(files[0].filename().string().rfind("commands-" + std::to_string(::getpid()) + "-", 0), 0u);
  std::ifstream in(files[0]);
  std::string line;
  std::getline(in, line);
  EXPECT_EQ(line, "label\tkind\thost_begin_us\thost_end_us\tqueued_ns\tsubmitted_ns\tstarted_ns\tended_ns");
  std::vector<std::string> kinds;
  double lastBegin = -1;
  while (std::getline(in, line))
  {
    std::istringstream fields(line);
    std::string label, kind;
    double begin = 0, end = 0;
    unsigned long long queued = 0, submitted = 0, started = 0, ended = 0;
    std::getline(fields, label, '\t');
    std::getline(fields, kind, '\t');
    fields >> begin >> end >> queued >> submitted >> started >> ended;
    ASSERT_TRUE(fields) << line;
    EXPECT_LE(begin, end) << line;
    EXPECT_GE(begin, lastBegin) << line;
    lastBegin = begin;
    if (kind == "allocation")
    {
      EXPECT_EQ(started, 0u) << line;
      EXPECT_NE(label.find("traced values ("), std::string::npos) << line;
    }
    else
    {
      EXPECT_GT(started, 0u) << line;
      EXPECT_LE(queued, started) << line;
      EXPECT_LE(started, ended) << line;
    }
    kinds.push_back(kind);
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{ "allocation", "upload", "kernel", "download" }));
  std::filesystem::remove_all(folder);
}
