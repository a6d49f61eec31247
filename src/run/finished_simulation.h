// A finished simulation of a job or an inference service, as its report
// sees it before the run lets it go: the fabric and its model, the series
// sampled over it, and the workload's own record (a job's graph with each
// node's start and finish, or the service's requests). SimulationReport is
// what hears of them: the report layer implements it to write each
// simulation's observability files (report/telemetry_outputs.h), so a run
// returns data and never renders a file. Views, valid during the call.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "fabric/fabric_observation.h"
#include "fabric/link_fault.h"
#include "run/fabric_simulation.h"
#include "workload/inference_server.h"
#include "workload/job_graph.h"
#include "workload/job_metrics.h"

namespace aifabric {

// What one job's run measured.
struct JobRunResult {
  ModelKind network_model = ModelKind::kPacket;
  Time makespan;              // first node start to last finish
  JobMetrics metrics;
  // Each GPU of the job as a rank the others wait on (workload/rank_waits.h).
  std::vector<RankObservation> ranks;
  // The scenario's faults as this run saw them, in the scenario's order
  // (run/straggler_plan.h: FaultOutcomesOf); empty without faults.
  std::vector<FaultOutcome> faults;
  uint64_t events = 0;
  double wall_seconds = 0;
};

struct FinishedJob {
  std::string_view what;              // the workload entry, e.g. "workload.0.training"
  const FabricSimulation& simulation;
  const JobGraph& graph;
  std::span<const Time> node_start;   // per node of `graph`
  std::span<const Time> node_finish;
  const JobRunResult& result;
};

struct FinishedService {
  std::string_view what;              // "workload.N.inference"
  const FabricSimulation& simulation;
  const InferenceResult& result;
  uint64_t events = 0;
};

class SimulationReport {
 public:
  // An Error stops the run (it is returned as the run's error).
  virtual Status OnJobFinished(const FinishedJob& job) = 0;
  virtual Status OnServiceFinished(const FinishedService& service) = 0;

 protected:
  ~SimulationReport() = default;
};

}  // namespace aifabric
