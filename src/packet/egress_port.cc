#include "packet/egress_port.h"

#include <bit>
#include <cassert>

namespace aifabric {
namespace {
// Cut-through switches start forwarding once this much of a frame has
// arrived (enough to parse Ethernet/IP/UDP/BTH or IB LRH/BTH headers).
constexpr uint32_t kCutThroughHeaderBytes = 64;
}  // namespace

EgressPort::EgressPort(Simulator& sim, const PacketConfig& config, const Wiring& wiring)
    : sim_(sim),
      wiring_(wiring),
      cut_through_(config.forwarding == Forwarding::kCutThrough),
      ps_per_byte_(8'000'000'000'000ull % wiring.rate.bps() == 0 ? 8'000'000'000'000ull / wiring.rate.bps() : 0) {
  const uint32_t max_wire = config.mtu_bytes + config.wire_overhead_bytes;
  for (int p = 0; p < kNumPriorities; ++p) {
    if (config.queues[p].strict) strict_mask_ |= static_cast<uint8_t>(1u << p);
    // A quantum of at least one full packet per weight unit guarantees that
    // every visit to a backlogged queue sends at least one packet.
    quantum_[p] = max_wire * (config.queues[p].dwrr_weight == 0 ? 1 : config.queues[p].dwrr_weight);
  }
}

void EgressPort::Enqueue(Packet* p) {
  const int prio = p->priority;
  queues_[prio].Push(p);
  nonempty_mask_ |= static_cast<uint8_t>(1u << prio);
  queued_bytes_ += p->wire_bytes;
  if (queued_bytes_ > counters_.max_queue_bytes) counters_.max_queue_bytes = queued_bytes_;
  TrySend();
}

void EgressPort::Kick() { TrySend(); }

void EgressPort::OnEvent(uint64_t) {
  wakeup_pending_ = false;
  TrySend();
}

void EgressPort::TrySend() {
  if (wakeup_pending_) return;
  const Time now = sim_.Now();
  if (now < busy_until_) {
    // Still serializing: wake up when the transmitter frees, if there is
    // (or may be) something to send then.
    if (nonempty_mask_ != 0 || wiring_.source != nullptr) {
      wakeup_pending_ = true;
      sim_.Schedule(busy_until_, this, 0);
    }
    return;
  }
  Packet* p = Dequeue();
  if (p == nullptr && wiring_.source != nullptr) p = wiring_.source->Pull(wiring_.id);
  if (p == nullptr) return;
  Transmit(p);
  // Keep draining: if more is waiting, come back when this packet is out.
  if (nonempty_mask_ != 0 || wiring_.source != nullptr) {
    wakeup_pending_ = true;
    sim_.Schedule(busy_until_, this, 0);
  }
}

void EgressPort::Transmit(Packet* p) {
  const Time now = sim_.Now();
  Time end = now + SerializationTime(p->wire_bytes);
  // A cut-through packet cannot leave before its last bit has arrived.
  if (cut_through_ && p->last_bit_at > end) end = p->last_bit_at;
  busy_until_ = end;

  counters_.tx_packets++;
  counters_.tx_bytes += p->wire_bytes;
  counters_.tx_payload_bytes += p->payload_bytes;

  const Time last_bit_at_receiver = end + wiring_.propagation;
  Time arrival;
  if (cut_through_ && wiring_.receiver_latency > Time::Zero()) {
    const uint32_t header = p->wire_bytes < kCutThroughHeaderBytes ? p->wire_bytes : kCutThroughHeaderBytes;
    arrival = now + SerializationTime(header) + wiring_.propagation + wiring_.receiver_latency;
  } else {
    arrival = last_bit_at_receiver + wiring_.receiver_latency;
  }
  p->last_bit_at = last_bit_at_receiver;
  p->in_port = wiring_.receiver_in_port;
  sim_.Schedule(arrival, wiring_.receiver, reinterpret_cast<uint64_t>(p));
}

Packet* EgressPort::Dequeue() {
  if (nonempty_mask_ == 0) return nullptr;
  int prio;
  const uint8_t strict_ready = nonempty_mask_ & strict_mask_;
  Packet* p;
  if (strict_ready != 0) {
    prio = 31 - std::countl_zero(static_cast<uint32_t>(strict_ready));
    p = queues_[prio].Pop();
  } else if ((nonempty_mask_ & (nonempty_mask_ - 1)) == 0) {
    // One backlogged DWRR queue: it gets the link; its deficit is moot.
    prio = std::countr_zero(nonempty_mask_);
    p = queues_[prio].Pop();
  } else {
    p = DequeueDwrr();
    prio = p->priority;
  }
  if (queues_[prio].empty()) {
    nonempty_mask_ &= static_cast<uint8_t>(~(1u << prio));
    deficit_[prio] = 0;
  }
  queued_bytes_ -= p->wire_bytes;
  if (wiring_.buffer != nullptr) wiring_.buffer->Release(p->wire_bytes);
  return p;
}

Packet* EgressPort::DequeueDwrr() {
  // Classic DWRR (Shreedhar & Varghese): on arriving at a backlogged queue
  // add its quantum; send while the deficit covers the head packet; then
  // move on. Quanta are at least one packet, so this terminates.
  const uint8_t dwrr = nonempty_mask_ & static_cast<uint8_t>(~strict_mask_);
  assert(dwrr != 0);
  while (true) {
    const int q = dwrr_cursor_;
    if (dwrr & (1u << q)) {
      Packet* head = queues_[q].head();
      if (deficit_[q] >= static_cast<int64_t>(head->wire_bytes)) {
        deficit_[q] -= head->wire_bytes;
        return queues_[q].Pop();
      }
    }
    dwrr_cursor_ = (dwrr_cursor_ + 1) % kNumPriorities;
    if (dwrr & (1u << dwrr_cursor_)) deficit_[dwrr_cursor_] += quantum_[dwrr_cursor_];
  }
}

}  // namespace aifabric
