// A `collective` workload item made ready to run as a job (docs/
// multi_tenant.md): one collective at one size over `gpus` GPUs, as a
// JobGraph of one collective node that a tenant runs once per iteration,
// with the algorithm and protocol `aifabric collective` times for that size
// and GPU count (run/collective_run.h: with auto, the fastest candidate on
// the idle fabric) and the scenario's calibrated latencies. Returns data;
// not thread-safe.
#pragma once

#include <cstdint>

#include "core/result.h"
#include "run/collective_run.h"
#include "scenario/scenario.h"
#include "workload/collective_protocol.h"
#include "workload/job_graph.h"

namespace aifabric {

// What the collective is and how it runs.
struct CollectiveChoice {
  CollectiveOp op = CollectiveOp::kAllReduce;
  uint64_t size = 0;   // as written (nccl-tests' -b); algbw divides it by the time
  uint64_t bytes = 0;  // S the collective moves (SizesFor)
  int32_t ranks = 0;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::kRing;  // as run (auto resolved)
  CollectiveProtocol protocol = CollectiveProtocol::kSimple;
  ProtocolSpec protocol_spec;  // its latencies and bus efficiency (the scenario's calibration)
};

struct PreparedCollectiveJob {
  CollectiveChoice choice;
  JobGraph graph;  // one collective node over GPUs 0..ranks-1
};

// The request `aifabric collective` would get for the item: its op, size
// and GPUs, the algorithm and protocol as written (auto: unset).
CollectiveRequest CollectiveJobRequest(const Scenario::CollectiveJob& job);

// The item's graph with `algorithm` (kDefault: the op's own), without
// choosing (the run-cost estimate builds it so). Errors name the item.
Result<JobGraph> CollectiveJobGraph(const Scenario::CollectiveJob& job, CollectiveAlgorithm algorithm);

// With auto algorithm or protocol, runs RunCollectiveSweep for the one
// size on the scenario's fabric without its faults and telemetry (the
// idle fabric, the cluster's first GPUs) and takes its choice. Errors name
// the item.
Result<PreparedCollectiveJob> PrepareCollectiveJob(const Scenario& scenario, const Scenario::CollectiveJob& job);

}  // namespace aifabric
