// HostNic is a host's network interface in the packet model. Sending: it
// keeps the active flows of each of its ports by class (the queue their
// priority maps to) and, whenever a port's wire is free, pulls the next
// packet: among the classes with a flow ready to send, the one a switch
// egress port would serve (strict priority, then DWRR by weight: the same
// QueueScheduler), and within the class the next flow in round robin (one
// packet per flow per turn, like a NIC arbitrating among queue pairs),
// asking each flow's PacketSender what to send. One difference from a
// switch port: a class alone on a port sends without arbitration, so
// InfiniBand's high-table run (LimitOfHighPriority's count) grows only
// while classes compete. Receiving: it counts delivered payload and frees
// the packet. Owned by PacketNetwork; not thread-safe.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "core/ids.h"
#include "engine/simulator.h"
#include "packet/egress_port.h"
#include "packet/queue_scheduler.h"

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
  // The flows of one class on a port.
  struct ClassFlows {
    std::vector<uint32_t> active;   // flow indices with something left to send
    size_t next = 0;                // round-robin position
  };
  struct PortFlows {
    PortFlows(PortId id, const PacketConfig& config) : port(id), scheduler(config) {}
    PortId port;
    std::array<ClassFlows, kNumPriorities> classes;  // by queue (the priority; InfiniBand: the VL)
    uint8_t classes_mask = 0;   // bit q: classes[q] has flows
    uint8_t deficit_dirty = 0;  // bit q: the scheduler may hold a deficit for q
    bool wake_scheduled = false;
    QueueScheduler scheduler;   // among classes, as at a switch egress port
  };
  size_t IndexOf(PortId port) const;
  // Moves class q's round-robin position to its next flow that may send
  // now and returns true, or returns false, having lowered `earliest` to
  // the first time one of them may (pacing). Drops the flows that are done
  // or failed over to another port.
  [[gnu::always_inline]] inline bool FindReady(PortFlows& pf, int q, Time now, Time& earliest);
  // The wire bytes of the packet class q's ready flow would send.
  // REQUIRES: FindReady(pf, q, ...) returned true.
  uint32_t NextWireBytes(const PortFlows& pf, int q);
  // Makes and returns the next packet of class q's ready flow. (It and
  // FindReady are Pull's per-packet steps, inlined into it.)
  // REQUIRES: FindReady(pf, q, ...) returned true.
  [[gnu::always_inline]] inline Packet* SendNext(PortFlows& pf, int q);

  // Fixed at construction.
  PacketNetwork& network_;
  const NodeId id_;
  const uint32_t wire_overhead_;

  std::vector<PortFlows> ports_;
};

}  // namespace aifabric
