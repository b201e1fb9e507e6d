// Every command of a run with its host and device times, for finding where the device waits
// for the host (the allocation and exchange costs in docs/benchmarks.md were found so).
#pragma once
#include "gpumesh/runtime/OpenCL.h"

#include <cstddef>
#include <string>
#include <vector>

namespace gpumesh
{

/// With GPUMESH_COMMAND_TRACE=FOLDER, each DeviceRun writes FOLDER/commands-<pid>-<n>.tsv
/// when it ends: one line per command (a kernel, a copy, a transfer or a chunk of one, and each
/// buffer the driver allocates), with the host's times around its enqueue (microseconds from
/// the process's first trace) and the device's queued, submitted, started and ended times
/// (nanoseconds, the device's clock). testing/benchmark/summarize_command_trace.py reads them.
/// The folder is made if missing; one that cannot be written loses the trace, nothing else:
/// it is a diagnostic.
class CommandTrace
{
public:
  /// The folder GPUMESH_COMMAND_TRACE names; empty when unset (no trace).
  static std::string folderFromEnvironment();

  explicit CommandTrace(std::string folder);

  /// Microseconds since the process's first trace: where a host step begins.
  static double now();
  /// A command enqueued from `begin` (now() before the enqueue) to now; `kind` names it
  /// ("kernel", "upload", "download").
  void command(const std::string& label, const char* kind, double begin, const cl::Event& event);
  /// A buffer of `bytes` allocated from `begin` to now (`kept`: one a pool kept).
  void allocation(const std::string& what, std::size_t bytes, bool kept, double begin);
  /// Writes the file; the commands must be complete (their profiling times are read).
  void write() const;

private:
  struct Entry
  {
    std::string label;
    const char* kind;
    double begin, end;
    cl::Event event; // none for an allocation
  };
  std::string Folder;
  std::vector<Entry> Entries;
};

} // namespace gpumesh
