// FitTraining answers, for one `training` entry of a scenario on its
// cluster, whether the plan fits in GPU memory and, with `parallelism:
// auto`, which splits fit and which is fastest by the closed-form estimate
// (workload/parallelism_search.h): the function the planner and `aifabric
// run` / `validate` call. Returns data; report/training_memory_text.h words
// it. Pure function of its inputs; thread-safe.
#pragma once

#include <vector>

#include "core/result.h"
#include "scenario/scenario.h"
#include "workload/parallelism_search.h"
#include "workload/training_memory.h"

namespace aifabric {

struct TrainingFit {
  ParallelismSpec parallelism;      // the entry's, or (auto) the best-ranked split
  TrainingMemory memory;            // of that split, against cluster.gpu's HBM
  std::vector<RankedSplit> ranked;  // auto: every split that fits, best first; else empty
};

// The cluster as the search sees it: the entry's GPUs (auto: `gpus`, or the
// cluster's less the checkpoint's storage servers), NVLink per direction,
// the NIC rate per GPU (cluster.nic.rate x per_gpu) and the HBM capacity.
SearchCluster TrainingSearchCluster(const Scenario& scenario, const Scenario::Training& training);

// Errors name the entry ("workload.0.training: parallelism: no split of 16
// GPUs fits ..."), for a split the memory model cannot take (e.g. a global
// batch that dp does not divide) or an auto search with no split that fits.
Result<TrainingFit> FitTraining(const Scenario& scenario, const Scenario::Training& training);

}  // namespace aifabric
