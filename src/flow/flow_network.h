// FlowNetwork is the flow-level NetworkModel: every directed link (port) is
// a resource whose capacity is its payload rate, rate * mtu / (mtu +
// overhead), and every transfer is a fluid over the ports of its ECMP path
// (FluidNetwork: weighted max-min fair rates, re-solved once per instant
// with a start or a finish). A transfer is done when its fluid has drained
// plus its path latency:
//   sum over hops of (cable latency + the latency of the switch it enters)
//   + store-and-forward of the first packet: its serialization at every
//     hop's rate, less the one at the path's bottleneck rate (the fluid
//     already counts that one),
// where the first packet is min(bytes, mtu) + overhead wire bytes. That is
// the packet model's pipeline: one full packet per switch hop at the rate of
// the link leaving it when the first link is the bottleneck, and for
// messages of whole packets alone on an idle path the flow model's FCT
// equals PacketNetwork::IdealFct.
//
// Paths are the packet model's (fabric/ecmp_path.h): same 5-tuple hash,
// per-switch salt and queue-pair split, so both models route every flow
// identically. With FlowConfig::balancing spray or adaptive, a queue pair
// is one fluid over every port of its shortest paths instead, each at the
// fraction of it that crosses there (PathSplitter, flow/path_split.h), its
// latency that of the path its hash selects. With FlowConfig::dcqcn every
// queue pair runs DCQCN (FlowDcqcn, flow/flow_dcqcn.h): the packet level's
// reaction point, fed by ECN marks on a fluid queue per switch port and
// class, each queue pair's fluid capped at its DCQCN rate while it has no
// backlog; without it, and for coflows, rates are the max-min shares. No
// drops, no PFC, no other congestion control: see docs/models.md. Link faults (InjectFaults) change port capacities and
// paths as flow/flow_faults.h says. Owns the fluid state; lives inside one Simulator; not
// thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/fabric_network.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/connection_table.h"
#include "flow/flow_config.h"
#include "flow/fluid_network.h"
#include "flow/path_split.h"

namespace aifabric {

class FlowDcqcn;
class FlowFaults;

class FlowNetwork final : public FabricNetwork {
 public:
  // One queue pair of a transfer (a whole transfer unless
  // FlowConfig::qps_per_transfer > 1): the fluid unit.
  struct QueuePair {
    TransferRequest request;  // its share of the transfer, its source port
    uint32_t transfer = 0;    // index of the transfer it belongs to
    uint32_t path_offset = 0;
    uint32_t path_length = 0;
    uint32_t hash = 0;        // its 5-tuple's FlowHash (the ECMP entropy)
    Time latency;             // path latency added after the fluid drains
    Time start;
    Time finish = Time::Infinite();  // when its last payload byte arrived
    bool done() const { return !finish.IsInfinite(); }
  };

  // The topology and routes must outlive the network.
  FlowNetwork(Simulator& sim, const Topology& topology, const RoutingTable& routes, const FlowConfig& config);
  ~FlowNetwork() override;
  FlowNetwork(const FlowNetwork&) = delete;
  FlowNetwork& operator=(const FlowNetwork&) = delete;

  // NetworkModel. REQUIRES: src != dst, both hosts, dst reachable; bytes > 0.
  void StartTransfer(const TransferRequest& request) override;
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }
  // A coflow is one fluid over the union of its edges' ECMP paths, each
  // port at coefficient (bytes of the edges crossing it) / (the largest
  // edge's bytes); it is one flow of its priority's class. Its chain adds each
  // edge's weight x its path latency (PathLatency). An edge is a
  // connection: with qps_per_transfer > 1 it is split over that many queue
  // pairs as a transfer is (SplitIntoQueuePairs), each on its own path,
  // its weight shared among them. Edges of zero bytes
  // only add latency. The routed form of the last coflows is kept, so a
  // coflow equal to one of them (a communicator's next bucket) is not
  // routed again.
  bool SupportsCoflows() const override { return true; }
  Status StartCoflow(const CoflowRequest& request) override;
  // Coflows started so far.
  size_t coflows() const { return coflows_.size(); }

