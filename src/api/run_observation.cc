#include "api/run_observation.h"

#include <algorithm>
#include <cmath>

#include "api/telemetry_outputs.h"
#include "flow/analytic_network.h"

namespace aifabric {
namespace {

// Peak utilization of every port over one kept sampling interval, from the
// kTxBytes series (-1 for ports without one).
std::vector<double> PeakUtilization(const Topology& topology, const TimeSeriesStore* store) {
  std::vector<double> peak(topology.ports().size(), -1.0);
  if (store == nullptr || store->points() < 2) return peak;
  for (size_t id = 0; id < store->series(); ++id) {
    const SeriesKey& key = store->key(static_cast<int>(id));
    if (key.metric != Metric::kTxBytes || key.port < 0) continue;
    const std::vector<double> util = SampledUtilization(*store, static_cast<int>(id), topology.port(key.port).rate);
    if (!util.empty()) peak[static_cast<size_t>(key.port)] = *std::max_element(util.begin(), util.end());
  }
  return peak;
}

TransferObservation Observed(const TransferRequest& r, Time start, Time finish, std::vector<PortId> path) {
  TransferObservation t;
  t.id = r.id;
  t.src = r.src;
  t.dst = r.dst;
  t.bytes = r.bytes;
  t.start = start;
  t.finish = finish;
  t.path = std::move(path);
  return t;
}

// The ports, from the model's counters, utilization over the active time.
void ObservePorts(const NetworkView& v, FabricObservation& o) {
  const Topology& topology = *v.topology;
  const std::vector<double> peak = PeakUtilization(topology, v.series);
  o.ports.reserve(topology.ports().size());
  for (const Port& port : topology.ports()) {
    const PortCounters c = PortCountersOf(port.id, v.packet, v.flow, v.analytic, v.mtu_bytes, v.wire_overhead_bytes);
    PortObservation p;
    p.port = port.id;
    p.tx_bytes = c.tx_bytes;
    p.drop_packets = c.drop_packets;
    p.ecn_marks = c.ecn_marks;
    p.pause_time = Time::FromPs(static_cast<int64_t>(c.pfc_pause_ps));
    p.pfc_frames_tx = c.pfc_frames_tx;
    p.max_queue_bytes = c.max_queue_bytes;
    if (o.active_time > Time::Zero()) {
      p.utilization = static_cast<double>(c.tx_bytes) * 8 /
                      (static_cast<double>(port.rate.bps()) * static_cast<double>(o.active_time.ps()) * 1e-12);
    }
    const double sampled = peak[static_cast<size_t>(port.id)];
    p.peak_utilization = sampled >= 0 ? sampled : p.utilization;
    o.ports.push_back(p);
  }
}

void SetActiveTime(FabricObservation& o, Time end) {
  Time first = Time::Infinite();
  Time last = Time::Zero();
  for (const TransferObservation& t : o.transfers) {
    first = std::min(first, t.start);
    last = std::max(last, t.finish.IsInfinite() ? end : t.finish);
  }
  o.active_time = first.IsInfinite() || last < first ? Time::Zero() : last - first;
}

}  // namespace

PortCounters PortCountersOf(PortId port, const PacketNetwork* packet, const FlowNetwork* flow,
                            const AnalyticNetwork* analytic, uint32_t mtu_bytes, uint32_t wire_overhead_bytes) {
  if (packet != nullptr) return packet->egress(port).counters();
  PortCounters c;
  const double payload = flow != nullptr ? flow->bytes_carried(port) : analytic->bytes_carried(port);
  c.tx_payload_bytes = static_cast<uint64_t>(payload + 0.5);
  c.tx_packets = static_cast<uint64_t>(std::ceil(payload / mtu_bytes));
  c.tx_bytes = c.tx_payload_bytes + c.tx_packets * wire_overhead_bytes;
  return c;
}

FabricObservation ObserveNetwork(const NetworkView& v) {
  FabricObservation o;
  o.model = v.packet ? "packet" : v.flow ? "flow" : "analytic";
  if (v.packet != nullptr) {
    for (uint32_t i = 0; i < v.packet->flows().size(); ++i) {
      const FlowState& f = v.packet->flows()[i];
      o.transfers.push_back(Observed(f.request, f.start, f.finish, v.packet->path(i)));
      o.transfers.back().ideal = v.packet->IdealFct(f.request);
    }
  } else if (v.flow != nullptr) {
    for (uint32_t i = 0; i < v.flow->flows().size(); ++i) {
      const FlowNetwork::QueuePair& q = v.flow->flows()[i];
      const std::span<const PortId> path = v.flow->path(i);
      o.transfers.push_back(Observed(q.request, q.start, q.finish, std::vector<PortId>(path.begin(), path.end())));
      o.transfers.back().ideal = v.flow->IdealFct(q.request);
    }
  }
  SetActiveTime(o, v.end);
  ObservePorts(v, o);
  if (v.packet != nullptr) o.pause_causes = v.packet->pause_causes();
  return o;
}

FabricObservation ObserveRun(const ScenarioRun& run) {
  NetworkView v;
  v.topology = &run.topology();
  v.packet = run.packet_network();
  v.flow = run.flow_network();
  v.analytic = run.analytic_network();
  v.series = run.series();
  v.mtu_bytes = run.scenario().packet.mtu_bytes;
  v.wire_overhead_bytes = run.scenario().packet.wire_overhead_bytes;
  v.end = run.sim_time();
  FabricObservation o = ObserveNetwork(v);
  if (v.analytic != nullptr) {  // no queue pairs: the run's flows, without paths
    for (const FlowSpec& f : run.flows()) {
      TransferRequest r;
      r.id = f.id;
      r.src = f.src;
      r.dst = f.dst;
      r.bytes = f.bytes;
      o.transfers.push_back(Observed(r, f.start, run.finish(f.id), {}));
    }
    SetActiveTime(o, v.end);
    o.ports.clear();
    ObservePorts(v, o);  // utilization over the active time just found
  }
  // The run knows each flow's workload entry and its ideal FCT as a whole
  // transfer (its queue pairs share it).
  for (TransferObservation& t : o.transfers) {
    t.ideal = run.ideal_fct(t.id);
    for (const WorkloadSlice& s : run.slices()) {
      if (static_cast<size_t>(t.id) >= s.first && static_cast<size_t>(t.id) < s.first + s.count) t.owner = s.kind;
    }
  }
  return o;
}

}  // namespace aifabric
