// AnalyticNetwork is the alpha-beta model of the fabric (`--model
// analytic`): a transfer takes its path's latency (alpha, as the flow level
// computes it: cables, switches, one packet stored and forwarded per hop)
// plus bytes / B, where B is the path's bottleneck payload rate divided by
// the oversubscription of the highest tier the path climbs to (a
// topology-aware bottleneck factor: it assumes every host sends at once, as
// in a collective). Transfers do not interact otherwise, so the model costs
// one event per transfer: effectively instant. Paths are the ECMP paths the
// other models pick. Lives in one Simulator; not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "engine/simulator.h"
#include "fabric/network_model.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/flow_config.h"
#include "flow/flow_network.h"

namespace aifabric {

class AnalyticNetwork final : public NetworkModel, private EventHandler {
 public:
  // `topology` and `routes` outlive this.
  AnalyticNetwork(Simulator& sim, const Topology& topology, const RoutingTable& routes, const FlowConfig& config);

  void StartTransfer(const TransferRequest& request) override;
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }
  const char* name() const override { return "analytic"; }
  // A coflow takes CoflowRequest's time with D the longest of its edges'
  // stretched bandwidth terms (its chain: the request's plus each edge's
  // weight x its path latency).
  bool SupportsCoflows() const override { return true; }
  Status StartCoflow(const CoflowRequest& request) override;

  // The time `request` takes: alpha + bytes / B (see above).
  Time TransferTime(const TransferRequest& request) const {
    return TimeOnPath(paths_.RoutePath(request), request.bytes);
  }
  // The same without the oversubscription factor: alone on an idle fabric.
  Time IdealFct(const TransferRequest& request) const { return paths_.IdealFct(request); }
  // Payload bytes each port carried (the transfers that crossed it).
  double bytes_carried(PortId port) const { return carried_[static_cast<size_t>(port)]; }

 private:
  Time TimeOnPath(std::span<const PortId> path, uint64_t bytes) const;
  // bytes / B of the header comment: the bandwidth term alone.
  Time StretchedPayloadTime(std::span<const PortId> path, uint64_t bytes) const;
  // Schedules the observer's call for `id` after `duration`.
  void CompleteIn(FlowId id, Time duration);
  void OnEvent(uint64_t tag) override;  // tag: index into pending_

  Simulator& sim_;
  const Topology& topology_;
  const FlowNetwork paths_;             // for paths, latencies and IdealFct; never started
  std::vector<double> tier_factor_;     // [tier]: max oversubscription of the tiers below it
  std::vector<double> carried_;
  std::vector<FlowId> pending_;         // completions in flight, by event tag
  std::vector<uint32_t> free_slots_;
  TransferObserver* observer_ = nullptr;
};

}  // namespace aifabric
