// A slot's run of equal keys, read at its position i in the sorted slots: shared by the GPUs'
// two ways of recording runs (record_runs in cell_entity_runs.cl writes it at the slot at once;
// number_runs_by_window in run_windows.cl moves it to the slot through windows).
// `#include "entity_runs.cl"`.
#include "entity_keys.cl" // cell_of_slot
struct sorted_run
{
  int slot;
  int start; // where the run starts in the sorted slots
  int length; // how many slots share the entity
  int entity;
  int neighbor; // the first other cell of the run, or -1
};

// The run of position i, of `entity`, which spans sorted positions [start, end).
inline struct sorted_run sorted_run_in(int i, int entity, int start, int end,
  __global const int* sorted_slots, __global const int* slot_cell)
{
  struct sorted_run r;
  r.entity = entity;
  r.start = start;
  r.length = end - start;
  r.slot = sorted_slots[i];
  r.neighbor = r.length > 1 ? cell_of_slot(slot_cell, sorted_slots[i == start ? start + 1 : start]) : -1;
  return r;
}

// entity_offsets[i + 1] - 1 is the entity at position i (record_entities in cell_entities.cl),
// run_start its first position and, one entity on, its end.
inline struct sorted_run sorted_run_at(int i, __global const int* sorted_slots,
  __global const uint* entity_offsets, __global const int* run_start, __global const int* slot_cell)
{
  const int entity = (int)entity_offsets[i + 1] - 1;
  return sorted_run_in(i, entity, run_start[entity], run_start[entity + 1], sorted_slots, slot_cell);
}
