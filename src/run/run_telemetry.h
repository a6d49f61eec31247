// RunTelemetry samples one simulation's counters into time series while it
// runs: the model's counter readers (ModelHandle::CounterSources) feed a
// Sampler at simulation.telemetry.interval into a TimeSeriesStore bounded
// in memory, and, when a publisher is set, the store is handed to it at
// most every RunHooks::publish_every of wall time (half a second unless
// the caller asks otherwise). Owned by the run it observes and
// lives in its Simulator. Not thread-safe.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

#include "engine/simulator.h"
#include "run/model_handle.h"
#include "run/run_hooks.h"
#include "scenario/scenario.h"
#include "telemetry/sampler.h"
#include "telemetry/time_series_store.h"

namespace aifabric {

class RunTelemetry {
 public:
  // Values a store may hold in all (series x points): 2 M doubles, 16 MB.
  // With many series the points per series shrink to fit (at least 16):
  // a 16k-GPU fabric's 98,304 ports keep 20 points each, and the reads a
  // run makes (about points x (1 + log2(run / (interval x points)) / 2))
  // stay few.
  static constexpr size_t kMaxStoredValues = size_t{2} << 20;

  // `sources`' gauges must be peaks since the previous read: the sampler
  // reads only the instants the store keeps.
  RunTelemetry(Simulator& sim, const Scenario::Telemetry& options, std::vector<CounterSource> sources);
  RunTelemetry(const RunTelemetry&) = delete;
  RunTelemetry& operator=(const RunTelemetry&) = delete;
  ~RunTelemetry();

  // Hands the store to `publish` after samples, at most once per `every`
  // of wall time, and at Finish.
  void SetPublisher(std::function<void(const TimeSeriesStore&)> publish,
                    std::chrono::milliseconds every = std::chrono::milliseconds(500));
  // Takes the first sample now and samples on while the run goes.
  void Start();
  // Takes the last sample (at the run's end) and publishes it.
  void Finish();
  const TimeSeriesStore& store() const { return store_; }
  // Moves the store out. REQUIRES: Finish() has been called; store() has
  // no series afterwards, and the telemetry is spent (the owner drops it).
  TimeSeriesStore TakeStore() { return std::move(store_); }

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

  std::vector<CounterSource> sources_;
  TimeSeriesStore store_;
  Sampler sampler_;
  LivePublisher live_{*this};
  std::function<void(const TimeSeriesStore&)> publish_;
  std::chrono::milliseconds publish_every_{500};
  std::chrono::steady_clock::time_point last_publish_{};
};

// A RunTelemetry over `model`'s counter sources (see CounterSources), or
// null: telemetry off, or nothing to sample (the analytic model).
std::unique_ptr<RunTelemetry> MakeRunTelemetry(Simulator& sim, const Scenario& scenario, const ModelHandle& model,
                                               const std::vector<int>& priorities = {});

// Publishes `telemetry`'s samples to hooks.publish (if both are set), with
// `topology`, the count `transfers_completed` gives at that moment and the
// completion latencies `take_completions` hands over (those since its last
// call; empty function: none).
void AttachLive(RunTelemetry* telemetry, const RunHooks& hooks, const Topology& topology,
                std::function<size_t()> transfers_completed,
                std::function<std::vector<double>()> take_completions = {});

}  // namespace aifabric
