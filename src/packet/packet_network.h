// PacketNetwork is the packet-level NetworkModel: every directed link is an
// EgressPort, every switch a SwitchNode with a shared buffer, PFC and ECMP
// forwarding, every host a HostNic that segments messages into MTU packets.
// A Transport (src/transport), when given, makes each flow's sender and
// receiver (RDMA reliable connection, congestion control); the network is
// their TransportHost. It owns all of them, the packet pool and the per-flow
// state, and is the one place the workload talks to (through NetworkModel).
// Not thread-safe; lives inside one Simulator.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/ecmp_path.h"
#include "fabric/fabric_network.h"
#include "fabric/fabric_observation.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/egress_port.h"
#include "packet/flow_state.h"
#include "packet/packet.h"
#include "packet/packet_config.h"
#include "fabric/port_counters.h"
#include "packet/transport_hooks.h"

namespace aifabric {

class HostNic;
class PacketFaults;
class SwitchNode;

class PacketNetwork final : public FabricNetwork, public TransportHost, private EventHandler {
 public:
  // The topology, routes and transport must outlive the network. Without a
  // transport, messages go out once at line rate and nothing comes back.
  PacketNetwork(Simulator& sim, const Topology& topology, const RoutingTable& routes,
                const PacketConfig& config, Transport* transport = nullptr);
  ~PacketNetwork() override;
  PacketNetwork(const PacketNetwork&) = delete;
  PacketNetwork& operator=(const PacketNetwork&) = delete;

  // NetworkModel
  void StartTransfer(const TransferRequest& request) override;
  void SetObserver(TransferObserver* observer) override { observer_ = observer; }

  // FabricNetwork
  ModelKind kind() const override { return ModelKind::kPacket; }
  // Alone on an idle fabric along the path its ECMP hash selects: the first
  // packet crosses every hop (serialization at each hop's rate,
  // propagation, the next switch's latency), the remaining packets follow
  // at the bottleneck rate. Exact for store-and-forward when all packets
  // are full-sized; the last packet's size is taken as it is.
  Time IdealFct(const TransferRequest& request) const override;
  PortCounters LinkCounters(PortId port) const override { return egress(port).counters(); }
  // totals() with the transports' counters summed over the queue pairs.
  NetworkTotals RunTotals() const override;
  size_t TransfersCompleted() const override;
  void Observe(FabricObservation& observation) const override;
  // Closes time-based counters (PFC pause time) at the end of a run.
  void FinishRun(Time end) override;
  // Link faults (packet/packet_faults.h). Refuses a second call.
  Status InjectFaults(std::span<const LinkFault> faults, RouteBuilder rebuild = {}) override;
  std::vector<FaultOutcome> FaultOutcomes() const override;

  // Results, valid during and after the run: one FlowState per queue pair
  // (per transfer unless PacketConfig::qps_per_transfer > 1).
  const std::vector<FlowState>& flows() const { return flows_; }
  // The ports a flow's data packets take, source to destination (its cached
  // ECMP path; EcmpPath in fabric/ecmp_path.h chose it).
  std::vector<PortId> path(uint32_t flow_index) const;
  const EgressPort& egress(PortId id) const { return *ports_[id]; }
  // What arrived over the link of port `id` at `id`'s node, i.e. what its
  // peer's egress `id ^ 1` (the reverse port) sent: once the network has
  // drained, received(id ^ 1) matches egress(id)'s tx counters.
  const PortRxCounters& received(PortId id) const { return rx_[static_cast<size_t>(id)]; }
  // Every PFC pause frame a switch sent, by the port it paused (the
  // upstream egress toward the switch) and the switch egress that was its
  // cause: the one with the most bytes queued for the paused priority at
  // that instant (ties: the lowest port id; the packet whose admission
  // triggered the pause counts as queued at its egress). A frame sent while
  // no egress held bytes of that priority has cause kNoPort. Sorted by
  // (paused, cause).
  std::vector<PauseCause> pause_causes() const;
  // Peak shared-buffer occupancy of a switch (0 for hosts).
  uint64_t buffer_peak_bytes(NodeId id) const;
  PayloadTotals totals() const;
  // PFC deadlocks seen: times a cycle of ports, each paused while holding
  // lossless packets for the next, appeared (a persisting one counts once).
  uint64_t pfc_deadlocks() const { return pfc_deadlocks_; }
  size_t packets_in_use() const { return pool_.in_use(); }
  size_t packets_capacity() const { return pool_.capacity(); }

  // --- TransportHost -------------------------------------------------------
  Simulator& sim() override { return sim_; }
  void SendFeedback(uint32_t flow_index, PacketKind kind, uint64_t ack_offset,
                    const Packet* echo = nullptr) override;
  void WakeSender(uint32_t flow_index) override;
  TransportCounters& counters(uint32_t flow_index) override { return flows_[flow_index].transport; }