  // Results, valid during and after the run, one entry per queue pair in
  // start order (as PacketNetwork::flows()).
  const std::vector<QueuePair>& flows() const { return flows_; }
  // The ports a queue pair crosses, source to destination (spread over
  // several paths: every port of them, nearest the source first).
  std::span<const PortId> path(uint32_t flow_index) const;
  // The fraction of the queue pair crossing each port of path(): all 1 but
  // for spray and adaptive.
  std::vector<double> path_fractions(uint32_t flow_index) const;
  // Current payload rate of an unfinished queue pair in bit/s (0 once done).
  // Solves first if starts at this instant are pending.
  double rate_bps(uint32_t flow_index) { return fluid_.rate_bps(flow_index); }
  // Payload bytes that have crossed a port up to now. Linear in the active
  // queue pairs.
  double bytes_carried(PortId port) const { return fluid_.bytes_carried(port); }
  // Payload bytes carried by every port (out[port]), in one pass.
  void BytesCarried(std::span<double> out) const { fluid_.BytesCarried(out); }
  // A port's capacity for payload, bit/s.
  double payload_capacity_bps(PortId port) const;
  // Rate solves so far (one per instant with a start or a finish, or a
  // DCQCN step that changed a rate).
  uint64_t solves() const { return fluid_.solves(); }
  // DCQCN at flow level (null unless FlowConfig::dcqcn).
  const FlowDcqcn* dcqcn() const { return dcqcn_.get(); }

  // FabricNetwork.
  ModelKind kind() const override { return ModelKind::kFlow; }
  // Link faults (flow/flow_faults.h). Refuses a second call.
  Status InjectFaults(std::span<const LinkFault> faults, RouteBuilder rebuild = {}) override;
  std::vector<FaultOutcome> FaultOutcomes() const override;
  // Alone on an idle fabric along the path its ECMP hash selects: its path
  // latency + ceil(bytes * 8 / bottleneck payload rate) ps. What this model
  // gives such a transfer, to the picosecond.
  Time IdealFct(const TransferRequest& request) const override;
  PortCounters LinkCounters(PortId port) const override { return FluidPortCounters(bytes_carried(port), config_); }
  NetworkTotals RunTotals() const override;
  size_t TransfersCompleted() const override;
  void Observe(FabricObservation& observation) const override;
  const FlowConfig& config() const { return config_; }
  // --- Used by FlowFaults -------------------------------------------------
  Simulator& sim() { return sim_; }
  const Topology& topology() const { return topology_; }
  const RoutingTable& base_routes() const { return routes_; }
  // The port carries payload at `rate` (0: nothing) from now: its
  // capacity, and the packet time of paths taken from now.
  void SetPortRate(PortId port, DataRate rate);
  // Every fluid crossing a port of `ports` loses what is on its wire there
  // now and must carry it again (FlowFaults: rate x (cable + one full
  // packet) per port); returns the payload bytes lost.
  double LoseInFlight(std::span<const PortId> ports);
  // Whether routing moves fluids at a link's change itself (adaptive), not
  // at its detection.
  bool ReroutesAtOnce() const { return config_.balancing == FlowBalancing::kAdaptive; }
  // New queue pairs and coflows take `routes` from now; the unfinished ones
  // crossing a link with avoid[link] != 0 — and, when `restoring`, those
  // moved before — re-pick their paths (the source's own port stays).
  // Returns how many fluids changed path. REQUIRES: `routes` outlives its use.
  uint64_t Reroute(const RoutingTable& routes, std::span<const uint8_t> avoid, bool restoring);

  // Its parts: the ports its ECMP hash selects (`request` with its source
  // port filled in, as WithSourcePort does), the path latency for a message
  // of `bytes`, and ceil(bytes * 8 / bottleneck payload rate) ps.
  std::vector<PortId> RoutePath(const TransferRequest& request) const;
  Time PathLatency(std::span<const PortId> path, uint64_t bytes) const;
  Time PayloadTime(std::span<const PortId> path, uint64_t bytes) const;

 private:
  void StartQueuePair(const TransferRequest& request, uint32_t transfer);
  // StartQueuePair for spray and adaptive: the ports of every shortest
  // path, with fractions (share_arena_ beside path_arena_).
  void StartSpreadQueuePair(QueuePair& qp);
  bool spread() const { return config_.balancing != FlowBalancing::kEcmp; }
  // The ideal payload time of a spread transfer (its split on the idle fabric).
  Time SpreadPayloadTime(const TransferRequest& request) const;
  // The path of a connection (`request` with its source port, `hash` its
  // FlowHash) some queue pair already took, if any.
  std::optional<std::span<const PortId>> KnownPath(const TransferRequest& request, uint32_t hash) const;
  static uint64_t ConnectionKey(const TransferRequest& request, uint32_t hash);
  void OnQueuePairDone(uint32_t flow_index, Time finish);
  // A fluid id with this bit set is a coflow (the rest: its index).
  static constexpr uint64_t kCoflowBit = 1ull << 63;

