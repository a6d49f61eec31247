// PFC's claim on a switch's buffer: the headroom each (port, lossless
// priority) reserves, and the shared pool its XOFF/XON thresholds need to
// pause and resume without starving the egress. SwitchNode reserves exactly
// this headroom, and the scenario check (run/fabric_setup.h) refuses a
// switch whose buffer cannot hold the sum, so both read one calculation.
// Pure functions; thread-safe.
#pragma once

#include <cstdint>

#include "core/time.h"
#include "fabric/topology.h"
#include "packet/packet_config.h"

namespace aifabric {

// Wire bytes of a PFC frame: the 64-byte minimum frame + 20 of
// preamble/SFD and inter-frame gap.
constexpr uint32_t kPfcFrameWireBytes = 64 + 20;

// IEEE 802.3 Annex 31B.3.7 worst-case PAUSE response delay, in quanta of
// 512 bit times, by link speed (SONiC buffer_headroom_mellanox.lua table:
// 905 at 400G and up, 453 at 200G, 394 at 100G, 147, 118, 80, 67).
uint64_t PfcPeerResponseQuanta(DataRate rate);

// Headroom reserved per lossless priority on the ingress link `port`
// (its rate and cable latency): the bytes that keep arriving after this
// switch sends PAUSE, for the PAUSE's own serialization + the cable both
// ways + this switch's forwarding pipeline (`switch_latency`) at the link
// rate, plus the upstream's response time (PfcPeerResponseQuanta x 64 B),
// plus two maximum frames (the one the upstream had started and the one
// arriving here).
uint64_t PfcHeadroomBytes(const Port& port, Time switch_latency, uint32_t max_wire_bytes);

// What one switch's lossless configuration needs of its buffer.
struct LosslessBufferNeed {
  int ports = 0;                     // the switch's ports
  int lossless_priorities = 0;       // PFC priorities
  uint64_t headroom_bytes = 0;       // sum over ports x lossless priorities of PfcHeadroomBytes
  uint64_t max_port_headroom_bytes = 0;  // the largest PfcHeadroomBytes of one port
  bool uniform_headroom = true;      // every port reserves the same headroom
  // The shared pool the thresholds need: an ingress alone on its egress
  // gets XON only once its bytes b satisfy b + xon_offset <= alpha x (pool
  // - b), i.e. b <= (alpha x pool - xon_offset) / (1 + alpha); for its
  // egress not to run dry before resumed traffic arrives, b must still hold
  // one pause round trip, which is at most the port's headroom H. So
  // pool >= ((1 + alpha) x H + xon_offset) / alpha, rounded up.
  uint64_t shared_bytes = 0;
  uint64_t total_bytes() const { return headroom_bytes + shared_bytes; }
};

// The need of switch `id` under `config`; all zero when PFC is off or the
// fabric is InfiniBand (credits, not headroom).
// REQUIRES: `id` is a switch of `topology`.
LosslessBufferNeed SwitchLosslessBufferNeed(const Topology& topology, NodeId id, const PacketConfig& config);

}  // namespace aifabric
