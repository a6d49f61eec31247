#include "workload/training_schedule.h"

#include <algorithm>
#include <cassert>

namespace aifabric {

std::vector<PipelineOp> OneFOneBSchedule(int stage, int stages, int micro_batches) {
  assert(stage >= 0 && stage < stages && micro_batches >= 1);
  const int warmup = std::min(stages - 1 - stage, micro_batches);
  std::vector<PipelineOp> ops;
  ops.reserve(2 * static_cast<size_t>(micro_batches));
  for (int i = 0; i < warmup; ++i) ops.push_back({false, i});
  for (int i = 0; i < micro_batches - warmup; ++i) {
    ops.push_back({false, warmup + i});
    ops.push_back({true, i});
  }
  for (int i = micro_batches - warmup; i < micro_batches; ++i) ops.push_back({true, i});
  return ops;
}

}  // namespace aifabric
