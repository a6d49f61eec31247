#include "packet/host_nic.h"

#include <algorithm>
#include <cassert>

#include "packet/packet_network.h"

namespace aifabric {

HostNic::HostNic(PacketNetwork& network, NodeId id, const std::vector<PortId>& ports)
    : network_(network), id_(id), wire_overhead_(network.config().wire_overhead_bytes) {
  ports_.reserve(ports.size());
  for (PortId p : ports) ports_.push_back(PortFlows{p, {}, 0, false});
}

size_t HostNic::IndexOf(PortId port) const {
  for (size_t i = 0; i < ports_.size(); ++i) {
    if (ports_[i].port == port) return i;
  }
  assert(false && "port does not belong to this host");
  return 0;
}

void HostNic::AddFlow(uint32_t flow_index, PortId port) {
  ports_[IndexOf(port)].active.push_back(flow_index);
  network_.port(port).Kick();
}

void HostNic::MoveFlow(uint32_t flow_index, PortId port) {
  PortFlows& pf = ports_[IndexOf(port)];
  if (std::find(pf.active.begin(), pf.active.end(), flow_index) == pf.active.end()) pf.active.push_back(flow_index);
  network_.port(port).Kick();
}

Packet* HostNic::Pull(PortId port, uint8_t allowed) {
  const size_t port_index = IndexOf(port);
  PortFlows& pf = ports_[port_index];
  const Time now = network_.sim().Now();
  Time earliest = Time::Infinite();
  for (size_t tried = 0; tried < pf.active.size();) {
    if (pf.next >= pf.active.size()) pf.next = 0;
    const uint32_t index = pf.active[pf.next];
    FlowState& flow = network_.flow(index);
    if (flow.sender->Finished() || flow.first_port != port) {  // done, or failed over to another port
      pf.active.erase(pf.active.begin() + static_cast<std::ptrdiff_t>(pf.next));
      continue;
    }
    const uint8_t queue = network_.QueueOf(flow.request.priority);
    if (!(allowed & (1u << queue))) {  // paused by PFC, or no credits on its VL
      ++pf.next;
      ++tried;
      continue;
    }
    const Time at = flow.sender->NextSendTime();
    if (at <= now) {
      Packet* p = network_.pool().Allocate();
      p->flow_index = index;
      p->dst = flow.request.dst;
      p->priority = queue;
      p->route_offset = flow.route_offset;
      p->hop = 1;  // hop 0 is this port
      p->kind = PacketKind::kData;
      flow.sender->FillNext(*p);
      p->wire_bytes = p->payload_bytes + wire_overhead_;
      flow.sent_bytes += p->payload_bytes;
      if (flow.sender->Finished()) {
        pf.active.erase(pf.active.begin() + static_cast<std::ptrdiff_t>(pf.next));
      } else {
        ++pf.next;
      }
      return p;
    }
    if (at < earliest) earliest = at;
    ++pf.next;
    ++tried;
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
