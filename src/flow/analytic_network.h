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
#include "fabric/fabric_network.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/flow_config.h"
#include "flow/flow_network.h"

namespace aifabric {

class AnalyticNetwork final : public FabricNetwork, private EventHandler {
 public:
  // `topology` and `routes` outlive this.
  AnalyticNetwork(Simulator& sim, const Topology& topology, const RoutingTable& routes, const FlowConfig& config);

  void StartTransfer(const TransferRequest& request) override;
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }
  // A coflow takes CoflowRequest's time with D the longest of its edges'
  // stretched bandwidth terms (its chain: the request's plus each edge's
  // weight x its path latency).
  bool SupportsCoflows() const override { return true; }
  Status StartCoflow(const CoflowRequest& request) override;

  // The time `request` takes: alpha + bytes / B (see above).
  Time TransferTime(const TransferRequest& request) const {
    return TimeOnPath(paths_.RoutePath(request), request.bytes);
  }
  // Payload bytes each port carried (the transfers that crossed it).
  double bytes_carried(PortId port) const { return carried_[static_cast<size_t>(port)]; }

  // FabricNetwork. IdealFct is TransferTime without the oversubscription
  // factor: alone on an idle fabric. It tracks no queue pairs: none
  // completes as far as TransfersCompleted is concerned.
  ModelKind kind() const override { return ModelKind::kAnalytic; }
  Time IdealFct(const TransferRequest& request) const override { return paths_.IdealFct(request); }
  PortCounters LinkCounters(PortId port) const override {
    return FluidPortCounters(bytes_carried(port), paths_.config());
  }
  NetworkTotals RunTotals() const override;
  size_t TransfersCompleted() const override { return 0; }
  void Observe(FabricObservation& observation) const override { observation.model = kind(); }

 private:
  Time TimeOnPath(std::span<const PortId> path, uint64_t bytes) const;
  // bytes / B of the header comment: the bandwidth term alone.
  Time StretchedPayloadTime(std::span<const PortId> path, uint64_t bytes) const;
  // Schedules the observer's call for `id` after `duration`; `bytes` are
  // delivered then (0 for a coflow: its bytes are no transfer's).
  void CompleteIn(FlowId id, uint64_t bytes, Time duration);
  void OnEvent(uint64_t tag) override;  // tag: index into pending_

  Simulator& sim_;
  const Topology& topology_;
  const FlowNetwork paths_;             // for paths, latencies and IdealFct; never started
  std::vector<double> tier_factor_;     // [tier]: max oversubscription of the tiers below it
  std::vector<double> carried_;
  struct Pending {
    FlowId id;
    uint64_t bytes;
  };
  std::vector<Pending> pending_;        // completions in flight, by event tag
  PayloadTotals payload_;               // of the transfers started and finished
  std::vector<uint32_t> free_slots_;
  TransferObserver* observer_ = nullptr;
};

}  // namespace aifabric
