// The cluster-level figures of a scheduling replay, from its per-job
// results (cluster_replay.h defines both): completion and queueing times
// (mean, nearest-rank 95th percentile), slowdowns, and GPU utilization
// allocated and effective over the makespan. Pure function; thread-safe.
#pragma once

#include <span>
#include <vector>

#include "sched/cluster_replay.h"

namespace aifabric {

// Fills every ReplayMetrics field but fabric_util, events and rate_solves
// (the replay knows those). `schedulable_gpus` excludes storage servers.
// No jobs: all zero.
ReplayMetrics ComputeReplayMetrics(std::span<const ReplayJobResult> jobs, int schedulable_gpus);

// The nearest-rank p-quantile (0 < p <= 1) of `values`: the ceil(p n)-th
// smallest. REQUIRES: values non-empty.
double NearestRankQuantile(std::vector<double> values, double p);

}  // namespace aifabric
