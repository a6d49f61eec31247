// RunTelemetry samples one run's counters into time series while it runs:
// the model's counter readers (packet: per port and per queue; flow: bytes
// per port) feed a Sampler at simulation.telemetry.interval into a
// TimeSeriesStore bounded in memory, and, when a MetricsServer is given,
// the latest values are published to it as a Prometheus exposition at
// most every half second of wall time. Owned by the run it observes and
// lives in its Simulator. Not thread-safe (the server's Publish is).
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api/scenario.h"
#include "engine/simulator.h"
#include "fabric/topology.h"
#include "telemetry/metrics_server.h"
#include "telemetry/sampler.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

class RunTelemetry {
 public:
  struct Source {
    std::unique_ptr<CounterReader> reader;
    std::vector<SeriesKey> keys;
  };
  // Values a store may hold in all (series x points): 2 M doubles, 16 MB.
  // With many series the points per series shrink to fit (at least 16):
  // a 16k-GPU fabric's 98,304 ports keep 20 points each, and the reads a
  // run makes (about points x (1 + log2(run / (interval x points)) / 2))
  // stay few.
  static constexpr size_t kMaxStoredValues = size_t{2} << 20;

  // `sources`' gauges must be peaks since the previous read: the sampler
  // reads only the instants the store keeps.
  RunTelemetry(Simulator& sim, const Scenario::Telemetry& options, std::vector<Source> sources);
  RunTelemetry(const RunTelemetry&) = delete;
  RunTelemetry& operator=(const RunTelemetry&) = delete;
  ~RunTelemetry();

  // Publishes render(store) to `server` after samples, throttled.
  void ServeLive(MetricsServer* server, std::function<std::string(const TimeSeriesStore&)> render);
  // Takes the first sample now and samples on while the run goes.
  void Start();
  // Takes the last sample (at the run's end) and publishes it.
  void Finish();
  const TimeSeriesStore& store() const { return store_; }

 private:
  // A reader of no series, last in the sampler's list: it runs at every
  // sampling instant, before that sample is recorded, so it publishes the
  // store as of the previous one (Finish publishes the last).
  class LivePublisher final : public CounterReader {
   public:
    explicit LivePublisher(RunTelemetry& owner) : owner_(owner) {}
    void Read(Time now, std::span<double> out) override;

   private:
    RunTelemetry& owner_;
  };
  void Publish(bool force);

  std::vector<Source> sources_;
  TimeSeriesStore store_;
  Sampler sampler_;
  LivePublisher live_{*this};
  MetricsServer* server_ = nullptr;
  std::function<std::string(const TimeSeriesStore&)> render_;
  std::chrono::steady_clock::time_point last_publish_{};
};

class FlowNetwork;
class PacketNetwork;

// What a live caller (the CLI) attaches to each simulation a scenario
// runs: a server to publish the counters to while it goes, and a progress
// display on stderr.
struct LiveHooks {
  MetricsServer* metrics = nullptr;
  bool progress = false;
};

// Publishes `telemetry`'s counters to hooks.metrics (if both are set).
void ServeLive(RunTelemetry* telemetry, const LiveHooks& hooks, const Topology& topology,
               std::function<size_t()> transfers_completed);

// The counter readers of a fabric model (at most one of the two non-null):
// per port and per queue at packet level — the queues of `priorities`, of
// the default traffic class 3 and, with PFC on, of the lossless ones —,
// bytes per port at flow level; none for the analytic model (no time to
// sample).
std::vector<RunTelemetry::Source> CounterSources(const Scenario& scenario, const Topology& topology,
                                                 PacketNetwork* packet, const FlowNetwork* flow,
                                                 const std::vector<int>& priorities);

// A RunTelemetry over those readers, or null (telemetry off, or nothing to
// sample).
std::unique_ptr<RunTelemetry> MakeRunTelemetry(Simulator& sim, const Scenario& scenario, const Topology& topology,
                                               PacketNetwork* packet, const FlowNetwork* flow,
                                               const std::vector<int>& priorities = {});

}  // namespace aifabric
