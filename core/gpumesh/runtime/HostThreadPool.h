// Host threads started once per process for the loops around the device's work.
#pragma once
#include <cstdint>
#include <functional>

namespace gpumesh
{

/// Runs body(first, last) over [begin, end) in blocks of `grain` (0: about four blocks per
/// thread) on up to `threads` threads, the caller's included, and returns when all are done;
/// rethrows the first exception a block threw (the remaining blocks still run).
///
/// The threads are started on first use and kept for the life of the process: starting them
/// for every loop, as VTK's STDThread backend of this ParaView does, costs a fixed time per
/// loop that does not shrink with the work, more than many of the loops themselves. Loops started by several
/// threads at once share the pool's threads (a refinement narrows its output's cells on one
/// thread while the filter goes on); a loop started inside a block of another (nested) runs on
/// its caller's thread alone.
void parallelFor(std::int64_t begin, std::int64_t end, std::int64_t grain, unsigned threads,
  const std::function<void(std::int64_t first, std::int64_t last)>& body);

/// How many threads the pool has started so far (the caller of a loop not counted).
unsigned hostPoolThreads();

} // namespace gpumesh
