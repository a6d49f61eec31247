// SwitchNode is a switch in the packet model: a packet that arrives (after
// the port-to-port latency, which its upstream port already added) is
// forwarded to its ECMP next hop (from its flow's cached path), admitted to the shared buffer by dynamic
// threshold or dropped at the tail, and queued at that egress port.
// Owned by PacketNetwork; not thread-safe.
#pragma once

#include <cstdint>

#include "core/ids.h"
#include "engine/simulator.h"
#include "packet/shared_buffer.h"

namespace aifabric {

class PacketNetwork;

class SwitchNode final : public EventHandler {
 public:
  SwitchNode(PacketNetwork& network, NodeId id, SharedBuffer& buffer)
      : network_(network), id_(id), buffer_(buffer) {}
  SwitchNode(const SwitchNode&) = delete;
  SwitchNode& operator=(const SwitchNode&) = delete;

  // A packet arrived (tag = Packet*).
  void OnEvent(uint64_t tag) override;

 private:
  // Fixed at construction.
  PacketNetwork& network_;
  const NodeId id_;
  SharedBuffer& buffer_;
};

}  // namespace aifabric