  // Fixed at construction.
  Simulator& sim_;
  const Topology& topology_;
  const RoutingTable& routes_;
  const FlowConfig config_;
  const std::vector<uint64_t> salts_;   // per node: ECMP hash salt
  // Per port, for PathLatency: its propagation plus the latency of the
  // switch it leads into, and the time a full packet (MTU + overhead)
  // takes to serialize on it.
  std::vector<Time> hop_latency_;
  std::vector<Time> full_packet_time_;

  FluidNetwork fluid_;  // resource id == PortId
  struct Transfer {
    FlowId id;
    uint32_t open_queue_pairs;
    uint64_t bytes;
  };
  std::vector<Transfer> transfers_;
  PayloadTotals payload_;           // of the transfers started and finished
  std::vector<QueuePair> flows_;
  std::vector<PortId> path_arena_;  // every distinct connection's path, back to back
  ConnectionTable paths_;           // connection key -> a queue pair that has its path
  std::vector<int> resources_;      // scratch: a path as resource ids
  // Spray and adaptive (spread()): the fractions beside path_arena_, the
  // load each port carries in queue pairs (adaptive: what the split evens
  // out), and scratch.
  mutable PathSplitter splitter_;
  std::vector<double> share_arena_;
  std::vector<double> offered_;
  mutable std::vector<PortShare> split_;
  std::vector<PortId> ecmp_scratch_;
  std::vector<double> coflow_dense_, coflow_load_;
  std::vector<PortId> coflow_touched_;
  std::vector<FlowId> coflows_;     // by coflow index: the caller's id
  // A coflow's edges and priority, routed: its ports with coefficients,
  // reference bytes and chain latency from its paths.
  struct RoutedCoflow {
    std::vector<CoflowEdge> edges;
    uint8_t priority = 0;
    std::vector<int> resources;
    std::vector<double> coefficients;
    uint64_t reference = 0;
    double path_chain_ps = 0;
  };
  const RoutedCoflow& Route(const CoflowRequest& request);
  // Route's ports and coefficients when spread: every edge's split, the
  // adaptive one evening out the load of the coflow's own edges.
  void RouteSpread(const CoflowRequest& request, RoutedCoflow& r);
  std::unordered_map<uint64_t, RoutedCoflow> routed_;  // by a hash of the edges
  TransferObserver* observer_ = nullptr;
  // Faults (null without): the routes new paths take, the coflows still
  // draining (to route again), and which fluids a fault moved.
  const RoutingTable* active_routes_;
  std::unique_ptr<FlowFaults> faults_;
  // DCQCN (FlowConfig::dcqcn; null without): every queue pair's reaction
  // point, the fluid queues and their marks.
  std::unique_ptr<FlowDcqcn> dcqcn_;
  std::unordered_map<uint64_t, CoflowRequest> live_coflows_;  // by coflow index, only with faults
  std::vector<uint8_t> moved_;                                 // by queue pair
  std::unordered_map<uint64_t, uint8_t> coflow_moved_;         // by coflow index
  // The routes a path from src to host dst takes now: the active ones, or
  // the network's own where a fault cut the pair off (its fluid then
  // stalls on the old path until the repair).
  const RoutingTable& RoutesFor(NodeId src, NodeId dst) const {
    if (active_routes_ == &routes_) return routes_;  // no fault moved routes: no lookup
    return active_routes_->Distance(src, dst) > 0 ? *active_routes_ : routes_;
  }
  // PathSplitter::Split over RoutesFor(src, dst).
  void SplitNow(NodeId src, NodeId dst, std::span<const double> load, std::vector<PortShare>& out) const {
    splitter_.UseRoutes(RoutesFor(src, dst));
    splitter_.Split(src, dst, load, out);
  }
  // Reroute's part for one queue pair or coflow: its new route in `out`,
  // false if it keeps its own.
  bool RerouteQueuePair(uint32_t index, FluidNetwork::Revision& out);
  bool RerouteCoflow(uint64_t index, std::span<const int> resources, std::span<const double> coefficients,
                     FluidNetwork::Revision& out);
};

}  // namespace aifabric
