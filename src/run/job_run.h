// RunJob runs one JobGraph (a training step, a Chakra trace) on a
// scenario's cluster and fabric: the graph on a GpuNetwork (NVLink inside
// servers) over the network model the scenario asks for. It returns what
// the job measured; the report (RunHooks::report) hears of the finished
// simulation first. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "run/finished_simulation.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "workload/job_graph.h"

namespace aifabric {

// Errors are prefixed with `what` (e.g. "workload.0.training"). With
// `metric_gpus` > 0 the metrics count GPUs 0..metric_gpus-1 only; with
// `timed_nodes` > 0 the makespan is that of nodes 0..timed_nodes-1 (later
// nodes are background work).
Result<JobRunResult> RunJob(const Scenario& scenario, const JobGraph& graph, const std::string& what,
                            int32_t metric_gpus = 0, size_t timed_nodes = 0, const RunHooks& hooks = {});

}  // namespace aifabric
