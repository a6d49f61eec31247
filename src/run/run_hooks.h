// What a caller attaches to each simulation a scenario runs: a publisher of
// the latest sampled counters while it goes (the CLI's live Prometheus
// endpoint, report/live_metrics.h), a progress display on stderr, and the
// report that hears of each finished simulation of a job scenario while it
// is still there (run/finished_simulation.h). Plain values; everything is
// called on the simulation's thread.
#pragma once

#include <cstddef>
#include <functional>

#include "fabric/topology.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

class SimulationReport;

// The latest state of a running simulation's telemetry.
struct LiveSample {
  const Topology& topology;
  const TimeSeriesStore& store;   // at least one point
  size_t transfers_completed = 0;
};

struct RunHooks {
  // Called after samples, at most every half second of wall time, and once
  // at the end of each simulation; empty: nothing is published.
  std::function<void(const LiveSample&)> publish;
  bool progress = false;
  // Null: nothing is reported (the caller only wants the results).
  SimulationReport* report = nullptr;
};

}  // namespace aifabric
