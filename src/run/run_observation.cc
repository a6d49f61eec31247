#include "run/run_observation.h"

#include <algorithm>

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

// The ports, from the model's counters, utilization over the active time.
void ObservePorts(const FabricSimulation& simulation, FabricObservation& o) {
  const Topology& topology = simulation.topology();
  const std::vector<double> peak = PeakUtilization(topology, simulation.series());
  o.ports.reserve(topology.ports().size());
  for (const Port& port : topology.ports()) {
    const PortCounters c = simulation.network().LinkCounters(port.id);
    PortObservation p;
    p.port = port.id;
    p.tx_bytes = c.tx_bytes;
    p.tx_packets = c.tx_packets;
    p.drop_packets = c.drop_packets;
    p.fcs_error_packets = c.fcs_error_packets;
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

std::vector<double> SampledUtilization(const TimeSeriesStore& store, int id, DataRate line_rate) {
  std::vector<double> util = UtilizationBetween(store, id, static_cast<double>(line_rate.bps()));
  for (double& u : util) u = std::min(u, 1.0);
  return util;
}

FabricObservation ObserveSimulation(const FabricSimulation& simulation, Time end) {
  FabricObservation o;
  simulation.network().Observe(o);
  SetActiveTime(o, end);
  ObservePorts(simulation, o);
  return o;
}

FabricObservation ObserveJob(const FinishedJob& job) {
  FabricObservation o = ObserveSimulation(job.simulation, job.simulation.sim().Now());
  o.ranks = job.result.ranks;
  return o;
}

FabricObservation ObserveRun(const ScenarioRun& run) {
  FabricObservation o = ObserveSimulation(run.simulation(), run.sim_time());
  if (o.transfers.empty()) {  // a model that tracks no queue pairs: the run's flows, without paths
    for (const FlowSpec& f : run.flows()) {
      o.transfers.push_back(TransferObservation{f.id, f.src, f.dst, f.bytes, f.start, run.finish(f.id), Time(), {}, ""});
    }
    SetActiveTime(o, run.sim_time());
    o.ports.clear();
    ObservePorts(run.simulation(), o);  // utilization over the active time just found
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
