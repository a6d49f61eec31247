#include "run/run_telemetry.h"

#include <algorithm>

namespace aifabric {
namespace {

size_t SeriesIn(const std::vector<CounterSource>& sources) {
  size_t n = 0;
  for (const CounterSource& s : sources) n += s.keys.size();
  return n;
}

// The configured points per series, fewer if the series would overflow the
// value budget; even, at least 16.
size_t PointsPerSeries(uint64_t configured, size_t series) {
  size_t points = static_cast<size_t>(configured);
  if (series > 0) points = std::min(points, RunTelemetry::kMaxStoredValues / series);
  points = std::max<size_t>(16, points & ~size_t{1});
  return points;
}

}  // namespace

RunTelemetry::RunTelemetry(Simulator& sim, const Scenario::Telemetry& options, std::vector<CounterSource> sources)
    : sources_(std::move(sources)),
      store_(PointsPerSeries(options.max_points, SeriesIn(sources_))),
      sampler_(sim, store_, options.interval, /*read_kept_only=*/true) {
  for (CounterSource& s : sources_) sampler_.AddReader(s.reader.get(), s.keys);
  sampler_.AddReader(&live_, {});
}

RunTelemetry::~RunTelemetry() = default;

void RunTelemetry::SetPublisher(std::function<void(const TimeSeriesStore&)> publish,
                                std::chrono::milliseconds every) {
  publish_ = std::move(publish);
  publish_every_ = every;
}

void RunTelemetry::Start() { sampler_.Start(); }

void RunTelemetry::Finish() {
  sampler_.SampleNow();
  Publish(/*force=*/true);
}

void RunTelemetry::LivePublisher::Read(Time /*now*/, std::span<double> /*out*/) { owner_.Publish(false); }

void RunTelemetry::Publish(bool force) {
  if (!publish_ || store_.points() == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_publish_ < publish_every_) return;
  last_publish_ = now;
  publish_(store_);
}

std::unique_ptr<RunTelemetry> MakeRunTelemetry(Simulator& sim, const Scenario& scenario, const ModelHandle& model,
                                               const std::vector<int>& priorities) {
  if (!scenario.telemetry.enabled) return nullptr;
  std::vector<CounterSource> sources = model.CounterSources(priorities);
  if (sources.empty()) return nullptr;
  return std::make_unique<RunTelemetry>(sim, scenario.telemetry, std::move(sources));
}

void AttachLive(RunTelemetry* telemetry, const RunHooks& hooks, const Topology& topology,
                std::function<size_t()> transfers_completed,
                std::function<std::vector<double>()> take_completions) {
  if (telemetry == nullptr || !hooks.publish) return;
  telemetry->SetPublisher([&topology, publish = hooks.publish, transfers_completed,
                           take_completions](const TimeSeriesStore& store) {
    LiveSample sample{topology, store, transfers_completed(), {}};
    if (take_completions) sample.completion_ns = take_completions();
    publish(sample);
  }, hooks.publish_every);
}

}  // namespace aifabric
