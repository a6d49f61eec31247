#include "api/run_observation.h"

#include <algorithm>

#include "flow/flow_network.h"

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
    const double rate = static_cast<double>(topology.port(key.port).rate.bps());
    const std::vector<double> util = UtilizationBetween(*store, static_cast<int>(id), rate);
    if (!util.empty()) peak[static_cast<size_t>(key.port)] = *std::max_element(util.begin(), util.end());
  }
  return peak;
}

}  // namespace

FabricObservation ObserveRun(const ScenarioRun& run) {
  const Topology& topology = run.topology();
  FabricObservation o;
  o.model = run.model_name();

  // Transfers: one per queue pair, with its path.
  Time first = Time::Infinite();
  Time last = Time::Zero();
  const auto owner_of = [&run](FlowId id) -> std::string {
    for (const WorkloadSlice& s : run.slices()) {
      if (static_cast<size_t>(id) >= s.first && static_cast<size_t>(id) < s.first + s.count) return s.kind;
    }
    return "";
  };
  const auto add = [&](const TransferRequest& r, Time start, Time finish, std::vector<PortId> path) {
    TransferObservation t;
    t.id = r.id;
    t.src = r.src;
    t.dst = r.dst;
    t.bytes = r.bytes;
    t.start = start;
    t.finish = finish;
    t.ideal = run.ideal_fct(r.id);
    t.path = std::move(path);
    t.owner = owner_of(r.id);
    first = std::min(first, start);
    last = std::max(last, finish.IsInfinite() ? run.sim_time() : finish);
    o.transfers.push_back(std::move(t));
  };
  if (const PacketNetwork* packet = run.packet_network()) {
    for (uint32_t i = 0; i < packet->flows().size(); ++i) {
      const FlowState& f = packet->flows()[i];
      add(f.request, f.start, f.finish, packet->path(i));
    }
  } else if (const FlowNetwork* flow = run.flow_network()) {
    for (uint32_t i = 0; i < flow->flows().size(); ++i) {
      const FlowNetwork::QueuePair& q = flow->flows()[i];
      const std::span<const PortId> path = flow->path(i);
      add(q.request, q.start, q.finish, std::vector<PortId>(path.begin(), path.end()));
    }
  } else {
    for (const FlowSpec& f : run.flows()) {
      TransferRequest r;
      r.id = f.id;
      r.src = f.src;
      r.dst = f.dst;
      r.bytes = f.bytes;
      add(r, f.start, run.finish(f.id), {});
    }
  }
  o.active_time = first.IsInfinite() || last < first ? Time::Zero() : last - first;

  // Ports.
  const std::vector<double> peak = PeakUtilization(topology, run.series());
  o.ports.reserve(topology.ports().size());
  for (const Port& port : topology.ports()) {
    const PortCounters c = run.LinkCounters(port.id);
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
    p.peak_utilization = peak[static_cast<size_t>(port.id)] >= 0 ? peak[static_cast<size_t>(port.id)] : p.utilization;
    o.ports.push_back(p);
  }
  return o;
}

}  // namespace aifabric
