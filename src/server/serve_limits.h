// ServeLimits bound what one request may cost the server (`aifabric serve`
// --max-body-bytes, --max-hosts, --max-sim-time, --max-events,
// --max-plan-work), and CheckRunLimits (CheckPlanLimits for a plan) holds
// a loaded scenario to them before its run is queued:
// a refusal says which limit and what the scenario asked for. Plain data
// and pure functions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/result.h"
#include "core/time.h"
#include "plan/plan_requirements.h"
#include "run/collective_run.h"
#include "scenario/scenario.h"

namespace aifabric {

struct ServeLimits {
  size_t max_body_bytes = 4 << 20;      // request bodies larger get 413
  int64_t max_hosts = 4096;             // host nodes (NICs) of a run's fabric; 0: no limit
  Time max_sim_time = Time::FromMs(1000);  // simulation.until of a flows run; Time::Zero(): no limit
  uint64_t max_events = 2'000'000'000;  // per simulation: estimated up front (run/run_cost.h), checked at the engine heartbeat; 0: no limit
  uint64_t max_plan_work = 1'000'000;    // designs x hosts of a plan; 0: no limit
};

// The host nodes the scenario's fabric has: servers x NICs per server for
// the built families; the file's hosts for a topology read from a file.
Result<int64_t> ScenarioHosts(const Scenario& scenario);

// hosts <= max_hosts; for a flows run (no jobs), a finite simulation.until
// <= max_sim_time; the events of each of its simulations, as
// EstimateRunCost puts them (run/run_cost.h), <= max_events (and held to
// it again at the engine heartbeat while they run). Errors: "limit: ..."
// with the figures.
Status CheckRunLimits(const Scenario& scenario, const ServeLimits& limits);

// A collective sweep's simulations, as EstimateCollectiveCost puts them,
// each <= max_events. Errors: "limit: ..." with the estimate.
Status CheckCollectiveLimits(const Scenario& scenario, const CollectiveRequest& request, const ServeLimits& limits);

// A plan's cost before it starts: its cluster's hosts (gpus x nics_per_gpu)
// <= max_hosts, and `designs` (the designs it would evaluate) x those
// hosts <= max_plan_work (each design is one simulation of the cluster).
// Errors: "limit: ..." with the figures.
Status CheckPlanLimits(const PlanRequirements& requirements, size_t designs, const ServeLimits& limits);

}  // namespace aifabric
