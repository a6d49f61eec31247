// RunJob runs one JobGraph (a training step, a Chakra trace) on a
// scenario's cluster and fabric: the graph on a GpuNetwork (NVLink inside
// servers) over the network model the scenario asks for. It returns what
// the job measured; the report (RunHooks::report) hears of the finished
// simulation first. Not thread-safe.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"
#include "run/fabric_setup.h"
#include "run/finished_simulation.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "workload/job_executor.h"
#include "workload/job_graph.h"

namespace aifabric {

// The executor options every job of a scenario runs with: its GPUs'
// reduction rate, each GPU's NIC rate, collectives as coflows or steps,
// the straggler GPUs, and NCCL's Simple-protocol latencies from the
// scenario's calibration (the built-in table unless it names a file), so a
// calibrated scenario's training steps and Chakra jobs time their
// collectives as `aifabric collective` and `calibrate` do.
JobExecutorOptions JobExecutorOptionsFor(const Scenario& scenario, const BuiltFabric& fabric);

// Errors are prefixed with `what` (e.g. "workload.0.training"). With
// `metric_gpus` > 0 the metrics count GPUs 0..metric_gpus-1 only; with
// `timed_nodes` > 0 the makespan is that of nodes 0..timed_nodes-1 (later
// nodes are background work).
Result<JobRunResult> RunJob(const Scenario& scenario, const JobGraph& graph, const std::string& what,
                            int32_t metric_gpus = 0, size_t timed_nodes = 0, const RunHooks& hooks = {});

}  // namespace aifabric
