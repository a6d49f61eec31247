#include "report/live_snapshot.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "report/telemetry_outputs.h"

namespace aifabric {
namespace {

struct PortFigures {
  int port = -1;
  int node = -1;
  bool has_discards = false;
  double util = 0;
  double queue_bytes = 0;
  double drops = 0;        // egress discards
  double queue_drops = 0;  // sum of the queues' drops
  double ecn_marks = 0;
  double pfc_pause_us = 0;
};

// Nearest rank: the value at rank ceil(p * n) (1-based) of `sorted`.
double NearestRank(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const auto rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

nlohmann::ordered_json FlowLatencyJson(std::vector<double> latencies_ns) {
  std::sort(latencies_ns.begin(), latencies_ns.end());
  return {{"count", latencies_ns.size()},
          {"p50_ns", NearestRank(latencies_ns, 0.5)},
          {"p99_ns", NearestRank(latencies_ns, 0.99)},
          {"max_ns", latencies_ns.empty() ? 0.0 : latencies_ns.back()}};
}

}  // namespace

nlohmann::ordered_json LiveSnapshotJson(const LiveSample& sample, size_t max_ports) {
  const TimeSeriesStore& store = sample.store;
  const Topology& topology = sample.topology;
  const size_t points = store.points();
  std::map<int, PortFigures> by_port;
  if (points > 0) {
    const std::span<const double> last = store.row(points - 1);
    const double dt_s = points >= 2 ? static_cast<double>((store.times()[points - 1] - store.times()[points - 2]).ps()) * 1e-12 : 0;
    const std::span<const double> before = points >= 2 ? store.row(points - 2) : last;
    for (size_t id = 0; id < store.series(); ++id) {
      const SeriesKey& key = store.key(static_cast<int>(id));
      if (key.port < 0) continue;
      PortFigures& f = by_port[key.port];
      f.port = key.port;
      f.node = key.node;
      switch (key.metric) {
        case Metric::kTxBytes: {
          const double rate_bps = static_cast<double>(topology.port(key.port).rate.bps());
          if (dt_s > 0 && rate_bps > 0) f.util = (last[id] - before[id]) * 8 / (rate_bps * dt_s);
          break;
        }
        case Metric::kQueueOccupancyBytes: f.queue_bytes += last[id]; break;
        case Metric::kTxDiscards: f.has_discards = true; f.drops = last[id]; break;
        case Metric::kQueueDroppedPackets: f.queue_drops += last[id]; break;
        case Metric::kQueueEcnMarked: f.ecn_marks += last[id]; break;
        case Metric::kPfcPauseDurationUs: f.pfc_pause_us += last[id]; break;
        default: break;
      }
    }
  }
  std::vector<const PortFigures*> ranked;
  ranked.reserve(by_port.size());
  double max_util = 0;
  for (const auto& [port, f] : by_port) {
    ranked.push_back(&f);
    max_util = std::max(max_util, f.util);
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const PortFigures* a, const PortFigures* b) {
    if (a->util != b->util) return a->util > b->util;
    if (a->queue_bytes != b->queue_bytes) return a->queue_bytes > b->queue_bytes;
    return a->port < b->port;
  });
  if (ranked.size() > max_ports) ranked.resize(max_ports);
  nlohmann::ordered_json ports = nlohmann::ordered_json::array();
  for (const PortFigures* f : ranked) {
    const double rate_bps = static_cast<double>(topology.port(f->port).rate.bps());
    ports.push_back({{"node", topology.node(f->node).name},
                     {"port", PortPeerName(topology, f->port)},
                     {"util", f->util},
                     {"queue_bytes", f->queue_bytes},
                     {"queue_delay_ns", rate_bps > 0 ? f->queue_bytes * 8 / rate_bps * 1e9 : 0.0},
                     {"drops", f->has_discards ? f->drops : f->queue_drops},
                     {"ecn_marks", f->ecn_marks},
                     {"pfc_pause_ns", f->pfc_pause_us * 1000}});
  }
  nlohmann::ordered_json out;
  out["sim_time_ns"] = points > 0 ? store.times()[points - 1].ns() : 0;
  out["transfers_completed"] = sample.transfers_completed;
  out["max_util"] = max_util;
  out["ports_total"] = by_port.size();
  out["flow_latency"] = FlowLatencyJson(sample.completion_ns);
  out["ports"] = std::move(ports);
  return out;
}

}  // namespace aifabric
