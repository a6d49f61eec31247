// FaultTimeline is what every network model shares of playing a run's link
// faults (link_fault.h): their transitions in time order, each faulted
// link's latest change, which links routing holds down once it has heard
// of a change, the routing table for that set (rebuilt over the links
// still up once per distinct set) and each fault's outcome so far. A model
// schedules the transitions, changes its own links at each one (Apply),
// and a detection delay later asks Detect whether routing moves; what a
// link does while it is down (destroy packets, carry nothing) is the
// model's. Not thread-safe; owned by the model playing the faults.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "core/result.h"
#include "core/time.h"
#include "fabric/link_fault.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"

namespace aifabric {

// Routes over a topology with the links marked in `down` (by LinkId,
// non-zero: down) taken out, as the fabric's routing builds them once it
// has converged: shortest paths for Ethernet, the subnet manager's engine
// for InfiniBand.
using RouteBuilder = std::function<RoutingTable(std::span<const uint8_t> down)>;

// The default RouteBuilder: RoutingTable::BuildShortestPaths over the links up.
RouteBuilder ShortestPathRoutes(const Topology& topology);

// Refuses faults routing would hear of (a finite detection) on InfiniBand
// forwarding tables (routes.forwarding()) without a `rebuild` of their
// own: shortest paths are not what the subnet manager computes.
Status CheckRebuild(std::span<const LinkFault> faults, const RoutingTable& routes, const RouteBuilder& rebuild);

class FaultTimeline {
 public:
  struct Transition {
    Time at;
    uint32_t fault;  // index into faults()
    bool on;         // the fault starts (down, lossy, slow) from now; else it ends
  };

  // `base` is the routing without faults and must outlive this.
  // REQUIRES: each fault's links exist; link_flap has a finite until and
  // period > 0; `rebuild` non-empty.
  FaultTimeline(const Topology& topology, const RoutingTable& base, std::span<const LinkFault> faults,
                RouteBuilder rebuild);
  FaultTimeline(const FaultTimeline&) = delete;
  FaultTimeline& operator=(const FaultTimeline&) = delete;

  const std::vector<LinkFault>& faults() const { return faults_; }
  // Every transition, by time (at one instant, in the order the faults
  // were written): a link_flap's down and up of every period, the others'
  // start and (if finite) end.
  const std::vector<Transition>& transitions() const { return transitions_; }

  // Transition `i` takes place at `now`: its links' latest change.
  void Apply(size_t i, Time now);
  // When routing is due to hear of transition `i` (the fault's detection
  // after it, or its first periodic sweep after it); Infinite: never.
  Time DetectionAt(size_t i) const;
  // Transition `i`'s detection delay has passed at `now`. Routing hears of
  // it only if every link of its fault kept that state since (a link-down
  // hold timer): then the fault counts as detected (a start), and the
  // links become held down (a start) or up again (an end). Returns whether
  // the set of links routing holds down changed, in which case the caller
  // installs RoutesNow() and moves its flows, adding them to
  // outcome(fault).flows_rerouted.
  bool Detect(size_t i, Time now);

  // By LinkId, non-zero: routing holds the link down.
  std::span<const uint8_t> routed_down() const { return routed_down_; }
  // The routes for routed_down(): the base ones when none is held down.
  const RoutingTable& RoutesNow() { return RoutesAvoiding(routed_down_); }
  // The routes avoiding the links marked in `down` (by LinkId), each
  // distinct set built once (a flap repeats one set).
  const RoutingTable& RoutesAvoiding(std::span<const uint8_t> down);

  FaultOutcome& outcome(uint32_t fault) { return outcomes_[fault]; }
  const std::vector<FaultOutcome>& outcomes() const { return outcomes_; }

 private:
  const RoutingTable& base_;
  RouteBuilder rebuild_;
  std::vector<LinkFault> faults_;
  std::vector<Transition> transitions_;
  std::vector<Time> last_change_;     // by LinkId: its latest transition (-1 ps: none)
  std::vector<uint8_t> routed_down_;  // by LinkId
  std::vector<std::pair<std::vector<uint8_t>, std::unique_ptr<RoutingTable>>> tables_;
  std::vector<FaultOutcome> outcomes_;
};

}  // namespace aifabric
