// SwitchNode is a switch in the packet model. A packet that arrives (after
// the port-to-port latency, which its upstream port already added) goes to
// its next hop's egress queue if the buffer admits it:
//  - lossy priorities: the shared buffer's dynamic threshold per egress
//    queue, else tail drop;
//  - lossless priorities with PFC on: the shared pool, or once that is full
//    the headroom reserved for its (ingress port, priority); a packet that
//    finds that full too is dropped only if the upstream ignored PAUSE (its
//    PFC watchdog fired), else it is an internal error (FailLosslessDrop). When the bytes held for one (ingress port,
//    priority) reach the XOFF threshold — alpha x the free shared buffer —
//    the switch sends a PAUSE frame upstream and refreshes it every half
//    quanta period; when they fall xon_offset below (checked for every
//    paused ingress at each lossless departure, and at each refresh), a
//    RESUME (quanta 0);
//  - InfiniBand: always — the upstream port held credits for it — and the
//    credits go back upstream when the packet leaves.
// The next hop comes from the packet's cached per-flow path (ECMP), or is
// chosen here per flowlet, per packet at random (spray) or by egress queue
// depth (adaptive routing: the shorter queue of two random equal-cost next
// hops).
// Owned by PacketNetwork; not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "core/ids.h"
#include "engine/simulator.h"
#include "fabric/topology.h"
#include "packet/egress_port.h"
#include "packet/packet_config.h"
#include "packet/shared_buffer.h"

namespace aifabric {

class PacketNetwork;

class SwitchNode final : public EventHandler {
 public:
  SwitchNode(PacketNetwork& network, const Topology& topology, NodeId id, const PacketConfig& config);
  SwitchNode(const SwitchNode&) = delete;
  SwitchNode& operator=(const SwitchNode&) = delete;

  // A packet arrived (tag = Packet*, always even), or a PFC refresh timer
  // for ingress slot tag >> 1 fired (tag odd).
  void OnEvent(uint64_t tag) override;
  // A packet queued here starts on the wire: free its buffer space. The
  // lossy case, the common one, is inline so the egress port's call costs
  // no more than the release itself.
  void OnDeparture(Packet* p) {
    if (!FlowControlled(p->priority)) {
      buffer_.Release(p->wire_bytes);
      return;
    }
    OnFlowControlledDeparture(p);
  }

  // The PFC watchdog flushed `p` from `port`'s queue: free its buffer and
  // drop it there.
  void DropQueued(Packet* p, EgressPort& port);

  uint64_t buffer_peak_bytes() const { return buffer_.peak_bytes(); }
  uint64_t headroom_drops() const { return headroom_drops_; }

 private:
  struct Ingress {
    uint64_t bytes = 0;           // held for this (ingress port, priority)
    uint64_t headroom_bytes = 0;  // the part of it in headroom
    bool xoff = false;            // PAUSE sent and not yet resumed
    bool refresh_pending = false;
  };
  // The per-packet paths are split so the common lossy one stays small (no
  // register spills for the PFC and credit logic it never runs).
  void OnPfcRefresh(uint64_t tag);
  // XON for ingress slot `slot`: sends RESUME upstream and drops it from
  // xoff_slots_. REQUIRES: ingress_[slot].xoff.
  void Resume(size_t slot);
  // Queues a packet that arrived at `out` if the buffer admits it.
  void Admit(Packet* p, EgressPort& out);
  // Admit at the next hop ChooseNextHop picks (not ECMP). Out of line so
  // that OnEvent's ECMP path, all tail calls, needs no stack frame.
  [[gnu::noinline]] void AdmitToChosenHop(Packet* p);
  void AdmitFlowControlled(Packet* p, EgressPort& out);
  void OnFlowControlledDeparture(Packet* p);
  bool Lossless(int priority) const { return pfc_.enabled && (pfc_.lossless_mask & (1u << priority)); }
  // InfiniBand (every VL) or a lossless PFC priority: admission and
  // departure go through the flow-control bookkeeping.
  bool FlowControlled(int priority) const { return flow_controlled_mask_ & (1u << priority); }
  size_t Slot(PortId in_port, int priority) const;
  uint64_t XoffThreshold() const;
  // XON: nothing of this ingress in headroom and its bytes xon_offset
  // below the XOFF threshold.
  bool XonHolds(const Ingress& in) const {
    return in.headroom_bytes == 0 && in.bytes + pfc_.xon_offset_bytes <= XoffThreshold();
  }
  // A lossless packet found its headroom full with no watchdog to explain
  // it: throws std::logic_error naming the switch, the port and the
  // priority (the CLI's internal error, exit 1), never a silent count.
  [[noreturn, gnu::cold, gnu::noinline]] void FailLosslessDrop(const Packet& p, size_t slot) const;
  PortId ChooseNextHop(Packet* p);
  PortId LeastQueued(std::span<const PortId> hops);
  // LeastQueued among the hops whose link is up (a fault may hold some down).
  PortId LeastQueuedLive(std::span<const PortId> hops);
  // Sends a PFC frame for `priority` upstream over `in_port`; a PAUSE is
  // recorded with its `cause` (see PacketNetwork::pause_causes).
  void SendPfc(PortId in_port, int priority, bool pause, PortId cause);
  // The egress port of this switch with the most bytes queued for
  // `priority`, counting `arriving_bytes` more at `arriving_at` (a packet
  // admitted but not yet queued); ties go to the lowest port id; kNoPort
  // when none holds any.
  PortId MostQueued(int priority, PortId arriving_at, uint32_t arriving_bytes) const;

  // Fixed at construction.
  PacketNetwork& network_;
  const NodeId id_;
  const PfcConfig pfc_;
  const bool credit_fc_;
  const uint8_t flow_controlled_mask_;    // bit p: FlowControlled(p)
  const LoadBalancing load_balancing_;
  const Time flowlet_gap_;
  const bool spray_round_robin_;
  std::vector<PortId> ports_;             // this switch's ports, local order
  std::vector<uint64_t> headroom_limit_;  // per local port
  SharedBuffer buffer_;

  std::vector<Ingress> ingress_;          // [local port * 8 + priority]
  std::vector<uint32_t> xoff_slots_;      // ingress slots in XOFF, in the order they paused
  struct Flowlet {
    Time last_seen;
    PortId port = kNoPort;
  };
  std::unordered_map<uint64_t, Flowlet> flowlets_;  // by (flow, direction)
  uint64_t spray_turn_ = 0;
  std::vector<PortId> live_hops_;  // LeastQueuedLive's scratch
  uint64_t headroom_drops_ = 0;
};

}  // namespace aifabric
