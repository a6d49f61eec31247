// FlowFaults plays a run's link faults (fabric/link_fault.h) on a
// FlowNetwork, in fluid terms. At each transition the links a fault names
// change at once: a dead link's two ports carry nothing (capacity 0, so
// the queue pairs and coflows over them stall at rate 0), and what was on
// its cables is lost and sent again — each fluid crossing a dying port at
// rate x loses x * (the cable's propagation + one full packet's
// serialization) / 8 bytes, the payload on the wire and the packet going
// onto it — while a gray link with a degraded rate runs at that rate.
// `detection` later, if the state held, routing hears of it
// (FaultTimeline): the ECMP groups are rebuilt over the links still up and
// every fluid crossing a link routing holds down re-picks by its own hash
// (spray: re-splits) among the surviving paths; when the repair is
// detected the fluids moved before re-pick in the restored groups, which
// returns them to their first paths. Adaptive routing re-splits at once,
// at the failure and at the repair. Transitions and routing updates are
// background events: faults never keep a run going. Owned by FlowNetwork;
// not thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/data_rate.h"
#include "engine/simulator.h"
#include "fabric/fault_timeline.h"
#include "fabric/link_fault.h"

namespace aifabric {

class FlowNetwork;

class FlowFaults final : public EventHandler {
 public:
  // Schedules every transition of `faults` (from Now()). REQUIRES: as
  // FaultTimeline; the routes `rebuild` makes replace the network's once
  // routing hears of a change.
  FlowFaults(FlowNetwork& network, std::span<const LinkFault> faults, RouteBuilder rebuild);
  FlowFaults(const FlowFaults&) = delete;
  FlowFaults& operator=(const FlowFaults&) = delete;

  // What each fault did so far: packets_lost is none (a fluid has no
  // packets); bytes_resent is the payload its failures destroyed on the
  // wire, which the fluids carry again.
  std::vector<FaultOutcome> Outcomes() const;

  // A transition (tag = 2 x its index) or its routing update (tag odd).
  void OnEvent(uint64_t tag) override;

 private:
  void Apply(size_t transition);
  void UpdateRouting(size_t transition);
  // The port's capacity now: 0 if its link is down, else its link's rate
  // (a gray link's degraded one while it lasts).
  void UpdatePort(PortId port);

  FlowNetwork& network_;
  FaultTimeline timeline_;
  std::vector<uint8_t> down_;         // by LinkId: carries nothing now
  std::vector<DataRate> slow_rate_;   // by LinkId: a gray link's rate now (0: its own)
  std::vector<double> resent_bytes_;  // per fault
};

}  // namespace aifabric
