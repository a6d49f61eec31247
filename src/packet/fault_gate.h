// FaultGate stands between an EgressPort on a faulted link and the node at
// the far end: every packet the port sends reaches the gate when it would
// reach the node, and the gate passes it on unless the link destroyed it —
// the link was down at some instant between the packet's first bit leaving
// and its arrival (a packet on the wire when the link fails is lost, as is
// one sent into a dead link), or, on a gray link, a draw of the link's own
// generator fell below its loss rate (the receiver's MAC drops a frame that
// fails its FCS). Only faulted links get one, so the others pay nothing.
// Owned by PacketFaults; not thread-safe.
#pragma once

#include <cstdint>

#include "core/rng.h"
#include "core/time.h"
#include "engine/simulator.h"
#include "packet/egress_port.h"
#include "packet/packet.h"

namespace aifabric {

class PacketFaults;

// The state of one faulted link, shared by the gates of its two directions.
struct FaultedLink {
  explicit FaultedLink(Rng generator) : rng(generator) {}
  bool down = false;
  double loss_rate = 0;                 // gray: per packet
  Time last_down_at = Time::FromPs(-1);  // the latest instant the link went down (-1: never)
  uint32_t fault = 0;                   // the fault losses are charged to
  Rng rng;                              // gray losses, independent of the run's draws
};

class FaultGate final : public EventHandler {
 public:
  // Interposes itself on `port`, whose receiver it remembers.
  FaultGate(PacketFaults& faults, EgressPort& port, FaultedLink& link);
  FaultGate(const FaultGate&) = delete;
  FaultGate& operator=(const FaultGate&) = delete;

  // A packet arrives (tag = Packet*).
  void OnEvent(uint64_t tag) override;

 private:
  PacketFaults& faults_;
  EgressPort& port_;
  FaultedLink& link_;
  EventHandler* const receiver_;
};

}  // namespace aifabric
