#include "packet/switch_node.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "packet/packet_network.h"

namespace aifabric {
namespace {

const SwitchSpec& SpecOf(const Topology& topology, NodeId id) {
  return topology.switch_specs()[topology.node(id).switch_spec];
}

// IEEE 802.3 Annex 31B.3.7 worst-case PAUSE response delay, in quanta of
// 512 bit times, by link speed (SONiC buffer_headroom_mellanox.lua table).
uint64_t PeerResponseQuanta(DataRate rate) {
  const double g = rate.gbps();
  if (g >= 400) return 905;
  if (g >= 200) return 453;
  if (g >= 100) return 394;
  if (g >= 50) return 147;
  if (g >= 40) return 118;
  if (g >= 25) return 80;
  return 67;
}

constexpr uint32_t kPfcFrameWireBytes = 64 + 20;  // minimum frame + preamble/IFG

uint64_t TotalHeadroom(const Topology& topology, NodeId id, const PacketConfig& config, Time latency) {
  if (!config.pfc.enabled) return 0;
  const uint32_t max_wire = config.mtu_bytes + config.wire_overhead_bytes;
  const int lossless = std::popcount(static_cast<unsigned>(config.pfc.lossless_mask));
  uint64_t total = 0;
  for (PortId p : topology.node(id).ports) {
    total += SwitchNode::HeadroomBytes(topology.port(p), latency, max_wire) * static_cast<uint64_t>(lossless);
  }
  return total;
}

}  // namespace

uint64_t SwitchNode::HeadroomBytes(const Port& port, Time switch_latency, uint32_t max_wire_bytes) {
  // After this switch sends PAUSE, data keeps arriving for: the PAUSE's own
  // serialization and the cable both ways, the upstream's response time
  // (PeerResponseQuanta), and this switch's forwarding pipeline (packets
  // are admitted after it); plus the frame the upstream had started and one
  // that was arriving here: 2 maximum-size frames.
  const Time in_flight = port.latency * 2 + switch_latency + port.rate.TransmitTime(kPfcFrameWireBytes);
  const uint64_t response = PeerResponseQuanta(port.rate) * 512 / 8;
  return port.rate.BytesIn(in_flight) + response + 2ull * max_wire_bytes;
}

SwitchNode::SwitchNode(PacketNetwork& network, const Topology& topology, NodeId id, const PacketConfig& config)
    : network_(network),
      id_(id),
      pfc_(config.pfc),
      credit_fc_(config.kind == FabricKind::kIb),
      flow_controlled_mask_(credit_fc_ ? 0xff : config.pfc.enabled ? config.pfc.lossless_mask : 0),
      load_balancing_(config.load_balancing),
      flowlet_gap_(config.flowlet_gap),
      spray_round_robin_(config.spray_round_robin),
      ports_(topology.node(id).ports),
      buffer_(SpecOf(topology, id).buffer_bytes -
                  std::min(SpecOf(topology, id).buffer_bytes,
                           TotalHeadroom(topology, id, config, SpecOf(topology, id).latency)),
              config.buffer_alpha) {
  const SwitchSpec& spec = SpecOf(topology, id);
  const uint32_t max_wire = config.mtu_bytes + config.wire_overhead_bytes;
  for (PortId p : ports_) headroom_limit_.push_back(HeadroomBytes(topology.port(p), spec.latency, max_wire));
  ingress_.resize(ports_.size() * kNumPriorities);
}

size_t SwitchNode::Slot(PortId in_port, int priority) const {
  return static_cast<size_t>(network_.LocalPortIndex(in_port)) * kNumPriorities + static_cast<size_t>(priority);
}

uint64_t SwitchNode::XoffThreshold() const {
  return static_cast<uint64_t>(pfc_.alpha * static_cast<double>(buffer_.free_bytes()));
}

void SwitchNode::OnEvent(uint64_t tag) {
  if (tag & 1) {
    OnPfcRefresh(tag);
    return;
  }
  Packet* p = reinterpret_cast<Packet*>(tag);
  network_.CountReceived(p);
  if (load_balancing_ != LoadBalancing::kEcmp) {
    AdmitToChosenHop(p);
    return;
  }
  Admit(p, network_.port(network_.TakeNextHop(p)));
}

void SwitchNode::AdmitToChosenHop(Packet* p) { Admit(p, network_.port(ChooseNextHop(p))); }

void SwitchNode::Admit(Packet* p, EgressPort& out) {
  if (FlowControlled(p->priority)) {
    AdmitFlowControlled(p, out);
    return;
  }
  // Lossy: the shared buffer's dynamic threshold, else tail drop.
  if (!buffer_.TryAdmit(out.queue_bytes(p->priority), p->wire_bytes)) {
    network_.OnDropped(p, out);
    return;
  }
  out.Enqueue(p);
}

void SwitchNode::OnPfcRefresh(uint64_t tag) {
  // Re-send PAUSE every half quanta period while in XOFF.
  const size_t slot = tag >> 1;
  Ingress& in = ingress_[slot];
  const PortId port = ports_[slot / kNumPriorities];
  const int priority = static_cast<int>(slot % kNumPriorities);
  if (!in.xoff) {
    in.refresh_pending = false;
    return;
  }
  SendPfc(port, priority, true, MostQueued(priority, kNoPort, 0));
  network_.sim().ScheduleIn(Time::FromPs(network_.port(port).PauseQuantaTime().ps() / 2), this, tag);
}

void SwitchNode::AdmitFlowControlled(Packet* p, EgressPort& out) {
  const int prio = p->priority;
  if (credit_fc_) {
    // Credits reserved its space upstream; the shared buffer only keeps the
    // occupancy figures.
    buffer_.Charge(p->wire_bytes);
    out.Enqueue(p);
    return;
  }
  // The PFC watchdog's drop action on either link: the packet is lost.
  if (out.WatchdogDropping(prio) || network_.port(p->in_port).WatchdogDropping(prio)) {
    network_.OnDropped(p, out);
    return;
  }
  const size_t slot = Slot(p->in_port, prio);
  Ingress& in = ingress_[slot];
  if (buffer_.TryAdmitAny(p->wire_bytes)) {
    p->in_headroom = false;
  } else if (in.headroom_bytes + p->wire_bytes <= headroom_limit_[slot / kNumPriorities]) {
    p->in_headroom = true;
    in.headroom_bytes += p->wire_bytes;
  } else {
    ++headroom_drops_;
    network_.OnDropped(p, out);
    return;
  }
  in.bytes += p->wire_bytes;
  if (!in.xoff && (p->in_headroom || in.bytes >= XoffThreshold())) {
    in.xoff = true;
    // `p` is admitted but not yet queued at `out`: count it there.
    SendPfc(p->in_port, prio, true, MostQueued(prio, out.id(), p->wire_bytes));
    if (!in.refresh_pending) {
      in.refresh_pending = true;
      network_.sim().ScheduleIn(Time::FromPs(network_.port(p->in_port).PauseQuantaTime().ps() / 2), this, slot << 1 | 1);
    }
  }
  out.Enqueue(p);
}

PortId SwitchNode::ChooseNextHop(Packet* p) {
  const std::span<const PortId> hops = network_.routes().NextHops(id_, p->dst);
  assert(!hops.empty());
  if (hops.size() == 1) return hops[0];
  Rng& rng = network_.sim().rng();
  switch (load_balancing_) {
    case LoadBalancing::kSpray:
      return spray_round_robin_ ? hops[spray_turn_++ % hops.size()] : hops[rng.Below(hops.size())];
    case LoadBalancing::kAdaptive:
      return LeastQueued(hops);
    case LoadBalancing::kFlowlet: {
      const uint64_t key = static_cast<uint64_t>(p->flow_index) << 1 | (p->kind == PacketKind::kData ? 0 : 1);
      const Time now = network_.sim().Now();
      Flowlet& f = flowlets_[key];
      if (f.port == kNoPort || now - f.last_seen > flowlet_gap_) f.port = hops[rng.Below(hops.size())];
      f.last_seen = now;
      return f.port;
    }
    case LoadBalancing::kEcmp:
      break;
  }
  return hops[0];
}

PortId SwitchNode::LeastQueued(std::span<const PortId> hops) {
  // The less loaded of two eligible outputs drawn at random (the "power of
  // two choices"): always taking the globally least-loaded port herds the
  // packets of many flows onto the same ports at once — on a k=8 fat-tree
  // permutation it reached 77-81% of line rate against 91% for this rule.
  Rng& rng = network_.sim().rng();
  const size_t a = rng.Below(hops.size());
  size_t b = rng.Below(hops.size() - 1);
  if (b >= a) ++b;
  return network_.port(hops[a]).queue_bytes() <= network_.port(hops[b]).queue_bytes() ? hops[a] : hops[b];
}

void SwitchNode::OnFlowControlledDeparture(Packet* p) {
  if (credit_fc_) {
    buffer_.Release(p->wire_bytes);
    network_.ReturnCredits(p);
    return;
  }
  Ingress& in = ingress_[Slot(p->in_port, p->priority)];
  if (p->in_headroom) {
    in.headroom_bytes -= p->wire_bytes;
  } else {
    buffer_.Release(p->wire_bytes);
  }
  in.bytes -= p->wire_bytes;
  if (in.xoff && in.headroom_bytes == 0 && in.bytes + pfc_.xon_offset_bytes <= XoffThreshold()) {
    in.xoff = false;
    SendPfc(p->in_port, p->priority, false, kNoPort);
  }
}

void SwitchNode::DropQueued(Packet* p, EgressPort& port) {
  OnDeparture(p);
  network_.OnDropped(p, port);
}

PortId SwitchNode::MostQueued(int priority, PortId arriving_at, uint32_t arriving_bytes) const {
  PortId best = kNoPort;
  uint64_t best_bytes = 0;
  for (PortId id : ports_) {
    const uint64_t bytes = network_.egress(id).queue_bytes(priority) + (id == arriving_at ? arriving_bytes : 0);
    if (bytes == 0) continue;
    if (bytes > best_bytes || (bytes == best_bytes && id < best)) {
      best = id;
      best_bytes = bytes;
    }
  }
  return best;
}

void SwitchNode::SendPfc(PortId in_port, int priority, bool pause, PortId cause) {
  // The frame leaves over the ingress link (this switch's port `in_port`)
  // and reaches the upstream's egress port, in_port ^ 1, one frame time and
  // one cable later.
  network_.port(in_port).CountPfcFrameSent(priority);
  if (pause) {
    network_.OnPauseSent();
    network_.RecordPauseCause(in_port ^ 1, cause);
  }
  const Port& link = network_.topology().port(in_port);
  const Time arrival = network_.sim().Now() + link.rate.TransmitTime(kPfcFrameWireBytes) + link.latency;
  network_.sim().Schedule(arrival, &network_.port(in_port ^ 1), EgressPort::PfcFrameTag(priority, pause));
}

}  // namespace aifabric
