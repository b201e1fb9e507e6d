// gpumesh::parallelFor: every index once, errors rethrown, nested and concurrent loops, and
// threads that are started once and kept.
#include "gpumesh/runtime/HostThreadPool.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using gpumesh::parallelFor;

namespace
{
// How many times each index of [0, n) was visited by a loop of the given grain and threads.
std::vector<int> visits(std::int64_t n, std::int64_t grain, unsigned threads, std::int64_t begin = 0)
{
  std::vector<std::atomic<int>> counts(static_cast<std::size_t>(n));
  parallelFor(begin, begin + n, grain, threads, [&](std::int64_t first, std::int64_t last) {
    EXPECT_LE(begin, first);
    EXPECT_LT(first, last);
    EXPECT_LE(last, begin + n);
    for (std::int64_t i = first; i < last; ++i)
      ++counts[static_cast<std::size_t>(i - begin)];
  });
  return std::vector<int>(counts.begin(), counts.end());
}
} // namespace

TEST(HostThreadPool, VisitsEveryIndexOnce)
{
  for (unsigned threads : { 1u, 2u, 3u, 8u, 33u })
  {
    for (std::int64_t grain : { 0, 1, 7, 1000 })
    {
      for (std::int64_t n : { 1, 2, 17, 1000, 100003 })
      {
        const std::vector<int> counts = visits(n, grain, threads, 5);
        for (std::int64_t i = 0; i < n; ++i)
          ASSERT_EQ(counts[static_cast<std::size_t>(i)], 1)
            << "index " << i << " of " << n << ", grain " << grain << ", " << threads << " threads";
      }
    }
  }
}

TEST(HostThreadPool, EmptyRangeCallsNothing)
{
  bool called = false;
  parallelFor(10, 10, 0, 4, [&](std::int64_t, std::int64_t) { called = true; });
  parallelFor(10, 3, 0, 4, [&](std::int64_t, std::int64_t) { called = true; });
  EXPECT_FALSE(called);
}

