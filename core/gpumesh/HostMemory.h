// Large host allocations that do not pay a page fault per 4 KiB on first touch.
#pragma once
#include <cstddef>

namespace gpumesh
{

/// `bytes` of host memory (at least 1), aligned to 128 bytes, that std::free releases, or
/// nullptr when the system has none. From 8 MiB up it is aligned to 2 MiB and advised as
/// transparent huge pages (Linux): the first touch then faults one 2 MiB page instead of 512
/// small ones, which on virtual machines costs more than the work done in the memory (a 500 MB
/// copy: 4.6 s in small pages, 0.14 s in huge ones, measured on the project's CI-class VM).
/// Without transparent huge pages the advice is ignored and ordinary pages serve.
void* allocateHostMemory(std::size_t bytes);

} // namespace gpumesh
