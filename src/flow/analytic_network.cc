#include "flow/analytic_network.h"

#include <algorithm>
#include <cmath>

#include "fabric/topology_report.h"

namespace aifabric {

AnalyticNetwork::AnalyticNetwork(Simulator& sim, const Topology& topology, const RoutingTable& routes,
                                 const FlowConfig& config)
    : sim_(sim), topology_(topology), paths_(sim, topology, routes, config), carried_(topology.ports().size(), 0.0) {
  // A path that climbs to tier T crosses the uplinks of tiers 1..T-1; its
  // factor is the worst oversubscription among them (at least 1).
  const TopologyReport report = MakeTopologyReport(topology);
  tier_factor_.assign(report.tiers.size() + 2, 1.0);
  double worst = 1.0;
  for (size_t t = 0; t < report.tiers.size(); ++t) {
    tier_factor_[t + 1] = worst;  // reaching tier t + 1 crossed tiers 1..t
    if (report.tiers[t].has_uplinks) worst = std::max(worst, report.tiers[t].oversubscription);
  }
  tier_factor_.back() = worst;
}

Time AnalyticNetwork::StretchedPayloadTime(std::span<const PortId> path, uint64_t bytes) const {
  int top_tier = 0;
  for (PortId id : path) top_tier = std::max(top_tier, topology_.node(topology_.port(id).peer).tier);
  const double factor =
      tier_factor_[static_cast<size_t>(std::clamp<int>(top_tier, 0, static_cast<int>(tier_factor_.size()) - 1))];
  const Time beta = paths_.PayloadTime(path, bytes);
  return Time::FromPs(static_cast<int64_t>(std::ceil(static_cast<double>(beta.ps()) * factor)));
}

Time AnalyticNetwork::TimeOnPath(std::span<const PortId> path, uint64_t bytes) const {
  // The idle path's latency, then its bandwidth term stretched by the factor.
  return paths_.PathLatency(path, bytes) + StretchedPayloadTime(path, bytes);
}

void AnalyticNetwork::StartTransfer(const TransferRequest& request) {
  const std::vector<PortId> path = paths_.RoutePath(request);
  for (PortId id : path) carried_[static_cast<size_t>(id)] += static_cast<double>(request.bytes);
  payload_.sent += request.bytes;
  CompleteIn(request.id, request.bytes, TimeOnPath(path, request.bytes));
}

Status AnalyticNetwork::StartCoflow(const CoflowRequest& request) {
  double chain_ps = static_cast<double>(request.timing.chain.ps());
  Time longest;
  for (const CoflowEdge& e : request.edges) {
    const std::vector<PortId> path = paths_.RoutePath(EdgeAsTransfer(e, request.priority));
    chain_ps += e.latency_weight * static_cast<double>(paths_.PathLatency(path, std::max<uint64_t>(e.bytes, 1)).ps());
    if (e.bytes == 0) continue;
    for (PortId id : path) carried_[static_cast<size_t>(id)] += static_cast<double>(e.bytes);
    longest = Max(longest, StretchedPayloadTime(path, e.bytes));
  }
  const double d = static_cast<double>(longest.ps());
  const double chain_bound = chain_ps + request.timing.depth * d;
  const double fill_bound = (1 + request.timing.fill_depth) * d + static_cast<double>(request.timing.fill.ps());
  CompleteIn(request.id, 0,
             Time::FromPs(static_cast<int64_t>(std::llround(std::max(chain_bound, fill_bound)))) + request.timing.latency);
  return Status::Ok();
}

void AnalyticNetwork::CompleteIn(FlowId id, uint64_t bytes, Time duration) {
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
    pending_[slot] = Pending{id, bytes};
  } else {
    slot = static_cast<uint32_t>(pending_.size());
    pending_.push_back(Pending{id, bytes});
  }
  sim_.ScheduleIn(duration, this, slot);
}

void AnalyticNetwork::OnEvent(uint64_t tag) {
  const Pending done = pending_[tag];
  free_slots_.push_back(static_cast<uint32_t>(tag));
  payload_.delivered += done.bytes;
  if (observer_ != nullptr) observer_->OnTransferDone(done.id, sim_.Now());
}

NetworkTotals AnalyticNetwork::RunTotals() const {
  NetworkTotals t;
  t.payload = payload_;
  t.payload.in_flight = payload_.sent - payload_.delivered;
  return t;
}

}  // namespace aifabric
