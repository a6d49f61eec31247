// PacketFaults plays a run's link faults (fabric/link_fault.h) on a
// PacketNetwork. At each transition of a fault the links it names change
// state at once — their FaultGates destroy what crosses a dead link and
// a gray link's silent losses and corrupted frames, a gray link with a
// degraded rate serializes at it — and, `detection` later, if the state still holds,
// routing hears of it: the switches' ECMP groups are rebuilt without the
// links routing holds down (shortest paths over the rest), the flows whose
// path (data or feedback) crosses such a link re-pick among the surviving
// paths by their hash, and, when a link comes back, the flows moved before
// return to the choice the table then gives. Adaptive routing avoids a
// dead port at once (SwitchNode asks LinkDown). Transports recover the
// lost packets as they always do (NAK, go-back-N, timeouts).
// Transitions and routing updates are background events: faults never keep
// a run going. Owned by PacketNetwork; not thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <span>
#include <utility>
#include <vector>

#include "core/time.h"
#include "engine/simulator.h"
#include "fabric/fault_timeline.h"
#include "fabric/link_fault.h"
#include "packet/egress_port.h"
#include "packet/fault_gate.h"
#include "packet/packet.h"

namespace aifabric {

class PacketNetwork;

class PacketFaults final : public EventHandler {
 public:
  // Schedules every transition of `faults` (from Now()). REQUIRES: each
  // fault's links exist; link_flap has a finite until and period > 0; the
  // routes `rebuild` makes over the links up replace the network's own
  // once routing hears of a change.
  PacketFaults(PacketNetwork& network, std::span<const LinkFault> faults, RouteBuilder rebuild);
  PacketFaults(const PacketFaults&) = delete;
  PacketFaults& operator=(const PacketFaults&) = delete;

  // Whether `link` is down now (adaptive routing steers around it).
  bool LinkDown(LinkId link) const {
    const int i = index_[static_cast<size_t>(link)];
    return i >= 0 && links_[static_cast<size_t>(i)]->down;
  }
  // A gate destroyed `p`, sent by `port` over `link`: charged to the fault,
  // counted by `port` as `how` says (a drop; an FCS error too when
  // corrupted; nothing when silent), freed.
  void OnLost(Packet* p, FaultedLink& link, EgressPort& port, LinkLoss how);
  std::vector<FaultOutcome> Outcomes() const;

  // A transition (tag = 2 x its index) or its routing update (tag odd).
  void OnEvent(uint64_t tag) override;

 private:
  void Apply(size_t transition);
  void UpdateRouting(size_t transition);
  FaultedLink& LinkOf(LinkId link) { return *links_[static_cast<size_t>(index_[static_cast<size_t>(link)])]; }

  PacketNetwork& network_;
  FaultTimeline timeline_;
  std::vector<int> index_;                            // by LinkId: into links_, -1 if never faulted
  std::vector<std::unique_ptr<FaultedLink>> links_;   // stable addresses: the gates hold them
  std::vector<std::unique_ptr<FaultGate>> gates_;
  std::vector<std::set<uint32_t>> hit_flows_;         // per fault: the flows it destroyed packets of
};

}  // namespace aifabric
