// ServeLimits bound what one request may cost the server (`aifabric serve`
// --max-body-bytes, --max-hosts, --max-sim-time, --max-events), and
// CheckRunLimits holds a loaded scenario to them before its run is queued:
// a refusal says which limit and what the scenario asked for. Plain data
// and pure functions.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/result.h"
#include "core/time.h"
#include "scenario/scenario.h"

namespace aifabric {

struct ServeLimits {
  size_t max_body_bytes = 4 << 20;      // request bodies larger get 413
  int64_t max_hosts = 4096;             // host nodes (NICs) of a run's fabric; 0: no limit
  Time max_sim_time = Time::FromMs(1000);  // simulation.until of a flows run; Time::Zero(): no limit
  uint64_t max_events = 2'000'000'000;  // per simulation, checked at the engine heartbeat; 0: no limit
};

// The host nodes the scenario's fabric has: servers x NICs per server for
// the built families; the file's hosts for a topology read from a file.
Result<int64_t> ScenarioHosts(const Scenario& scenario);

// hosts <= max_hosts; for a flows run (no jobs), a finite simulation.until
// <= max_sim_time (job runs end when their jobs do, and are held to
// max_events while they run). Errors: "limit: ..." with the figures.
Status CheckRunLimits(const Scenario& scenario, const ServeLimits& limits);

}  // namespace aifabric
