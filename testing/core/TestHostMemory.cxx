// Host memory for CPU devices' buffers and output arrays: alignment, and reuse of freed blocks.
#include "gpumesh/runtime/HostMemory.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

using namespace gpumesh;

namespace
{
constexpr std::size_t MiB = std::size_t(1) << 20;

std::uintptr_t address(const void* memory)
{
  return reinterpret_cast<std::uintptr_t>(memory);
}
} // namespace

TEST(HostMemory, SmallBlocksAreAlignedAndLargeOnesAreWholeHugePages)
{
  trimHostMemory();
  void* small = allocateHostMemory(100);
  void* large = allocateHostMemory(3 * MiB + 1);
  ASSERT_NE(small, nullptr);
  ASSERT_NE(large, nullptr);
  EXPECT_EQ(address(small) % 128, 0u);
  EXPECT_EQ(address(large) % (2 * MiB), 0u);
  std::memset(large, 1, 3 * MiB + 1);
  freeHostMemory(small); // not kept: small blocks go back to the allocator
  freeHostMemory(large);
  EXPECT_EQ(cachedHostMemory(), 4 * MiB) << "kept as the two huge pages it spans";
  freeHostMemory(nullptr);
}

TEST(HostMemory, FromHalfAHugePageBlocksAreHugePagesKeptForReuse)
{
  trimHostMemory();
  // 2,000,000 bytes (a 32-bit value per point of 500,000 points): one huge page, kept.
  void* below = allocateHostMemory(hostMemoryLargeBytes - 1);
  void* perPoint = allocateHostMemory(2000000);
  ASSERT_NE(below, nullptr);
  ASSERT_NE(perPoint, nullptr);
  EXPECT_EQ(address(perPoint) % (2 * MiB), 0u);
  std::memset(perPoint, 1, 2000000);
  freeHostMemory(below); // not kept
  EXPECT_EQ(cachedHostMemory(), 0u);
  freeHostMemory(perPoint);
  EXPECT_EQ(cachedHostMemory(), 2 * MiB);
  EXPECT_EQ(allocateHostMemory(hostMemoryLargeBytes), perPoint) << "the touched page again";
  freeHostMemory(perPoint);
  trimHostMemory();
}

TEST(HostMemory, FreedLargeBlocksAreReusedWholeOrInPart)
{
  trimHostMemory();
  auto* first = static_cast<char*>(allocateHostMemory(6 * MiB));
  freeHostMemory(first);
  EXPECT_EQ(cachedHostMemory(), 6 * MiB);
  // A request of the same rounded size gets the same block back, already touched.
  EXPECT_EQ(allocateHostMemory(5 * MiB + 12345), first);
  EXPECT_EQ(cachedHostMemory(), 0u);
  freeHostMemory(first);
  // A smaller one gets its first part; the rest stays kept and serves the next one.
  void* part = allocateHostMemory(2 * MiB);
  EXPECT_EQ(part, first);
  EXPECT_EQ(cachedHostMemory(), 4 * MiB);
  void* rest = allocateHostMemory(3 * MiB);
  EXPECT_EQ(rest, first + 2 * MiB);
  EXPECT_EQ(cachedHostMemory(), 0u);
  // Freed neighbours merge: the whole block serves a request of its size again.
  freeHostMemory(rest);
  freeHostMemory(part);
  EXPECT_EQ(cachedHostMemory(), 6 * MiB);
  EXPECT_EQ(allocateHostMemory(6 * MiB), first);
  // A request larger than every kept range takes them in, and new memory for the rest.
  freeHostMemory(first);
  void* larger = allocateHostMemory(8 * MiB);
  EXPECT_NE(larger, first);
  EXPECT_EQ(cachedHostMemory(), 0u);
  freeHostMemory(larger);
  EXPECT_EQ(cachedHostMemory(), 8 * MiB);
  trimHostMemory();
  EXPECT_EQ(cachedHostMemory(), 0u);
}

TEST(HostMemory, KeptRangesTooSmallAloneAreMovedTogether)
{
  trimHostMemory();
  // Two freed blocks that do not touch (a block in use between them), each with its own bytes.
  auto* a = static_cast<char*>(allocateHostMemory(4 * MiB));
  auto* between = static_cast<char*>(allocateHostMemory(2 * MiB));
  auto* b = static_cast<char*>(allocateHostMemory(4 * MiB));
  std::memset(a, 0x5a, 4 * MiB);
  std::memset(b, 0xa5, 4 * MiB);
  freeHostMemory(a);
  freeHostMemory(b);
  ASSERT_EQ(cachedHostMemory(), 8 * MiB);
  // A request for 10 MiB gets both (their pages, with what they held: moved, not new) and 2 MiB
  // of new memory.
  auto* joined = static_cast<unsigned char*>(allocateHostMemory(10 * MiB));
  ASSERT_NE(joined, nullptr);
  EXPECT_EQ(cachedHostMemory(), 0u);
  const unsigned char firstByte = joined[0];
  EXPECT_TRUE(firstByte == 0x5a || firstByte == 0xa5);
  for (std::size_t i = 0; i < 8 * MiB; i += 4096)
    ASSERT_EQ(joined[i], i < 4 * MiB ? firstByte : 0x5a + 0xa5 - firstByte) << "byte " << i;
  std::memset(joined, 0, 10 * MiB); // all of it is usable
  freeHostMemory(joined);
  freeHostMemory(between);
  trimHostMemory();
  EXPECT_EQ(cachedHostMemory(), 0u);
}

TEST(HostMemory, NoMoreThanTheLimitIsKept)
{
  trimHostMemory();
  const std::size_t limit = hostMemoryCacheLimit();
  ASSERT_GE(limit, 16 * MiB);
  // Four blocks of a third of the limit: what is freed beyond the limit goes back.
  const std::size_t third = limit / 3 / (2 * MiB) * (2 * MiB);
  void* blocks[4];
  for (auto& block : blocks)
    block = allocateHostMemory(third);
  for (auto& block : blocks)
    freeHostMemory(block);
  EXPECT_LE(cachedHostMemory(), limit);
  EXPECT_GE(cachedHostMemory(), limit - 2 * MiB);
  trimHostMemory();
  EXPECT_EQ(cachedHostMemory(), 0u);
}