TEST(HostThreadPool, RunsBlocksOnSeveralThreadsKeptBetweenLoops)
{
  // The first block waits until blocks ran on two threads, whichever thread runs it (an idle
  // pool thread may take it before the caller): one thread alone would never see that (the
  // wait gives up after 10 s, and the test fails instead of hanging).
  std::mutex mutex;
  std::set<std::thread::id> seen;
  std::atomic<bool> other{ false };
  const auto caller = std::this_thread::get_id();
  parallelFor(0, 64, 1, 4, [&](std::int64_t first, std::int64_t) {
    {
      std::lock_guard<std::mutex> lock(mutex);
      seen.insert(std::this_thread::get_id());
    }
    if (std::this_thread::get_id() != caller)
      other = true;
    if (first == 0)
    {
      const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      const auto twoThreads = [&] {
        std::lock_guard<std::mutex> lock(mutex);
        return seen.size() >= 2;
      };
      while (!twoThreads() && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  });
  EXPECT_TRUE(other);
  EXPECT_GE(seen.size(), 2u);
  const unsigned started = gpumesh::hostPoolThreads();
  EXPECT_GE(started, 3u);
  for (int loop = 0; loop < 50; ++loop)
    visits(1000, 0, 4);
  EXPECT_EQ(gpumesh::hostPoolThreads(), started) << "loops of as many threads start no more";
}

TEST(HostThreadPool, RethrowsABlocksExceptionAfterTheOthersRan)
{
  std::atomic<int> ran{ 0 };
  EXPECT_THROW(parallelFor(0, 100, 1, 4,
                 [&](std::int64_t first, std::int64_t) {
                   ++ran;
                   if (first == 37)
                     throw std::runtime_error("block 37");
                 }),
    std::runtime_error);
  EXPECT_EQ(ran, 100);
  // The pool serves the next loop as before.
  const std::vector<int> counts = visits(5000, 3, 4);
  for (int c : counts)
    ASSERT_EQ(c, 1);
}

TEST(HostThreadPool, NestedLoopsRunOnTheirCaller)
{
  std::vector<std::atomic<int>> counts(100 * 50);
  parallelFor(0, 100, 1, 4, [&](std::int64_t first, std::int64_t last) {
    for (std::int64_t i = first; i < last; ++i)
    {
      const auto outer = std::this_thread::get_id();
      parallelFor(0, 50, 1, 4, [&](std::int64_t a, std::int64_t b) {
        EXPECT_EQ(std::this_thread::get_id(), outer);
        for (std::int64_t j = a; j < b; ++j)
          ++counts[static_cast<std::size_t>(i * 50 + j)];
      });
    }
  });
  for (const auto& c : counts)
    ASSERT_EQ(c.load(), 1);
}

TEST(HostThreadPool, LoopsFromTwoThreadsAtOnceBothComplete)
{
  std::vector<int> first, second;
  std::thread other([&] {
    for (int r = 0; r < 20; ++r)
      first = visits(20000, 0, 4);
  });
  for (int r = 0; r < 20; ++r)
    second = visits(30000, 0, 4);
  other.join();
  for (int c : first)
    ASSERT_EQ(c, 1);
  for (int c : second)
    ASSERT_EQ(c, 1);
}

TEST(HostThreadPool, ConcurrentLoopsShareThePoolThreads)
{
  // Loop A's first block waits until loop B, started by another thread meanwhile, has a block
  // run by a pool thread (neither caller): B got pool threads while A held some.
  const auto started = std::chrono::steady_clock::now();
  std::atomic<bool> bByPool{ false };
  std::thread::id bCaller;
  std::mutex mutex;
  std::thread b;
  parallelFor(0, 8, 1, 4, [&](std::int64_t first, std::int64_t) {
    if (first != 0)
      return;
    b = std::thread([&] {
      {
        std::lock_guard<std::mutex> lock(mutex);
        bCaller = std::this_thread::get_id();
      }
      parallelFor(0, 400, 1, 4, [&](std::int64_t, std::int64_t) {
        std::lock_guard<std::mutex> lock(mutex);
        if (std::this_thread::get_id() != bCaller)
          bByPool = true;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
      });
    });
    while (!bByPool && std::chrono::steady_clock::now() - started < std::chrono::seconds(10))
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  b.join();
  EXPECT_TRUE(bByPool);
}

TEST(HostThreadPool, ALoopGetsThreadsWhileAnotherHoldsThemAll)
{
  // Loop A holds every pool thread and its caller (each of its blocks waits) until loop B,
  // started by another thread once all of A's blocks run, has a block run by a pool thread:
  // B gets threads of its own then, instead of running on its caller alone.
  const unsigned threads = std::max(4u, gpumesh::hostPoolThreads() + 1); // A takes every pool thread
  const auto started = std::chrono::steady_clock::now();
  const auto waiting = [&] { return std::chrono::steady_clock::now() - started < std::chrono::seconds(10); };
  std::atomic<unsigned> inA{ 0 };
  std::atomic<bool> bByPool{ false };
  std::thread::id bCaller;
  std::mutex mutex;
  std::thread b;
  parallelFor(0, threads, 1, threads, [&](std::int64_t first, std::int64_t) {
    ++inA;
    if (first == 0)
    {
      b = std::thread([&] {
        while (inA < threads && waiting())
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        {
          std::lock_guard<std::mutex> lock(mutex);
          bCaller = std::this_thread::get_id();
        }
        parallelFor(0, 64, 1, 4, [&](std::int64_t, std::int64_t) {
          {
            std::lock_guard<std::mutex> lock(mutex);
            if (std::this_thread::get_id() != bCaller)
              bByPool = true;
          }
          // Blocks long enough that the caller alone would not finish them before a thread starts.
          std::this_thread::sleep_for(std::chrono::milliseconds(1));
        });
      });
    }
    while (!bByPool && waiting())
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  b.join();
  EXPECT_EQ(inA.load(), threads) << "every block of A ran on a thread of its own";
  EXPECT_TRUE(bByPool);
}
