// FlowState is what the packet-level model keeps per transfer: the request,
// its sender, and byte counts at both ends. Owned by PacketNetwork in a
// dense vector indexed by Packet::flow_index.
#pragma once

#include <cstdint>
#include <memory>

#include "core/time.h"
#include "fabric/network_model.h"
#include "packet/packet_sender.h"
#include "packet/transport_hooks.h"

namespace aifabric {

struct FlowState {
  // Touched per packet (at the source and at the destination) first.
  std::unique_ptr<PacketSender> sender;
  std::unique_ptr<FlowReceiver> receiver;  // null without a transport
  TransferRequest request;          // this queue pair's share of the transfer
  uint32_t route_offset = 0;       // its ports, hop by hop, in the route arena
  uint32_t reverse_route_offset = 0;  // the path its feedback takes back
  uint64_t sent_bytes = 0;         // payload put on the wire by the source
  uint64_t delivered_bytes = 0;    // payload the destination holds in order
  // Per flow.
  uint32_t transfer = 0;            // index of the transfer it belongs to
  PortId first_port = kNoPort;     // the source host's port this flow uses
  Time start;
  Time finish = Time::Infinite();  // when the last payload byte arrived
  uint64_t dropped_bytes = 0;      // payload lost in switch buffers
  TransportCounters transport;
  bool done() const { return !finish.IsInfinite(); }
};

}  // namespace aifabric
