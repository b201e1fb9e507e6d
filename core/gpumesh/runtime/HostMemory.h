// Large host allocations that do not pay a page fault per 4 KiB on first touch, and that are
// kept for reuse when freed.
#pragma once
#include <cstddef>

namespace gpumesh
{

/// From this size on, allocateHostMemory gives whole huge pages and keeps them for reuse.
constexpr std::size_t hostMemoryPageBytes = std::size_t(2) << 20;

/// `bytes` of host memory (at least 1), aligned to 128 bytes, or nullptr when the system has
/// none; give it back with freeHostMemory. From 2 MiB up it is whole 2 MiB pages, aligned to
/// 2 MiB and advised as transparent huge pages (Linux): the first touch then faults one 2 MiB
/// page instead of 512 small ones, which on virtual machines costs more than the work done in
/// the memory (a 500 MB copy: 4.6 s in small pages, 0.14 s in huge ones, measured on the
/// project's CI-class VM). Without transparent huge pages the advice is ignored.
/// Such large blocks, once freed, are kept (up to hostMemoryCacheLimit() bytes, neighbours
/// merged) and handed out again, whole or in part, or several moved together into a larger
/// block (their pages remapped, not copied) (Linux): memory touched before is many times
/// cheaper than fresh memory (on the CI-class VM, fresh pages fill at 0.3-2.3 GB/s, touched
/// ones at 25), and a filter's buffers and outputs come and go within and between executions.
void* allocateHostMemory(std::size_t bytes);

/// Gives back memory of allocateHostMemory (nullptr does nothing). Thread-safe.
void freeHostMemory(void* memory);

/// Returns the freed blocks kept for reuse to the system.
void trimHostMemory();

/// Bytes of freed blocks kept for reuse now, and the most that is kept (1/8 of the physical
/// memory, at most 4 GiB).
std::size_t cachedHostMemory();
std::size_t hostMemoryCacheLimit();

} // namespace gpumesh
