// RunJob runs one JobGraph (a training step, a Chakra trace) on a
// scenario's cluster and fabric: the graph on a GpuNetwork (NVLink inside
// servers) over the network model the scenario asks for. Not thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/run_telemetry.h"
#include "api/scenario.h"
#include "core/result.h"
#include "core/time.h"
#include "fabric/topology.h"
#include "telemetry/chrome_trace.h"
#include "workload/job_graph.h"
#include "workload/job_metrics.h"

namespace aifabric {

struct JobRunResult {
  std::string network_model;  // "packet" or "flow"
  Time makespan;              // first node start to last finish
  JobMetrics metrics;
  uint64_t events = 0;
  double wall_seconds = 0;
  // The observability files of the run (telemetry_outputs.h; the trace
  // holds the job's ranks too), unless simulation.telemetry is off.
  std::vector<std::pair<std::string, std::string>> telemetry_files;
};

// Errors are prefixed with `what` (e.g. "workload.0.training"). With
// `metric_gpus` > 0 the metrics count GPUs 0..metric_gpus-1 only; with
// `timed_nodes` > 0 the makespan is that of nodes 0..timed_nodes-1 (later
// nodes are background work).
class FabricModel;

// The observability files (telemetry_outputs.h) of one simulation over
// `model` (a job, or an inference service): its observation, the series
// `telemetry` sampled (null: none), `summary` for the report, and
// `add_to_trace` for the workload's own tracks.
Result<std::vector<std::pair<std::string, std::string>>> FabricTelemetryFiles(
    const Scenario& scenario, const Topology& topology, const FabricModel& model, const RunTelemetry* telemetry,
    Time sim_time, const nlohmann::ordered_json& summary, std::function<void(ChromeTrace&)> add_to_trace);

Result<JobRunResult> RunJob(const Scenario& scenario, const JobGraph& graph, const std::string& what,
                            int32_t metric_gpus = 0, size_t timed_nodes = 0, const LiveHooks& hooks = {});

}  // namespace aifabric
