// Device data kept between runs, for later runs on an input that did not change.
#pragma once
#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>

namespace gpumesh
{

/// A filter re-executed after a property change computes on the same input again: the mesh it
/// uploaded last time (a third of Neighbor Distance's re-execution at 30M triangles on an H200)
/// can stay on the device. What is kept is found by two keys its owner makes: the slot (which
/// input: a time series' reader refills the same dataset) and the version (its modification
/// times), one version per slot. It holds its device memory until it is dropped: replaced by a
/// newer version, no longer wanted (its input gone), the least recently used beyond the budget,
/// and everything when a run lacks memory (DeviceRun::requireMemory). One per DeviceContext; thread-safe. The data are type-erased:
/// the layer that keeps a kind of data reads it back (e.g. vtkGPUMeshKeptMesh).
class KeptDeviceData
{
public:
  explicit KeptDeviceData(std::uint64_t budgetBytes);

  /// What was kept in `slot` as `version` (now the most recently used), or null.
  std::shared_ptr<const void> find(const std::string& slot, const std::string& version);
  /// Keeps `data` (holding `bytes` of the device's memory) in `slot` as `version`, dropping what
  /// the slot held, what is no longer `wanted` (asked of every entry here; null: always
  /// wanted), then the least recently used beyond the budget; data larger than the budget is
  /// not kept.
  void keep(const std::string& slot, const std::string& version, std::shared_ptr<const void> data, std::uint64_t bytes,
    std::function<bool()> wanted = nullptr);
  /// Drops what `slot` holds, and whatever is no longer wanted: before a new version is made,
  /// so that its memory is the old one's again rather than more of the device's.
  void forget(const std::string& slot);
  void clear();
  std::uint64_t bytes() const;
  std::uint64_t budget() const { return Budget; }

private:
  struct Entry
  {
    std::string slot;
    std::string version;
    std::shared_ptr<const void> data;
    std::uint64_t bytes = 0;
    std::function<bool()> wanted;
  };
  /// Moves the slot's entry and those no longer wanted to `dropped` (the caller holds Mutex).
  void dropSlotAndUnwanted(const std::string& slot, std::list<Entry>& dropped);
  mutable std::mutex Mutex;
  std::list<Entry> Entries; ///< most recently used first
  std::uint64_t Bytes = 0;
  std::uint64_t Budget = 0;
};

} // namespace gpumesh
