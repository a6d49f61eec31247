// SimulateTenants runs several workload items of a scenario (its tenants:
// scenario/tenant_spec.h) on one fabric and one clock: every training step
// and Chakra trace as JobExecutors on one GpuNetwork, every inference
// service as an InferenceServer on it, every flow workload
// through one TrafficInjector on the same fabric model, each job at its
// placement from its start, its steps back to back (a training job's
// checkpoint only in the steps checkpoint.every picks: the others run the
// same graph without its checkpoint nodes, so no second graph is held per
// job; JobDriver in the .cc says why). The same prepared
// tenants run in any subset (the shared run holds them all, a tenant's
// alone run only it), and each keeps its own flow ids and ECMP entropy in
// every subset, so a tenant crosses the same links in each. Returns data;
// not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "fabric/fabric_observation.h"
#include "fabric/port_counters.h"
#include "run/fabric_setup.h"
#include "run/collective_job.h"
#include "run/run_hooks.h"
#include "run/training_run.h"
#include "scenario/scenario.h"
#include "telemetry/time_series_store.h"
#include "workload/inference_metrics.h"
#include "workload/inference_spec.h"
#include "workload/job_graph.h"
#include "workload/job_metrics.h"
#include "workload/traffic_spec.h"

namespace aifabric {

// One tenant made ready to run (run/tenant_run.h prepares them).
struct PreparedTenant {
  const TenantSpec* spec = nullptr;
  // Jobs: the cluster GPUs it runs on (the graph's GPU g is gpus[g]), its
  // graph as built (GPUs 0..n-1; metrics read it) and as placed.
  std::vector<GpuId> gpus;
  JobGraph graph;
  JobGraph placed;
  int32_t metric_gpus = 0;   // ComputeJobMetrics' `gpus`
  size_t timed_nodes = 0;    // ComputeJobMetrics' `timed_nodes`
  // Training with dataset reads: graph nodes timed_nodes ..
  // timed_nodes + read_nodes - 1, run in every step (a step ends when they
  // are done too).
  size_t read_nodes = 0;
  // Training with a checkpoint (the graph's nodes past timed_nodes +
  // read_nodes): step n (from 1) runs them when n % checkpoint_every == 0,
  // else only the step's own nodes and reads (JobExecutorOptions::
  // node_limit), on the same graph.
  int checkpoint_every = 1;
  std::optional<PreparedTraining> training;
  // A collective item: what it runs (its graph is `graph`, one node).
  std::optional<CollectiveChoice> collective;
  // Inference: the service, its first_gpu set to its placement.
  std::optional<InferenceSpec> inference;
  // Flows: with their ids (unique over all tenants) and starts.
  std::vector<FlowSpec> flows;
};

// The priority (traffic class) a tenant's transfers use: its `class` /
// `priority`, else its inference service's or first flow's, else 3 (a
// job's default).
int TenantPriority(const PreparedTenant& tenant);

// What one tenant measured in one simulation.
struct TenantFigures {
  std::vector<JobMetrics> steps;  // jobs: each step's (makespan = its step time)
  std::vector<Time> fct;          // flows: by flow, Time::Infinite() if unfinished
  std::vector<Time> ideal_fct;    // flows: alone on the idle fabric
  std::optional<InferenceSummary> inference;  // inference: TTFT, TPOT, ... of its requests
  bool complete = false;          // every step / flow / request finished
  // The headline time a slowdown compares: a job's mean step time, a flow
  // workload's mean FCT (of the finished flows), an inference service's
  // mean TTFT.
  Time headline;
  double mean_exposed_comm_s = 0;  // jobs: per GPU, mean over steps
  // Jobs: when each step began and ended (its executor's start and last
  // node), on the run's clock.
  std::vector<std::pair<Time, Time>> step_spans;
  // Training with a checkpoint: per step, whether it wrote one, and how
  // long the write took (from the step's start to the last GPU's write
  // done; zero in a step without one).
  std::vector<uint8_t> checkpointed;
  std::vector<Time> checkpoint_write;
  // Training with dataset reads: per step, from its start to its last
  // read done.
  std::vector<Time> dataset_read;
  // A job repeating for a `duration`, run alone: every topology port's
  // transmitted bytes at the end of each of its steps (all of them its
  // own). Its shared run may do fewer steps than its alone run, and its
  // bytes there are those of that many steps (RunTenants reads them here).
  std::vector<std::vector<uint64_t>> step_port_tx_bytes;
};

struct TenantSimulation {
  std::vector<TenantFigures> tenants;  // one per index of `which`, in that order
  std::vector<uint64_t> port_tx_bytes;  // per topology port: what it carried (all tenants)
  std::vector<PortCounters> port_counters;  // with `observe`: per topology port, its counters
  Time sim_time;
  uint64_t events = 0;
  double wall_seconds = 0;
  FabricObservation observation;        // with `observe`
  // With `observe` and simulation.telemetry on: the counters sampled over
  // the run (what timeseries.csv and metrics.prom show); else null.
  std::unique_ptr<TimeSeriesStore> series;
};

// Runs the tenants `which` (indices into `tenants`) together. `hooks`
// watch the run (progress, cancel). With `observe`, fills the observation
// (the diagnosis reads it). Errors name the tenant.
Result<TenantSimulation> SimulateTenants(const Scenario& scenario, const BuiltFabric& fabric,
                                         std::span<const PreparedTenant> tenants, std::span<const size_t> which,
                                         const RunHooks& hooks, bool observe);

}  // namespace aifabric
