// HostNic is a host's network interface in the packet model. Sending: it
// keeps the active flows of each of its ports and, whenever a port's wire is
// free, pulls the next packet from them in round robin (one packet per flow
// per turn, like a NIC arbitrating among queue pairs), asking each flow's
// PacketSender what to send. Receiving: it counts delivered payload and
// frees the packet. Owned by PacketNetwork; not thread-safe.
#pragma once

#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "engine/simulator.h"
#include "packet/egress_port.h"

namespace aifabric {

class PacketNetwork;

class HostNic final : public EventHandler, public PacketSource {
 public:
  HostNic(PacketNetwork& network, NodeId id, const std::vector<PortId>& ports);
  HostNic(const HostNic&) = delete;
  HostNic& operator=(const HostNic&) = delete;

  // Adds a flow (by index) to the port it was hashed onto, and wakes the port.
  void AddFlow(uint32_t flow_index, PortId port);
  // A multi-homed NIC's flow failed over to `port` (its FlowState's
  // first_port already says so): it joins that port's flows unless it is
  // there already, and leaves the old port's at that port's next turn.
  void MoveFlow(uint32_t flow_index, PortId port);

  // A packet arrived (tag = Packet*, always even), or a sender's pacing
  // wake-up for the port at index tag >> 1 (tag odd).
  void OnEvent(uint64_t tag) override;
  // The port's wire is free: the next packet of a flow whose priority is
  // allowed, or nullptr.
  Packet* Pull(PortId port, uint8_t allowed) override;

 private:
  struct PortFlows {
    PortId port = kNoPort;
    std::vector<uint32_t> active;   // flow indices with something left to send
    size_t next = 0;                // round-robin position
    bool wake_scheduled = false;
  };
  size_t IndexOf(PortId port) const;

  // Fixed at construction.
  PacketNetwork& network_;
  const NodeId id_;
  const uint32_t wire_overhead_;

  std::vector<PortFlows> ports_;
};

}  // namespace aifabric
