#include "diagnosis/diagnosis_context.h"

#include <algorithm>
#include <cmath>

#include "fabric/host_distance.h"

namespace aifabric {
namespace {

// Tier of each node: 0 for hosts, the topology's for switches, or for a
// switch of unknown tier (-1) its hop distance from the nearest host.
std::vector<int> NodeTiers(const Topology& t) {
  const std::vector<int> distance = HostDistances(t);
  std::vector<int> tiers(t.num_nodes());
  for (const Node& n : t.nodes()) {
    tiers[n.id] = n.kind == NodeKind::kHost ? 0 : n.tier >= 0 ? n.tier : distance[n.id];
  }
  return tiers;
}

}  // namespace

double Round4(double x) { return std::round(x * 1e4) / 1e4; }

DiagnosisContext::DiagnosisContext(const Topology& topology, const FabricObservation& observation,
                                   const DiagnosisOptions& options)
    : topology_(topology),
      observation_(observation),
      options_(options),
      ports_(topology.ports().size()),
      transfers_on_(topology.ports().size()),
      tiers_(NodeTiers(topology)),
      pauses_(BuildPauseForest(topology.ports().size(), observation.pause_causes)) {
  for (size_t i = 0; i < observation.ports.size(); ++i) {
    const PortObservation& o = observation.ports[i];
    const PortId p = o.port == kNoPort ? static_cast<PortId>(i) : o.port;
    if (p >= 0 && static_cast<size_t>(p) < ports_.size()) ports_[p] = o;
  }
  for (PortId p = 0; static_cast<size_t>(p) < ports_.size(); ++p) ports_[p].port = p;
  for (size_t t = 0; t < observation.transfers.size(); ++t) {
    for (PortId p : observation.transfers[t].path) {
      if (p < 0 || static_cast<size_t>(p) >= ports_.size()) continue;
      std::vector<int>& on = transfers_on_[p];
      if (on.empty() || on.back() != static_cast<int>(t)) on.push_back(static_cast<int>(t));
    }
  }
}

std::vector<PortId> DiagnosisContext::Uplinks(NodeId n) const {
  std::vector<PortId> up;
  if (IsHost(n)) return up;
  for (PortId p : topology_.node(n).ports) {
    if (tiers_[topology_.port(p).peer] > tiers_[n]) up.push_back(p);
  }
  std::sort(up.begin(), up.end());
  return up;
}

double DiagnosisContext::PausedShare(PortId p) const {
  const Time active = observation_.active_time;
  if (active.ps() <= 0) return 0;
  return std::min(1.0, static_cast<double>(ports_[p].pause_time.ps()) / static_cast<double>(active.ps()));
}

nlohmann::ordered_json DiagnosisContext::PortName(PortId p) const {
  const Port& port = topology_.port(p);
  return {{"node", topology_.node(port.node).name}, {"port_peer", topology_.node(port.peer).name}};
}

Finding DiagnosisContext::MakeFinding(const char* kind, PortId p, double severity) const {
  const Port& port = topology_.port(p);
  Finding f;
  f.kind = kind;
  f.node = port.node;
  f.port = p;
  f.port_peer = port.peer;
  f.severity = std::clamp(severity, 0.0, 1.0);
  return f;
}

nlohmann::ordered_json DiagnosisContext::PortCounters(PortId p) const {
  const Port& port = topology_.port(p);
  const PortObservation& o = ports_[p];
  nlohmann::ordered_json f = nlohmann::ordered_json::object();
  f["utilization"] = Round4(o.utilization);
  f["peak_utilization"] = Round4(o.peak_utilization);
  f["rate_gbps"] = Round4(port.rate.gbps());
  f["tx_bytes"] = o.tx_bytes;
  f["max_queue_bytes"] = o.max_queue_bytes;
  f["drop_packets"] = o.drop_packets;
  f["ecn_marks"] = o.ecn_marks;
  f["pause_time_ns"] = o.pause_time.ns();
  f["pfc_frames_tx"] = o.pfc_frames_tx;
  if (o.fcs_error_packets > 0) f["fcs_error_packets"] = o.fcs_error_packets;
  return f;
}

void DiagnosisContext::SetAffected(Finding& finding, std::vector<int> transfer_indices) const {
  std::vector<FlowId> ids;
  std::vector<std::string> owners;
  ids.reserve(transfer_indices.size());
  for (int t : transfer_indices) {
    const TransferObservation& tr = observation_.transfers[t];
    ids.push_back(tr.id);
    if (!tr.owner.empty()) owners.push_back(tr.owner);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  finding.evidence["flows_total"] = ids.size();
  if (ids.size() > options_.max_flows) ids.resize(options_.max_flows);
  finding.flows = std::move(ids);
  finding.owners = std::move(owners);
}

}  // namespace aifabric
