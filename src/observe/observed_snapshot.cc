#include "observe/observed_snapshot.h"

#include <algorithm>
#include <vector>

namespace aifabric {

nlohmann::ordered_json ObservedSnapshotJson(const Topology& topology, const FabricReading& reading, int pass,
                                            Time window, Time elapsed, size_t max_ports) {
  std::vector<const PortObservation*> ranked;
  double max_util = 0;
  for (const PortObservation& p : reading.observation.ports) {
    if (!reading.windows[static_cast<size_t>(p.port)].seen) continue;
    ranked.push_back(&p);
    max_util = std::max(max_util, p.utilization);
  }
  const size_t total = ranked.size();
  std::stable_sort(ranked.begin(), ranked.end(), [](const PortObservation* a, const PortObservation* b) {
    if (a->utilization != b->utilization) return a->utilization > b->utilization;
    if (a->max_queue_bytes != b->max_queue_bytes) return a->max_queue_bytes > b->max_queue_bytes;
    return a->port < b->port;
  });
  if (ranked.size() > max_ports) ranked.resize(max_ports);
  nlohmann::ordered_json ports = nlohmann::ordered_json::array();
  for (const PortObservation* p : ranked) {
    const Port& port = topology.port(p->port);
    const double rate_bps = static_cast<double>(port.rate.bps());
    const double queue_bytes = static_cast<double>(p->max_queue_bytes);
    ports.push_back({{"node", topology.node(port.node).name},
                     {"port", topology.node(port.peer).name},
                     {"util", p->utilization},
                     {"queue_bytes", queue_bytes},
                     {"queue_delay_ns", rate_bps > 0 ? queue_bytes * 8 / rate_bps * 1e9 : 0.0},
                     {"drops", static_cast<double>(p->drop_packets)},
                     {"ecn_marks", static_cast<double>(p->ecn_marks)},
                     {"pfc_pause_ns", static_cast<double>(p->pause_time.ps()) * 1e-3}});
  }
  nlohmann::ordered_json out;
  out["sim_time_ns"] = elapsed.ns();
  out["transfers_completed"] = 0;
  out["max_util"] = max_util;
  out["ports_total"] = total;
  out["pass"] = pass;
  out["window_s"] = static_cast<double>(window.ps()) * 1e-12;
  out["ports"] = std::move(ports);
  return out;
}

}  // namespace aifabric
