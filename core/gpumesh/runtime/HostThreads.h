// How many threads the core's own host-side loops (staging, offset checks) use.
#pragma once
#include <algorithm>
#include <thread>

namespace gpumesh
{

/// One per hardware thread, at least 1 and at most 16: host loops over a mesh's arrays are
/// bound by memory well before that.
inline unsigned hostThreads()
{
  return std::min(16u, std::max(1u, std::thread::hardware_concurrency()));
}

} // namespace gpumesh
