// RunTrainingStep simulates one LLM training step (workload `training`,
// workload/training_step.h) on a scenario's cluster and fabric: the step's
// JobGraph runs on a GpuNetwork (NVLink inside servers) over the network
// model the scenario asks for (packet or flow), and the result is the step
// time with its breakdown: compute, communication in flight and exposed
// per parallelism dimension, tokens/s, MFU and effective GPU utilization.
// Deterministic for a scenario and seed. Not thread-safe.
#pragma once

#include <array>
#include <cstdint>

#include "run/finished_simulation.h"
#include "run/run_hooks.h"
#include "run/training_fit.h"
#include "scenario/scenario.h"
#include "core/result.h"
#include "core/time.h"
#include "workload/job_metrics.h"
#include "workload/training_step.h"

namespace aifabric {

struct TrainingRunResult {
  ModelKind network_model = ModelKind::kPacket;
  int gpus = 0;
  Time step_time;
  JobMetrics metrics;          // per GPU, means
  double tokens_per_s = 0;
  double mfu = 0;              // model FLOPs / (step time x GPUs x peak)
  uint64_t tokens_per_step = 0;
  double model_flops_per_step = 0;
  std::array<uint64_t, kCommDimensionCount> comm_bytes{};  // S per dimension, summed over the step
  std::array<uint64_t, kCommDimensionCount> collectives{};  // collective nodes per dimension
  size_t nodes = 0;            // JobGraph nodes
  ParallelismSpec parallelism;  // the split that ran (the entry's, or the search's choice)
  TrainingMemory memory;        // its per-GPU memory (worst stage)
  // parallelism: auto: how many splits fit, and the estimate of the one chosen.
  size_t fitting_splits = 0;
  StepEstimate estimate;
  std::vector<FaultOutcome> faults;  // as the step's run saw them (JobRunResult::faults)
  uint64_t events = 0;
  double wall_seconds = 0;
};

// A training entry made ready to run: its split, the step's JobGraph (with
// its storage traffic after the step's nodes: the dataset reads, then the
// checkpoint's writes, when it has them) and the memory fit. GPUs
// 0..gpus-1 are the job's; storage GPUs (read sources, checkpoint targets)
// are the cluster's last servers' (ids >= gpus).
struct PreparedTraining {
  ParallelismSpec parallelism;
  int gpus = 0;
  TrainingStep step;
  JobGraph graph;  // step.graph, plus the dataset reads and the checkpoint
  size_t read_nodes = 0;  // graph nodes step.graph.size() .. + read_nodes - 1 are the reads
  TrainingFit fit;
};
Result<PreparedTraining> PrepareTraining(const Scenario& scenario, const Scenario::Training& training);
// The result of one run of `prepared.graph`.
TrainingRunResult TrainingResultOf(const PreparedTraining& prepared, const JobRunResult& run);

// Errors name the workload entry (e.g. "workload.0.training: ..."). With
// `parallelism: auto` the search's best split runs; `zero: 3` is refused
// (ZeRO-3's parameter all-gathers are not in the step model). A plan that
// does not fit in HBM still runs (callers warn: FitTraining).
Result<TrainingRunResult> RunTrainingStep(const Scenario& scenario, const Scenario::Training& training,
                                          const RunHooks& hooks = {});

}  // namespace aifabric
