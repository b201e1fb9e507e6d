#include "gpumesh/runtime/HostThreadPool.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace gpumesh
{

namespace
{
/// Set on a thread while it runs blocks of a loop: a loop it starts then runs there alone.
thread_local bool insideLoop = false;

struct Loop
{
  std::int64_t End = 0;
  std::int64_t Grain = 1;
  const std::function<void(std::int64_t, std::int64_t)>* Body = nullptr;
  std::atomic<std::int64_t> Next{ 0 };
  std::mutex ErrorMutex;
  std::exception_ptr Error;
  /// Pool threads it may take, that took it, and that are done with it (the pool's mutex).
  unsigned Wanted = 0, Claims = 0, Finished = 0;

  /// Takes blocks until none is left.
  void Work()
  {
    const bool outer = insideLoop;
    insideLoop = true;
    for (std::int64_t first = Next.fetch_add(Grain); first < End; first = Next.fetch_add(Grain))
    {
      try
      {
        (*Body)(first, std::min(End, first + Grain));
      }
      catch (...)
      {
        std::lock_guard<std::mutex> lock(ErrorMutex);
        if (!Error)
          Error = std::current_exception();
      }
    }
    insideLoop = outer;
  }
};

class Pool
{
public:
  ~Pool()
  {
    {
      std::lock_guard<std::mutex> lock(Mutex);
      Stopping = true;
    }
    Wake.notify_all();
    for (std::thread& worker : Workers)
      worker.join();
  }

  /// Runs `loop` on the caller and up to `helpers` pool threads. Loops of several callers at
  /// once share the threads: a thread that took a loop stays with it until its blocks run out,
  /// so threads are started until `helpers` are free (a loop started while a long one holds
  /// every thread would otherwise run on its caller alone).
  void Run(Loop& loop, unsigned helpers)
  {
    {
      std::lock_guard<std::mutex> lock(Mutex);
      while (Workers.size() - Busy < helpers && Workers.size() < maximumWorkers)
        Workers.emplace_back([this] { this->Serve(); });
      loop.Wanted = helpers;
      Open.push_back(&loop);
    }
    Wake.notify_all();
    loop.Work();
    // No thread takes the loop from here on; those that did finish their last block.
    std::unique_lock<std::mutex> lock(Mutex);
    Open.erase(std::find(Open.begin(), Open.end(), &loop));
    Done.wait(lock, [&loop] { return loop.Finished == loop.Claims; });
  }

  unsigned Threads()
  {
    std::lock_guard<std::mutex> lock(Mutex);
    return static_cast<unsigned>(Workers.size());
  }

private:
  Loop* Claimable() const
  {
    for (Loop* loop : Open)
    {
      if (loop->Claims < loop->Wanted)
        return loop;
    }
    return nullptr;
  }

  void Serve()
  {
    std::unique_lock<std::mutex> lock(Mutex);
    for (;;)
    {
      Loop* loop = nullptr;
      Wake.wait(lock, [&] { return Stopping || (loop = Claimable()) != nullptr; });
      if (Stopping)
        return;
      ++loop->Claims;
      ++Busy;
      lock.unlock();
      loop->Work();
      lock.lock();
      --Busy;
      if (++loop->Finished == loop->Claims)
        Done.notify_all();
    }
  }

  std::mutex Mutex; ///< guards what follows and the loops' counts
  std::condition_variable Wake, Done;
  std::vector<std::thread> Workers;
  std::vector<Loop*> Open; ///< loops that pool threads may take
  std::size_t Busy = 0;    ///< workers inside a loop
  bool Stopping = false;
  /// Loops of several callers at once start at most this many threads in all.
  static constexpr std::size_t maximumWorkers = 512;
};

Pool& pool()
{
  static Pool instance;
  return instance;
}
} // namespace

void parallelFor(std::int64_t begin, std::int64_t end, std::int64_t grain, unsigned threads,
  const std::function<void(std::int64_t first, std::int64_t last)>& body)
{
  if (end <= begin)
    return;
  const std::int64_t count = end - begin;
  threads = std::max(1u, std::min(threads, 256u));
  if (grain <= 0)
    grain = std::max<std::int64_t>(1, (count + 4 * threads - 1) / (4 * threads));
  const std::int64_t blocks = (count + grain - 1) / grain;
  const auto helpers = static_cast<unsigned>(std::min<std::int64_t>(threads, blocks) - 1);
  Loop loop;
  loop.End = end;
  loop.Grain = grain;
  loop.Body = &body;
  loop.Next = begin;
  if (helpers == 0 || insideLoop)
    loop.Work();
  else
    pool().Run(loop, helpers);
  if (loop.Error)
    std::rethrow_exception(loop.Error);
}

unsigned hostPoolThreads()
{
  return pool().Threads();
}

} // namespace gpumesh
