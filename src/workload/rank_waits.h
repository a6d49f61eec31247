// RankWaits read a finished job run (JobExecutor's node times) for the
// ranks the others wait on. A synchronisation point is a node with inputs
// from two or more GPUs — a compute predecessor counts as its GPU's input
// at its finish, a transfer predecessor as its source GPU's at its start
// (when the sender was ready; a pipeline edge) — and the job's end, whose
// inputs are the GPUs' last kernels. At each point the GPU whose input came
// last held it back by (last - second-last input) and the others waited
// (last - their input) each; a tie holds nothing back. Pure function;
// thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/time.h"
#include "workload/job_graph.h"

namespace aifabric {

struct RankWait {
  GpuId gpu = 0;
  Time compute;          // its kernels' total time
  Time peer_compute;     // median compute of the GPUs it came last among (zero if never last)
  Time held;             // summed over the points it came last at: last - second-last input
  Time waited_on;        // summed there: the others' waits for it
  uint32_t last_at = 0;  // points it came last at
};

// One entry per GPU 0..gpus-1 (gpus = 0: every GPU the graph names).
// REQUIRES: every node finished (as JobExecutor leaves them when done()).
std::vector<RankWait> ComputeRankWaits(const JobGraph& graph, std::span<const Time> start,
                                       std::span<const Time> finish, int32_t gpus = 0);

}  // namespace aifabric
