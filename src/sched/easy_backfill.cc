#include "sched/easy_backfill.h"

#include <algorithm>
#include <vector>

namespace aifabric {

BackfillReservation ReserveForHead(Time now, int head_gpus, int free_gpus, std::span<const RunningJobEnd> running) {
  if (free_gpus >= head_gpus) return {now, free_gpus - head_gpus};
  std::vector<RunningJobEnd> ends(running.begin(), running.end());
  std::stable_sort(ends.begin(), ends.end(),
                   [](const RunningJobEnd& a, const RunningJobEnd& b) { return a.expected_end < b.expected_end; });
  int free = free_gpus;
  for (const RunningJobEnd& e : ends) {
    free += e.gpus;
    if (free >= head_gpus) return {std::max(now, e.expected_end), free - head_gpus};
  }
  return {};
}

}  // namespace aifabric