  // --- Used by HostNic and SwitchNode -------------------------------------
  const Topology& topology() const { return topology_; }
  // Index of a port among its node's ports.
  int LocalPortIndex(PortId id) const { return local_port_index_[id]; }
  PacketPool& pool() { return pool_; }
  const PacketConfig& config() const { return config_; }
  // The routes switches forward by now: the network's own, or those a
  // fault's routing update installed (UseRoutes).
  const RoutingTable& routes() const { return *active_routes_; }
  // routes(), or the network's own where a fault cut `src` off from `dst`
  // (a multi-homed NIC whose every link routing holds down).
  const RoutingTable& RoutesBetween(NodeId src, NodeId dst) const {
    return active_routes_->Distance(src, dst) > 0 ? *active_routes_ : routes_;
  }
  const RoutingTable& base_routes() const { return routes_; }
  EgressPort& port(PortId id) { return *ports_[id]; }
  FlowState& flow(uint32_t index) { return flows_[index]; }
  // Picks the ECMP next hop out of `node` toward `dst` for a hash.
  PortId NextHop(NodeId node, NodeId dst, uint32_t hash) const;
  // The port a packet takes at its current hop (its flow's cached path),
  // advancing it to the next hop.
  PortId TakeNextHop(Packet* p) const { return route_arena_[p->route_offset + p->hop++]; }
  // The destination host received a packet's payload.
  void OnDelivered(Packet* p);
  // A switch buffer refused a packet at egress port `at`.
  void OnDropped(Packet* p, EgressPort& at);
  // A switch sent a PAUSE: start looking for deadlocks while pauses last.
  void OnPauseSent();
  // A switch sent a PAUSE that paused `paused` because of its egress `cause`.
  void RecordPauseCause(PortId paused, PortId cause) { ++pause_causes_[{paused, cause}]; }
  // A node received a packet over p->in_port (switch ingress, host NIC).
  void CountReceived(const Packet* p) {
    PortRxCounters& rx = rx_[static_cast<size_t>(p->in_port)];
    rx.rx_packets++;
    rx.rx_bytes += p->wire_bytes;
  }
  // InfiniBand: the packet left the input buffer it arrived into (over
  // p->in_port); its credits travel back to the upstream port.
  void ReturnCredits(const Packet* p);
  bool credit_flow_control() const { return config_.kind == FabricKind::kIb; }
  // The queue (InfiniBand: the VL, by SL2VL) a packet of this priority uses.
  uint8_t QueueOf(uint8_t priority) const {
    return config_.kind == FabricKind::kIb ? config_.ib.sl2vl[priority] : priority;
  }
  // InfiniBand receive buffer per VL of the input port fed by `port`.
  uint64_t VlBufferBytes(const Port& port) const;

  // --- Used by PacketFaults -----------------------------------------------
  // Whether `link` carries nothing now (a fault holds it down).
  bool LinkDown(LinkId link) const;
  bool has_faults() const { return faults_ != nullptr; }
  // A fault destroyed `p` on the link `at` sends over: when `counted`, a
  // drop at `at` (a silent loss is in no port counter, only in its flow's
  // dropped payload, so payload conservation holds); InfiniBand, its
  // credits returned as the link's retrain would; freed.
  void OnFaultLoss(Packet* p, EgressPort& at, bool counted);
  // Switches forward by `routes` from now. REQUIRES: it outlives its use.
  void UseRoutes(const RoutingTable& routes) { active_routes_ = &routes; }
  // Gives the flows still sending whose data or feedback path crosses a
  // link with routed_down[link] != 0 — and, when `restoring`, those moved
  // before — the path their hash picks in routes(). Returns how many
  // changed path.
  uint64_t RerouteFlows(std::span<const uint8_t> routed_down, bool restoring);

 private:
  void StartQueuePair(const TransferRequest& request, uint32_t transfer);
  std::vector<PortId> PathPorts(const RoutingTable& routes, NodeId src, NodeId dst, uint32_t hash) const;
  // The ports of the route stored at `offset`, up to the one into `dst`.
  std::vector<PortId> StoredRoute(uint32_t offset, NodeId dst) const;
  // The deadlock check (EventHandler): returns whether any port is paused.
  void OnEvent(uint64_t tag) override;
  bool FindPauseCycle(bool& any_paused) const;
  uint32_t StoreRoute(const std::vector<PortId>& path);
  Time BaseRtt(const std::vector<PortId>& path, const std::vector<PortId>& reverse) const;

  // Fixed at construction.
  Simulator& sim_;
  const Topology& topology_;
  const RoutingTable& routes_;
  const PacketConfig config_;
  Transport* const transport_;
  std::vector<uint64_t> switch_salt_;   // per node: ECMP hash salt
  std::vector<int> local_port_index_;   // per port

  PacketPool pool_;
  // Per directed port, in one contiguous array (constructed in place, never
  // moved), so neighbouring ports share pages and cache lines.
  std::vector<std::optional<EgressPort>> ports_;
  // Per port, what arrived over its link (dense and apart from the ports,
  // so counting an arrival touches one small line, not the port).
  std::vector<PortRxCounters> rx_;
  // Pause frames by (paused port, cause port): rare, ordered for output.
  std::map<std::pair<PortId, PortId>, uint64_t> pause_causes_;
  std::vector<std::unique_ptr<HostNic>> hosts_;         // per node; null for switches
  std::vector<std::unique_ptr<SwitchNode>> switches_;   // per node; null for hosts
  // A transfer the workload asked for, carried by one or more queue pairs
  // (PacketConfig::qps_per_transfer), each a FlowState.
  struct Transfer {
    FlowId id;
    uint32_t open_queue_pairs;
  };
  std::vector<Transfer> transfers_;
  std::vector<FlowState> flows_;
  // Every flow's path, hop by hop: ECMP picks a path per flow (a pure
  // function of switch, destination and flow hash), so it is computed once
  // when the flow starts — with NextHop, exactly as a per-hop lookup would —
  // and packets carry an offset into it, as htsim's packets carry routes.
  std::vector<PortId> route_arena_;
  TransferObserver* observer_ = nullptr;
  const RoutingTable* active_routes_;       // routes() (faults may replace it)
  std::unique_ptr<PacketFaults> faults_;  // null without faults
  std::vector<uint8_t> moved_;            // per flow: a fault moved its path
  std::vector<std::vector<uint32_t>> left_routes_;  // per flow: route offsets of the paths moved off, in order
  bool deadlock_check_pending_ = false;
  bool in_deadlock_ = false;
  uint64_t pfc_deadlocks_ = 0;
};

}  // namespace aifabric
