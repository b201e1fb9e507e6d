#include "gpumesh/runtime/CommandTrace.h"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#if defined(_WIN32)
#include <process.h>
#define getpid _getpid
#else
#include <unistd.h>
#endif

namespace gpumesh
{

std::string CommandTrace::folderFromEnvironment()
{
  const char* folder = std::getenv("GPUMESH_COMMAND_TRACE");
  return folder ? folder : "";
}

CommandTrace::CommandTrace(std::string folder)
  : Folder(std::move(folder))
{
}

double CommandTrace::now()
{
  static const auto zero = std::chrono::steady_clock::now();
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - zero).count();
}

void CommandTrace::command(const std::string& label, const char* kind, double begin, const cl::Event& event)
{
  Entries.push_back({ label, kind, begin, now(), event });
}

void CommandTrace::allocation(const std::string& what, std::size_t bytes, bool kept, double begin)
{
  Entries.push_back(
    { what + " (" + std::to_string(bytes) + " bytes" + (kept ? ", kept" : "") + ")", "allocation", begin, now(), {} });
}

void CommandTrace::write() const
{
  static std::atomic<unsigned> written{ 0 };
  std::error_code ignored;
  std::filesystem::create_directories(Folder, ignored);
  std::ofstream out(Folder + "/commands-" + std::to_string(getpid()) + "-" + std::to_string(written++) + ".tsv");
  if (!out)
    return;
  out << "label\tkind\thost_begin_us\thost_end_us\tqueued_ns\tsubmitted_ns\tstarted_ns\tended_ns\n";
  for (const Entry& entry : Entries)
  {
    cl_ulong times[4] = { 0, 0, 0, 0 };
    if (entry.event())
    {
      const cl_profiling_info which[4] = { CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
        CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END };
      for (int i = 0; i < 4; ++i)
        entry.event.getProfilingInfo(which[i], &times[i]);
    }
    out << entry.label << '\t' << entry.kind << '\t' << entry.begin << '\t' << entry.end;
    for (cl_ulong time : times)
      out << '\t' << time;
    out << '\n';
  }
}

} // namespace gpumesh
