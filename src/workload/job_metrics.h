// JobMetrics is the breakdown of a finished job run (JobExecutor) per GPU,
// averaged over the GPUs the job uses: time computing (and the useful part,
// kernels with model FLOPs), time each kind of communication was in flight,
// the part of it that was exposed (the GPU computed nothing meanwhile),
// and idle time; effective GPU utilization = useful compute time / makespan.
// Exposed time is split evenly among the dimensions in flight at the time.
// Pure function of the run's node times; thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/time.h"
#include "workload/job_graph.h"

namespace aifabric {

struct JobMetrics {
  Time makespan;                      // first start to last finish
  int32_t gpus = 0;                   // GPUs any node touches
  double compute_s = 0;               // per GPU, mean
  double useful_compute_s = 0;        // compute nodes with flops > 0
  std::array<double, kCommDimensionCount> comm_s{};     // per dimension, in flight (per GPU, mean)
  std::array<double, kCommDimensionCount> exposed_s{};  // per dimension, in flight while not computing
  double idle_s = 0;                  // neither computing nor communicating
  double flops = 0;                   // useful FLOPs of the whole job
  double effective_utilization = 0;   // useful_compute_s / makespan
  double exposed_total_s() const;
};

// REQUIRES: every node finished (start/finish finite), as JobExecutor
// leaves them when done(). With `gpus` > 0, only GPUs 0..gpus-1 are counted
// (others are endpoints such as storage servers, not the job's GPUs). With
// `timed_nodes` > 0, the makespan is that of nodes 0..timed_nodes-1 and
// later nodes (background work, e.g. a checkpoint) count only within it;
// those may also not have run at all (start and finish infinite: an
// executor's node_limit left them out), and then count nothing.
JobMetrics ComputeJobMetrics(const JobGraph& graph, const std::vector<Time>& start, const std::vector<Time>& finish,
                             int32_t gpus = 0, size_t timed_nodes = 0);

}  // namespace aifabric
