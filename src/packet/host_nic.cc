#include "packet/host_nic.h"

#include <algorithm>
#include <bit>
#include <cassert>

#include "packet/packet_network.h"

namespace aifabric {

HostNic::HostNic(PacketNetwork& network, NodeId id, const std::vector<PortId>& ports)
    : network_(network), id_(id), wire_overhead_(network.config().wire_overhead_bytes) {
  ports_.reserve(ports.size());
  for (PortId p : ports) ports_.emplace_back(p, network.config());
}

size_t HostNic::IndexOf(PortId port) const {
  for (size_t i = 0; i < ports_.size(); ++i) {
    if (ports_[i].port == port) return i;
  }
  assert(false && "port does not belong to this host");
  return 0;
}

void HostNic::AddFlow(uint32_t flow_index, PortId port) {
  PortFlows& pf = ports_[IndexOf(port)];
  const uint8_t q = network_.QueueOf(network_.flow(flow_index).request.priority);
  pf.classes[q].active.push_back(flow_index);
  pf.classes_mask |= static_cast<uint8_t>(1u << q);
  network_.port(port).Kick();
}

void HostNic::MoveFlow(uint32_t flow_index, PortId port) {
  PortFlows& pf = ports_[IndexOf(port)];
  const uint8_t q = network_.QueueOf(network_.flow(flow_index).request.priority);
  std::vector<uint32_t>& active = pf.classes[q].active;
  if (std::find(active.begin(), active.end(), flow_index) == active.end()) active.push_back(flow_index);
  pf.classes_mask |= static_cast<uint8_t>(1u << q);
  network_.port(port).Kick();
}

inline bool HostNic::FindReady(PortFlows& pf, int q, Time now, Time& earliest) {
  ClassFlows& c = pf.classes[static_cast<size_t>(q)];
  for (size_t tried = 0; tried < c.active.size();) {
    if (c.next >= c.active.size()) c.next = 0;
    const FlowState& flow = network_.flow(c.active[c.next]);
    if (flow.sender->Finished() || flow.first_port != pf.port) {  // done, or failed over to another port
      c.active.erase(c.active.begin() + static_cast<std::ptrdiff_t>(c.next));
      continue;
    }
    const Time at = flow.sender->NextSendTime();
    if (at <= now) return true;
    if (at < earliest) earliest = at;
    ++c.next;
    ++tried;
  }
  if (c.active.empty()) pf.classes_mask &= static_cast<uint8_t>(~(1u << q));
  return false;
}

uint32_t HostNic::NextWireBytes(const PortFlows& pf, int q) {
  const ClassFlows& c = pf.classes[static_cast<size_t>(q)];
  return network_.flow(c.active[c.next]).sender->NextPayloadBytes() + wire_overhead_;
}

inline Packet* HostNic::SendNext(PortFlows& pf, int q) {
  ClassFlows& c = pf.classes[static_cast<size_t>(q)];
  const uint32_t index = c.active[c.next];
  FlowState& flow = network_.flow(index);
  Packet* p = network_.pool().Allocate();
  p->flow_index = index;
  p->dst = flow.request.dst;
  p->priority = static_cast<uint8_t>(q);
  p->route_offset = flow.route_offset;
  p->hop = 1;  // hop 0 is this port
  p->kind = PacketKind::kData;
  flow.sender->FillNext(*p);
  p->wire_bytes = p->payload_bytes + wire_overhead_;
  flow.sent_bytes += p->payload_bytes;
  if (flow.sender->Finished()) {
    c.active.erase(c.active.begin() + static_cast<std::ptrdiff_t>(c.next));
    if (c.active.empty()) pf.classes_mask &= static_cast<uint8_t>(~(1u << q));
  } else {
    ++c.next;
  }
  return p;
}

Packet* HostNic::Pull(PortId port, uint8_t allowed) {
  const size_t port_index = IndexOf(port);
  PortFlows& pf = ports_[port_index];
  const Time now = network_.sim().Now();
  Time earliest = Time::Infinite();
  const uint8_t classes = pf.classes_mask;
  if ((classes & (classes - 1)) == 0) {
    // One class (or none), the common case: its flows in round robin.
    const int q = std::countr_zero(classes);
    if ((classes & allowed) != 0 && FindReady(pf, q, now, earliest)) return SendNext(pf, q);
  } else {
    // Several: the classes with a flow ready now (and not paused by PFC,
    // nor short of credits) are the scheduler's backlogged queues.
    uint8_t ready = 0;
    for (uint8_t left = classes & allowed; left != 0; left &= static_cast<uint8_t>(left - 1)) {
      const int q = std::countr_zero(left);
      if (FindReady(pf, q, now, earliest)) ready |= static_cast<uint8_t>(1u << q);
    }
    // A class with nothing to send now is an emptied queue: it loses what
    // is left of its deficit (a paused one keeps it, as at a switch).
    const uint8_t idle = pf.deficit_dirty & allowed & static_cast<uint8_t>(~ready);
    for (uint8_t left = idle; left != 0; left &= static_cast<uint8_t>(left - 1)) {
      pf.scheduler.Forfeit(std::countr_zero(left));
    }
    pf.deficit_dirty &= static_cast<uint8_t>(~idle);
    if (ready != 0) {
      const int q = pf.scheduler.Pick(ready, pf.deficit_dirty, [&](int c) { return NextWireBytes(pf, c); });
      return SendNext(pf, q);
    }
  }
  // Nothing may go now; if a sender will be ready later (pacing), wake the
  // port then.
  if (!earliest.IsInfinite() && !pf.wake_scheduled) {
    pf.wake_scheduled = true;
    network_.sim().Schedule(earliest, this, static_cast<uint64_t>(port_index) << 1 | 1);
  }
  return nullptr;
}

void HostNic::OnEvent(uint64_t tag) {
  if (tag & 1) {
    PortFlows& pf = ports_[tag >> 1];
    pf.wake_scheduled = false;
    network_.port(pf.port).Kick();
    return;
  }
  Packet* p = reinterpret_cast<Packet*>(tag);
  network_.CountReceived(p);
  network_.OnDelivered(p);
}

}  // namespace aifabric
