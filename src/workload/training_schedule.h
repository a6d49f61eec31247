// The order in which one pipeline stage runs its micro-batches' forward and
// backward passes: the non-interleaved 1F1B schedule (PipeDream-Flush,
// Narayanan et al. arXiv:2104.04473 section 2.2; Megatron-LM's
// forward_backward_pipelining_without_interleaving). Pure functions; thread-safe.
#pragma once

#include <vector>

namespace aifabric {

struct PipelineOp {
  bool backward = false;
  int micro_batch = 0;
  bool operator==(const PipelineOp&) const = default;
};

// Stage `stage` of `stages` with `micro_batches` micro-batches: a warm-up of
// w = min(stages - 1 - stage, micro_batches) forwards, then m - w pairs
// (forward w + i, backward i), then the last w backwards.
// REQUIRES: 0 <= stage < stages, micro_batches >= 1.
std::vector<PipelineOp> OneFOneBSchedule(int stage, int stages, int micro_batches);

}  // namespace aifabric
