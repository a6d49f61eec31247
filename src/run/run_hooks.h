// What a caller attaches to each simulation a scenario runs: a publisher of
// the latest sampled counters while it goes (the CLI's live Prometheus
// endpoint, report/live_metrics.h; the server's live feed), a progress
// display on stderr, a progress callback and a cancel flag (the server,
// src/server/), and the report that hears of each finished simulation of a
// job scenario while it is still there (run/finished_simulation.h). Plain
// values; everything is called on the simulation's thread, and `cancel` is
// the one field another thread may change while a run goes (it is read by
// every simulation of the run).
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/time.h"
#include "fabric/topology.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

class SimulationReport;

// The latest state of a running simulation's telemetry.
struct LiveSample {
  const Topology& topology;
  const TimeSeriesStore& store;   // at least one point
  size_t transfers_completed = 0;
  // Completion latency (start to last byte, in ns) of each flow completed
  // since the sample published before, in completion order; empty when the
  // run's kind does not report them.
  std::vector<double> completion_ns;
};

// How far a running simulation has got, as its heartbeat sees it.
struct RunProgress {
  double fraction = -1;    // 0..1 of the work done; negative when unknown
  Time sim_time;           // the simulator's clock
  uint64_t events = 0;     // events processed so far by this simulation
};

struct RunHooks {
  // Called after samples, at most every `publish_every` of wall time, and
  // once at the end of each simulation; empty: nothing is published.
  std::function<void(const LiveSample&)> publish;
  std::chrono::milliseconds publish_every{500};
  bool progress = false;
  // Called at the engine's heartbeat at most every `publish_every` of wall
  // time while a simulation runs; empty: not called.
  std::function<void(const RunProgress&)> on_progress;
  // Read at the engine's heartbeat (every 1024 events): once true, the
  // simulation stops there and the run returns early; its results are
  // then partial, for the caller to throw away. Null: never cancelled.
  const std::atomic<bool>* cancel = nullptr;
  // Null: nothing is reported (the caller only wants the results).
  SimulationReport* report = nullptr;
  // How many simulations of one run may go at once, one thread each: a
  // shared run's alone runs beside it (run/tenant_run.h). 1: one after
  // another. The outputs do not depend on it; only the first simulation's
  // callbacks above run, on the caller's thread.
  int threads = 1;
};

}  // namespace aifabric
