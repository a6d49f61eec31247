#include "observe/counter_observation.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace aifabric {
namespace {

uint64_t Count(double value) { return value > 0 ? static_cast<uint64_t>(std::llround(value)) : 0; }

}  // namespace

FabricObservation ObservationFromWindows(const Topology& topology, const std::vector<PortWindow>& windows) {
  assert(windows.size() == topology.ports().size());
  FabricObservation o;
  double active_s = 0;
  for (const PortWindow& w : windows) active_s = std::max(active_s, w.seconds);
  o.active_time = Time::FromSeconds(active_s);
  o.ports.reserve(windows.size());
  for (const Port& port : topology.ports()) {
    const PortWindow& w = windows[static_cast<size_t>(port.id)];
    PortObservation p;
    p.port = port.id;
    p.tx_bytes = Count(w.tx_bytes);
    // Corrupted frames count among the port's losses (PortObservation).
    p.fcs_error_packets = Count(w.fcs_error_packets);
    p.drop_packets = Count(w.drop_packets) + p.fcs_error_packets;
    p.ecn_marks = Count(w.ecn_marks);
    p.pause_time = Time::FromSeconds(std::max(0.0, w.pause_seconds));
    p.pfc_frames_tx = Count(w.pfc_frames_tx);
    p.max_queue_bytes = Count(w.max_queue_bytes);
    const double line_bps = static_cast<double>(port.rate.bps());
    if (w.seconds > 0 && line_bps > 0) p.utilization = w.tx_bytes * 8 / (line_bps * w.seconds);
    p.peak_utilization = line_bps > 0 ? std::min(1.0, w.peak_bps / line_bps) : 0;
    p.peak_utilization = std::max(p.peak_utilization, std::min(1.0, p.utilization));
    o.ports.push_back(p);
  }
  o.pause_causes = InferPauseCauses(topology, o);
  return o;
}

std::vector<PauseCause> InferPauseCauses(const Topology& topology, const FabricObservation& observation) {
  std::vector<PauseCause> causes;
  for (const PortObservation& sent : observation.ports) {
    if (sent.pfc_frames_tx == 0) continue;
    const Port& link = topology.port(sent.port);  // S -> U: S paused U's egress toward it
    PortId best = kNoPort;
    for (PortId candidate : topology.node(link.node).ports) {
      if (candidate == sent.port) continue;
      const PortObservation& c = observation.ports[static_cast<size_t>(candidate)];
      if (c.max_queue_bytes == 0 && c.utilization <= 0) continue;
      if (best == kNoPort) {
        best = candidate;
        continue;
      }
      const PortObservation& b = observation.ports[static_cast<size_t>(best)];
      if (c.max_queue_bytes != b.max_queue_bytes ? c.max_queue_bytes > b.max_queue_bytes
                                                 : c.utilization > b.utilization) {
        best = candidate;
      }
    }
    if (best != kNoPort) causes.push_back(PauseCause{link.reverse(), best, sent.pfc_frames_tx});
  }
  std::sort(causes.begin(), causes.end(), [](const PauseCause& a, const PauseCause& b) { return a.paused < b.paused; });
  return causes;
}

}  // namespace aifabric
