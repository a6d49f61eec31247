// FaultGate stands between an EgressPort on a faulted link and the node at
// the far end: every packet the port sends reaches the gate when it would
// reach the node, and the gate passes it on unless the link destroyed it —
// the link was down at some instant between the packet's first bit leaving
// and its arrival (a packet on the wire when the link fails is lost, as is
// one sent into a dead link), or, on a gray link, a draw of the link's own
// generator fell below its loss rate (the packet vanishes silently, as in
// a switch ASIC that drops without counting) or, failing that, a second
// draw fell below its corruption rate (the receiver's MAC drops a frame
// that fails its FCS). Only faulted links get one, so the others pay
// nothing.
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
// How a gate destroyed a packet: which counters see it.
enum class LinkLoss : uint8_t {
  kCut,        // the link was down: a drop of the sending port
  kCorrupted,  // failed its FCS: a drop and an FCS error of the sending port
  kSilent,     // vanished: no counter anywhere
};

struct FaultedLink {
  explicit FaultedLink(Rng generator) : rng(generator) {}
  bool down = false;
  double loss_rate = 0;                 // gray: silent loss, per packet
  double corruption_rate = 0;           // gray: FCS failures, per packet
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
