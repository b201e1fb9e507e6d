#include "gpumesh/runtime/KeptDeviceData.h"

#include <iterator>
#include <utility>

namespace gpumesh
{

KeptDeviceData::KeptDeviceData(std::uint64_t budgetBytes)
  : Budget(budgetBytes)
{
}

std::shared_ptr<const void> KeptDeviceData::find(const std::string& slot, const std::string& version)
{
  std::lock_guard<std::mutex> lock(Mutex);
  for (auto entry = Entries.begin(); entry != Entries.end(); ++entry)
  {
    if (entry->slot == slot && entry->version == version)
    {
      Entries.splice(Entries.begin(), Entries, entry);
      return Entries.front().data;
    }
  }
  return nullptr;
}

void KeptDeviceData::keep(const std::string& slot, const std::string& version, std::shared_ptr<const void> data,
  std::uint64_t bytes, std::function<bool()> wanted)
{
  std::list<Entry> dropped; // released outside the lock
  {
    std::lock_guard<std::mutex> lock(Mutex);
    dropSlotAndUnwanted(slot, dropped);
    if (bytes > Budget)
      return;
    Entries.push_front(Entry{ slot, version, std::move(data), bytes, std::move(wanted) });
    Bytes += bytes;
    while (Bytes > Budget)
    {
      Bytes -= Entries.back().bytes;
      dropped.splice(dropped.end(), Entries, std::prev(Entries.end()));
    }
  }
}

void KeptDeviceData::dropSlotAndUnwanted(const std::string& slot, std::list<Entry>& dropped)
{
  for (auto entry = Entries.begin(); entry != Entries.end();)
  {
    const auto next = std::next(entry);
    if (entry->slot == slot || (entry->wanted && !entry->wanted()))
    {
      Bytes -= entry->bytes;
      dropped.splice(dropped.end(), Entries, entry);
    }
    entry = next;
  }
}

void KeptDeviceData::forget(const std::string& slot)
{
  std::list<Entry> dropped; // released outside the lock
  std::lock_guard<std::mutex> lock(Mutex);
  dropSlotAndUnwanted(slot, dropped);
}

void KeptDeviceData::clear()
{
  std::list<Entry> dropped;
  std::lock_guard<std::mutex> lock(Mutex);
  dropped.swap(Entries);
  Bytes = 0;
}

std::uint64_t KeptDeviceData::bytes() const
{
  std::lock_guard<std::mutex> lock(Mutex);
  return Bytes;
}

} // namespace gpumesh
