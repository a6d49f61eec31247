#include "server/live_findings.h"

#include <algorithm>
#include <map>
#include <span>

#include "diagnosis/diagnosis.h"
#include "observe/counter_observation.h"

namespace aifabric {

FabricObservation ObservationSoFar(const LiveSample& sample) {
  const TimeSeriesStore& store = sample.store;
  const Topology& topology = sample.topology;
  std::vector<PortWindow> windows(topology.ports().size());
  const size_t points = store.points();
  if (points == 0) return ObservationFromWindows(topology, windows);
  const std::span<const double> first = store.row(0);
  const std::span<const double> last = store.row(points - 1);
  const double span_s = static_cast<double>((store.times()[points - 1] - store.times()[0]).ps()) * 1e-12;
  std::vector<double> queue_drops(windows.size(), 0);
  std::vector<bool> has_discards(windows.size(), false);
  // Summed queue occupancy per port and point, for the peak.
  std::map<int, std::vector<double>> occupancy;
  for (size_t id = 0; id < store.series(); ++id) {
    const SeriesKey& key = store.key(static_cast<int>(id));
    if (key.port < 0 || static_cast<size_t>(key.port) >= windows.size()) continue;
    PortWindow& w = windows[static_cast<size_t>(key.port)];
    w.seen = true;
    w.seconds = span_s;
    switch (key.metric) {
      case Metric::kTxBytes: {
        w.tx_bytes = last[id] - first[id];
        for (size_t i = 1; i < points; ++i) {
          const double dt = static_cast<double>((store.times()[i] - store.times()[i - 1]).ps()) * 1e-12;
          if (dt > 0) w.peak_bps = std::max(w.peak_bps, (store.row(i)[id] - store.row(i - 1)[id]) * 8 / dt);
        }
        break;
      }
      case Metric::kTxDiscards: has_discards[static_cast<size_t>(key.port)] = true; w.drop_packets = last[id]; break;
      case Metric::kQueueDroppedPackets: queue_drops[static_cast<size_t>(key.port)] += last[id]; break;
      case Metric::kQueueEcnMarked: w.ecn_marks += last[id]; break;
      case Metric::kPfcPauseDurationUs: w.pause_seconds += last[id] * 1e-6; break;
      case Metric::kPfcTxFrames: w.pfc_frames_tx += last[id]; break;
      case Metric::kQueueOccupancyBytes: {
        std::vector<double>& sum = occupancy[key.port];
        sum.resize(points, 0);
        for (size_t i = 0; i < points; ++i) sum[i] += store.row(i)[id];
        break;
      }
      default: break;
    }
  }
  for (size_t p = 0; p < windows.size(); ++p) {
    if (!has_discards[p]) windows[p].drop_packets = queue_drops[p];
  }
  for (const auto& [port, sum] : occupancy) {
    windows[static_cast<size_t>(port)].max_queue_bytes = *std::max_element(sum.begin(), sum.end());
  }
  return ObservationFromWindows(topology, windows);
}

std::vector<nlohmann::ordered_json> LiveFindings::Update(const LiveSample& sample) {
  const auto now = std::chrono::steady_clock::now();
  if (ran_ && now - last_ < every_) return {};
  ran_ = true;
  last_ = now;
  const nlohmann::ordered_json all =
      FindingsJson(sample.topology, Diagnose(sample.topology, ObservationSoFar(sample)));
  std::vector<nlohmann::ordered_json> fresh;
  for (const nlohmann::ordered_json& f : all["findings"]) {
    const std::string key = f["kind"].dump() + "|" + f["node"].dump() + "|" + f["port_peer"].dump();
    if (seen_.insert(key).second) fresh.push_back(f);
  }
  return fresh;
}

}  // namespace aifabric
