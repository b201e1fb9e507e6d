// Scans across a work-group whose work-items each own a run of consecutive values (scan.cl,
// radix_sort.cl, window_tiles.cl, bucket_windows.cl; `#include "work_group_scan.cl"`). Build
// option: WG; WORK_GROUP_SCAN_T, the type summed (uint unless defined before the include).
#ifndef WORK_GROUP_SCAN_T
#define WORK_GROUP_SCAN_T uint
#endif

// The sum of the totals of the work-items before this one (Hillis-Steele over `scratch`, WG
// values of local memory). Every work-item of the group must call it.
inline WORK_GROUP_SCAN_T work_group_exclusive_total(WORK_GROUP_SCAN_T total,
  __local WORK_GROUP_SCAN_T* scratch)
{
  const size_t lid = get_local_id(0);
  scratch[lid] = total;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t step = 1; step < WG; step <<= 1)
  {
    const WORK_GROUP_SCAN_T before = lid >= step ? scratch[lid - step] : (WORK_GROUP_SCAN_T)0;
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] += before;
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  return scratch[lid] - total;
}
