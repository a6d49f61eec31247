#include "api/run_telemetry.h"

#include <algorithm>
#include <set>

#include "api/telemetry_outputs.h"
#include "flow/flow_counter_reader.h"
#include "packet/packet_counter_reader.h"

namespace aifabric {
namespace {

size_t SeriesIn(const std::vector<RunTelemetry::Source>& sources) {
  size_t n = 0;
  for (const RunTelemetry::Source& s : sources) n += s.keys.size();
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

constexpr auto kPublishEvery = std::chrono::milliseconds(500);

}  // namespace

RunTelemetry::RunTelemetry(Simulator& sim, const Scenario::Telemetry& options, std::vector<Source> sources)
    : sources_(std::move(sources)),
      store_(PointsPerSeries(options.max_points, SeriesIn(sources_))),
      sampler_(sim, store_, options.interval, /*read_kept_only=*/true) {
  for (Source& s : sources_) sampler_.AddReader(s.reader.get(), s.keys);
  sampler_.AddReader(&live_, {});
}

RunTelemetry::~RunTelemetry() = default;

void RunTelemetry::ServeLive(MetricsServer* server, std::function<std::string(const TimeSeriesStore&)> render) {
  server_ = server;
  render_ = std::move(render);
}

void RunTelemetry::Start() { sampler_.Start(); }

void RunTelemetry::Finish() {
  sampler_.SampleNow();
  Publish(/*force=*/true);
}

void RunTelemetry::LivePublisher::Read(Time /*now*/, std::span<double> /*out*/) { owner_.Publish(false); }

void RunTelemetry::Publish(bool force) {
  if (server_ == nullptr || store_.points() == 0) return;
  const auto now = std::chrono::steady_clock::now();
  if (!force && now - last_publish_ < kPublishEvery) return;
  last_publish_ = now;
  server_->Publish(render_(store_));
}

void ServeLive(RunTelemetry* telemetry, const LiveHooks& hooks, const Topology& topology,
               std::function<size_t()> transfers_completed) {
  if (telemetry == nullptr || hooks.metrics == nullptr) return;
  telemetry->ServeLive(hooks.metrics, [&topology, transfers_completed](const TimeSeriesStore& store) {
    return PrometheusExposition(topology, &store, {}, store.times().back(), transfers_completed());
  });
}

std::vector<RunTelemetry::Source> CounterSources(const Scenario& scenario, const Topology& topology,
                                                 PacketNetwork* packet, const FlowNetwork* flow,
                                                 const std::vector<int>& priorities) {
  std::vector<RunTelemetry::Source> sources;
  if (packet != nullptr) {
    std::set<int> queues(priorities.begin(), priorities.end());
    queues.insert(3);
    if (scenario.packet.pfc.enabled) {
      for (int p = 0; p < 8; ++p) {
        if (scenario.packet.pfc.lossless_mask & (1u << p)) queues.insert(p);
      }
    }
    auto reader = std::make_unique<PacketCounterReader>(*packet, std::vector<int>(queues.begin(), queues.end()));
    std::vector<SeriesKey> keys(reader->keys().begin(), reader->keys().end());
    sources.push_back(RunTelemetry::Source{std::move(reader), std::move(keys)});
  }
  if (flow != nullptr) {
    auto reader = std::make_unique<FlowCounterReader>(*flow, topology, scenario.packet.mtu_bytes,
                                                      scenario.packet.wire_overhead_bytes);
    std::vector<SeriesKey> keys = reader->keys();
    sources.push_back(RunTelemetry::Source{std::move(reader), std::move(keys)});
  }
  return sources;
}

std::unique_ptr<RunTelemetry> MakeRunTelemetry(Simulator& sim, const Scenario& scenario, const Topology& topology,
                                               PacketNetwork* packet, const FlowNetwork* flow,
                                               const std::vector<int>& priorities) {
  if (!scenario.telemetry.enabled) return nullptr;
  std::vector<RunTelemetry::Source> sources = CounterSources(scenario, topology, packet, flow, priorities);
  if (sources.empty()) return nullptr;
  return std::make_unique<RunTelemetry>(sim, scenario.telemetry, std::move(sources));
}

}  // namespace aifabric
