#include "packet/packet_network.h"

#include <algorithm>
#include <cassert>

#include "packet/host_nic.h"
#include "packet/packet_faults.h"
#include "packet/switch_node.h"

namespace aifabric {
PacketNetwork::PacketNetwork(Simulator& sim, const Topology& topology, const RoutingTable& routes,
                             const PacketConfig& config, Transport* transport)
    : sim_(sim),
      topology_(topology),
      routes_(routes),
      config_(config),
      transport_(transport),
      pool_(config.int_telemetry),
      active_routes_(&routes) {
  const size_t n = topology.num_nodes();
  switch_salt_.resize(n);
  hosts_.resize(n);
  switches_.resize(n);
  local_port_index_.resize(topology.ports().size());
  for (const Node& node : topology.nodes()) {
    for (size_t i = 0; i < node.ports.size(); ++i) local_port_index_[node.ports[i]] = static_cast<int>(i);
  }
  for (const Node& node : topology.nodes()) {
    switch_salt_[node.id] = EcmpSalt(config.ecmp_seed, node.id);
    if (node.kind == NodeKind::kSwitch) {
      switches_[node.id] = std::make_unique<SwitchNode>(*this, topology, node.id, config_);
    } else {
      hosts_[node.id] = std::make_unique<HostNic>(*this, node.id, node.ports);
    }
  }
  ports_ = std::vector<std::optional<EgressPort>>(topology.ports().size());
  rx_.resize(topology.ports().size());
  for (const Port& port : topology.ports()) {
    const Node& peer = topology.node(port.peer);
    EgressPort::Wiring w;
    w.id = port.id;
    w.rate = port.rate;
    w.propagation = port.latency;
    if (peer.kind == NodeKind::kSwitch) {
      w.receiver_latency = topology.switch_specs()[peer.switch_spec].latency;
      w.receiver = switches_[peer.id].get();
    } else {
      w.receiver = hosts_[peer.id].get();
    }
    w.receiver_in_port = port.reverse();
    w.owner_switch = switches_[port.node].get();
    w.source = hosts_[port.node].get();
    if (credit_flow_control()) {
      w.vl_credit_bytes = VlBufferBytes(port);
      const IbCcMarkingConfig& cc = config_.ib.congestion_control;
      if (cc.enabled && cc.threshold > 0 && w.owner_switch != nullptr) {
        // (16 - threshold)/16 of this switch's own buffer per port and VL
        // (the credits it grants the peer on this link's reverse).
        w.fecn_threshold_bytes = VlBufferBytes(topology.port(port.reverse())) * static_cast<uint64_t>(16 - cc.threshold) / 16;
      }
    }
    ports_[port.id].emplace(sim, config_, w);
  }
}

PacketNetwork::~PacketNetwork() = default;

PortId PacketNetwork::NextHop(NodeId node, NodeId dst, uint32_t hash) const {
  return EcmpNextHop(*active_routes_, switch_salt_, node, dst, hash);
}

void PacketNetwork::StartTransfer(const TransferRequest& request) {
  assert(request.bytes > 0 && request.src != request.dst);
  assert(routes_.Distance(request.src, request.dst) > 0);
  const uint32_t transfer = static_cast<uint32_t>(transfers_.size());
  // Several queue pairs per connection, each with its own UDP source port.
  const std::vector<TransferRequest> parts = SplitIntoQueuePairs(request, config_.mtu_bytes, config_.qps_per_transfer);
  transfers_.push_back(Transfer{request.id, static_cast<uint32_t>(parts.size())});
  for (const TransferRequest& part : parts) StartQueuePair(part, transfer);
}

void PacketNetwork::StartQueuePair(const TransferRequest& request, uint32_t transfer) {
  FlowState flow;
  flow.transfer = transfer;
  flow.request = request;
  const std::vector<PortId> path = PathPorts(RoutesBetween(request.src, request.dst), request.src, request.dst,
                                             FlowHash(flow.request));
  flow.first_port = path.front();
  flow.route_offset = StoreRoute(path);
  flow.start = sim_.Now();
  const uint32_t index = static_cast<uint32_t>(flows_.size());
  if (transport_ == nullptr) {
    flow.sender = std::make_unique<LineRateSender>(request.bytes, config_.mtu_bytes);
    flows_.push_back(std::move(flow));
  } else {
    // Feedback returns along the path the reversed 5-tuple hashes onto.
    TransferRequest back = flow.request;
    std::swap(back.src, back.dst);
    std::swap(back.sport, back.dport);
    const std::vector<PortId> reverse = PathPorts(RoutesBetween(request.dst, request.src), request.dst, request.src,
                                                  FlowHash(back));
    flow.reverse_route_offset = StoreRoute(reverse);
    FlowContext context;
    context.flow_index = index;
    context.bytes = request.bytes;
    context.mtu_bytes = config_.mtu_bytes;
    context.wire_overhead_bytes = config_.wire_overhead_bytes;
    context.line_rate = topology_.port(path.front()).rate;
    context.base_rtt = BaseRtt(path, reverse);
    flows_.push_back(std::move(flow));
    // Made after the flow is stored: they may call back into the network.
    flows_.back().sender = transport_->MakeSender(context, *this);
    flows_.back().receiver = transport_->MakeReceiver(context, *this);
  }
  hosts_[request.src]->AddFlow(index, path.front());
}

uint32_t PacketNetwork::StoreRoute(const std::vector<PortId>& path) {
  const uint32_t offset = static_cast<uint32_t>(route_arena_.size());
  route_arena_.insert(route_arena_.end(), path.begin(), path.end());
  return offset;
}

Time PacketNetwork::BaseRtt(const std::vector<PortId>& path, const std::vector<PortId>& reverse) const {
  // One full data packet out and one feedback packet back on idle links.
  const uint32_t data_wire = config_.mtu_bytes + config_.wire_overhead_bytes;
  const uint32_t ack_wire = transport_ != nullptr ? transport_->FeedbackWireBytes(PacketKind::kAck) : data_wire;
  Time rtt;
  for (const auto& [ports, wire] : {std::pair{&path, data_wire}, std::pair{&reverse, ack_wire}}) {
    for (PortId id : *ports) {
      const Port& port = topology_.port(id);
      rtt += port.rate.TransmitTime(wire) + port.latency;
      const Node& peer = topology_.node(port.peer);
      if (peer.kind == NodeKind::kSwitch) rtt += topology_.switch_specs()[peer.switch_spec].latency;
    }
  }
  return rtt;
}

void PacketNetwork::SendFeedback(uint32_t flow_index, PacketKind kind, uint64_t ack_offset, const Packet* echo) {
  FlowState& flow = flows_[flow_index];
  Packet* p = pool_.Allocate();
  p->flow_index = flow_index;
  p->dst = flow.request.src;
  p->kind = kind;
  p->ack_offset = ack_offset;
  p->priority = QueueOf(transport_->FeedbackPriority(kind, flow.request.priority));
  p->wire_bytes = transport_->FeedbackWireBytes(kind);
  p->route_offset = flow.reverse_route_offset;
  p->hop = 1;
  if (echo != nullptr && echo->int_hops > 0) {
    p->int_hops = echo->int_hops;
    std::copy(echo->int_, echo->int_ + echo->int_hops, p->int_);
  }
  ports_[route_arena_[flow.reverse_route_offset]]->Enqueue(p);
}

void PacketNetwork::WakeSender(uint32_t flow_index) { ports_[flows_[flow_index].first_port]->Kick(); }

void PacketNetwork::OnDelivered(Packet* p) {
  if (credit_flow_control()) ReturnCredits(p);  // hosts consume at line rate
  FlowState& flow = flows_[p->flow_index];
  if (p->kind != PacketKind::kData) {
    // Feedback reached the source.
    flow.sender->OnFeedback(*p);
    pool_.Free(p);
    return;
  }
  const uint64_t fresh = flow.receiver ? flow.receiver->OnData(*p) : p->payload_bytes;
  flow.delivered_bytes += fresh;
  pool_.Free(p);
  if (fresh > 0 && flow.delivered_bytes == flow.request.bytes) {
    flow.finish = sim_.Now();
    Transfer& t = transfers_[flow.transfer];
    if (--t.open_queue_pairs == 0 && observer_ != nullptr) observer_->OnTransferDone(t.id, flow.finish);
  }
}

void PacketNetwork::OnDropped(Packet* p, EgressPort& at) {
  PortCounters& c = at.counters();
  c.drop_packets++;
  c.drop_bytes += p->wire_bytes;
  c.drop_payload_bytes += p->payload_bytes;
  at.CountQueueDrop(p->priority);
  if (p->kind == PacketKind::kData) flows_[p->flow_index].dropped_bytes += p->payload_bytes;
  pool_.Free(p);
}

uint64_t PacketNetwork::VlBufferBytes(const Port& port) const {
  if (config_.ib.vl_buffer_bytes != 0) return config_.ib.vl_buffer_bytes;
  const uint32_t max_wire = config_.mtu_bytes + config_.wire_overhead_bytes;
  const Node& receiver = topology_.node(port.peer);
  Time latency;
  uint64_t share = 0;
  if (receiver.kind == NodeKind::kSwitch) {
    // A switch partitions its buffer by input port, here equally between
    // its ports and IbConfig::data_vls virtual lanes.
    const SwitchSpec& spec = topology_.switch_specs()[receiver.switch_spec];
    latency = spec.latency;
    share = spec.buffer_bytes / (static_cast<uint64_t>(receiver.ports.size()) * config_.ib.data_vls);
  }
  // At least one credit loop, so a lone flow runs at line rate.
  const Time loop = port.latency * 2 + latency + port.rate.TransmitTime(max_wire);
  const uint64_t bytes = std::max<uint64_t>(share, port.rate.BytesIn(loop) + 2ull * max_wire);
  return (bytes + kIbCreditBlockBytes - 1) / kIbCreditBlockBytes * kIbCreditBlockBytes;
}

void PacketNetwork::ReturnCredits(const Packet* p) {
  // The credit update leaves over the link the packet came in on and
  // reaches the upstream port one cable later (flow-control packets are
  // not serialized or queued in this model).
  const Port& back = topology_.port(p->in_port);
  sim_.Schedule(sim_.Now() + back.latency, &*ports_[p->in_port ^ 1],
                EgressPort::CreditTag(p->priority, EgressPort::CreditBlocks(p->wire_bytes)));
}

uint64_t PacketNetwork::buffer_peak_bytes(NodeId id) const {
  return switches_[id] ? switches_[id]->buffer_peak_bytes() : 0;
}

void PacketNetwork::OnPauseSent() {
  if (deadlock_check_pending_ || config_.pfc.deadlock_check_interval <= Time::Zero()) return;
  deadlock_check_pending_ = true;
  sim_.ScheduleIn(config_.pfc.deadlock_check_interval, this, 0);
}

std::vector<PauseCause> PacketNetwork::pause_causes() const {
  std::vector<PauseCause> causes;
  causes.reserve(pause_causes_.size());
  for (const auto& [ports, frames] : pause_causes_) causes.push_back(PauseCause{ports.first, ports.second, frames});
  return causes;
}

void PacketNetwork::OnEvent(uint64_t) {
  bool any_paused = false;
  const bool cycle = FindPauseCycle(any_paused);
  if (cycle && !in_deadlock_) ++pfc_deadlocks_;
  in_deadlock_ = cycle;
  deadlock_check_pending_ = any_paused;
  if (any_paused) sim_.ScheduleIn(config_.pfc.deadlock_check_interval, this, 0);
}

bool PacketNetwork::FindPauseCycle(bool& any_paused) const {
  // Wait-for graph over (port, priority): port X->Y waits for Y->Z when
  // X->Y is paused on p and Y->Z is paused on p while holding priority-p
  // packets (which may have come from X). A cycle can only clear through
  // the watchdog. Depth-first search with colours; O(ports * 8 * degree).
  const size_t n = ports_.size() * kNumPriorities;
  std::vector<uint8_t> colour(n, 0);  // 0 unseen, 1 on the stack, 2 done
  std::vector<std::pair<size_t, size_t>> stack;  // (vertex, next neighbour index)
  auto paused_holding = [&](PortId q, int p) {
    return ports_[q]->paused(p) && ports_[q]->queue_bytes(p) > 0;
  };
  for (size_t start = 0; start < n; ++start) {
    const PortId port = static_cast<PortId>(start / kNumPriorities);
    const int prio = static_cast<int>(start % kNumPriorities);
    if (!ports_[port]->paused(prio)) continue;
    any_paused = true;
    if (colour[start] != 0) continue;
    colour[start] = 1;
    stack.assign(1, {start, 0});
    while (!stack.empty()) {
      auto& [v, next] = stack.back();
      const PortId vp = static_cast<PortId>(v / kNumPriorities);
      const int pr = static_cast<int>(v % kNumPriorities);
      const Node& y = topology_.node(topology_.port(vp).peer);
      if (y.kind != NodeKind::kSwitch || next >= y.ports.size()) {
        colour[v] = 2;
        stack.pop_back();
        continue;
      }
      const PortId q = y.ports[next++];
      if (!paused_holding(q, pr)) continue;
      const size_t w = static_cast<size_t>(q) * kNumPriorities + static_cast<size_t>(pr);
      if (colour[w] == 1) return true;
      if (colour[w] == 0) {
        colour[w] = 1;
        stack.push_back({w, 0});
      }
    }
  }
  return false;
}

void PacketNetwork::FinishRun(Time end) {
  for (auto& port : ports_) port->FinishPauseAccounting(end);
}

PayloadTotals PacketNetwork::totals() const {
  PayloadTotals t;
  for (const FlowState& f : flows_) {
    t.sent += f.sent_bytes;
    t.delivered += f.delivered_bytes;
    t.dropped += f.dropped_bytes;
    t.discarded += f.transport.discarded_bytes;
    t.retransmitted += f.transport.retransmitted_bytes;
  }
  t.in_flight = t.sent - t.delivered - t.dropped - t.discarded;
  return t;
}

NetworkTotals PacketNetwork::RunTotals() const {
  NetworkTotals t;
  t.payload = totals();
  for (const FlowState& f : flows_) {
    t.timeouts += f.transport.timeouts;
    t.out_of_order_packets += f.transport.out_of_order_packets;
    t.cnps += f.transport.cnps;
    t.acks += f.transport.acks;
  }
  t.pfc_deadlocks = pfc_deadlocks_;
  return t;
}

void PacketNetwork::Observe(FabricObservation& observation) const {
  observation.model = kind();
  for (uint32_t i = 0; i < flows_.size(); ++i) {
    const FlowState& f = flows_[i];
    observation.transfers.push_back(
        TransferObservation{f.request.id, f.request.src, f.request.dst, f.request.bytes, f.start, f.finish,
                            IdealFct(f.request), path(i), ""});
    TransferObservation& t = observation.transfers.back();
    t.resent_bytes = f.transport.retransmitted_bytes;
    if (i < left_routes_.size()) {
      for (uint32_t offset : left_routes_[i]) {
        const std::vector<PortId> left = StoredRoute(offset, f.request.dst);
        t.earlier_path.insert(t.earlier_path.end(), left.begin(), left.end());
      }
    }
    t.single_path = config_.load_balancing == LoadBalancing::kEcmp;
  }
  observation.pause_causes = pause_causes();
}

size_t PacketNetwork::TransfersCompleted() const {
  size_t done = 0;
  for (const FlowState& f : flows_) done += f.done();
  return done;
}

std::vector<PortId> PacketNetwork::PathPorts(const RoutingTable& routes, NodeId src, NodeId dst, uint32_t hash) const {
  return EcmpPath(topology_, routes, switch_salt_, src, dst, hash);
}

std::vector<PortId> PacketNetwork::path(uint32_t flow_index) const {
  const FlowState& flow = flows_[flow_index];
  return StoredRoute(flow.route_offset, flow.request.dst);
}

std::vector<PortId> PacketNetwork::StoredRoute(uint32_t offset, NodeId dst) const {
  std::vector<PortId> ports;
  for (uint32_t i = offset; ports.empty() || topology_.port(ports.back()).peer != dst; ++i) {
    ports.push_back(route_arena_[i]);
  }
  return ports;
}

Time PacketNetwork::IdealFct(const TransferRequest& request) const {
  const TransferRequest r = WithSourcePort(request);
  // Alone on the idle fabric: the fault-free routes.
  const std::vector<PortId> path = PathPorts(routes_, r.src, r.dst, FlowHash(r));
  const uint32_t overhead = config_.wire_overhead_bytes;
  const uint64_t first_payload = r.bytes < config_.mtu_bytes ? r.bytes : config_.mtu_bytes;
  const uint32_t first_wire = static_cast<uint32_t>(first_payload) + overhead;
  const bool cut_through = config_.forwarding == Forwarding::kCutThrough;

  // The first packet, hop by hop, exactly as EgressPort::Transmit times it.
  Time start = Time::Zero();
  Time last_bit = Time::Zero();
  Time finish = Time::Zero();
  DataRate bottleneck = topology_.port(path.front()).rate;
  for (PortId id : path) {
    const Port& port = topology_.port(id);
    bottleneck = Min(bottleneck, port.rate);
    Time end = start + port.rate.TransmitTime(first_wire);
    if (cut_through && last_bit > end) end = last_bit;
    last_bit = end + port.latency;
    const Node& peer = topology_.node(port.peer);
    if (peer.kind == NodeKind::kSwitch) {
      const Time latency = topology_.switch_specs()[peer.switch_spec].latency;
      start = cut_through ? start + port.rate.TransmitTime(first_wire < 64 ? first_wire : 64) + port.latency + latency
                          : last_bit + latency;
    } else {
      finish = last_bit;
    }
  }
  // The rest follow at the bottleneck rate.
  const uint64_t rest = r.bytes - first_payload;
  const uint64_t full = rest / config_.mtu_bytes;
  const uint64_t partial = rest % config_.mtu_bytes;
  finish += bottleneck.TransmitTime(config_.mtu_bytes + overhead) * static_cast<int64_t>(full);
  if (partial > 0) finish += bottleneck.TransmitTime(partial + overhead);
  return finish;
}

}  // namespace aifabric
