// LinkFault is one failure of a fabric's links during a run, resolved
// against a topology (links by LinkId), and FaultOutcome what a network
// model saw of it: when it was detected and routed around, what was lost
// and resent. The scenario's `faults:` list becomes LinkFaults in run/;
// the packet and flow models play them (packet/packet_faults.h,
// flow/flow_faults.h). Plain data.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/data_rate.h"
#include "core/ids.h"
#include "core/time.h"

namespace aifabric {

// The closed set of fault kinds a scenario may name (docs/faults.md).
enum class FaultKind : uint8_t { kLinkDown, kLinkFlap, kSwitchDown, kNicPortDown, kGrayLink, kStraggler };

// "link_down", "link_flap", "switch_down", "nic_port_down", "gray_link", "straggler".
const char* FaultKindName(FaultKind kind);

// A fault on one or more links (both directions of each): a link, the
// links of a switch or the link of a NIC port. Down from `at` to `until`
// (Infinite: to the end), or for link_flap down for `down_for` at the start
// of every `period` in [at, until); gray_link carries every packet but
// loses each silently with probability `loss_rate` (no counter records
// it), corrupts each with probability `corruption_rate` (the receiver's
// MAC drops it and counts an FCS error), and/or runs at `rate`. Routing hears of a change
// `detection` after it (Infinite: never, as for silent loss) and only if
// the state held that long.
struct LinkFault {
  FaultKind kind = FaultKind::kLinkDown;
  std::vector<LinkId> links;
  Time at;
  Time until = Time::Infinite();
  Time period;                  // link_flap
  Time down_for;                // link_flap
  double loss_rate = 0;         // gray_link: silent loss, per packet, in [0, 1]
  double corruption_rate = 0;   // gray_link: frames failing their FCS, per packet, in [0, 1]
  DataRate rate;                // gray_link: the rate it runs at (0: its own)
  Time detection = Time::Infinite();
  // > 0: routing hears of a change at the first multiple of this after it
  // (a subnet manager's periodic sweep) instead of `detection` later.
  Time detection_period;
  std::string name;             // as the scenario wrote it, e.g. "leaf0-spine1"
};

// What a model saw of one fault (one per LinkFault, in order).
struct FaultOutcome {
  FaultKind kind = FaultKind::kLinkDown;
  std::string name;
  Time at;
  Time detected = Time::Infinite();   // routing first heard of it; Infinite: never
  Time rerouted = Time::Infinite();   // routes first changed around it; Infinite: never
  // Packets it destroyed (on the wire or sent into it); none: the model
  // moves no packets (flow level).
  std::optional<uint64_t> packets_lost = 0;
  uint64_t bytes_resent = 0;          // payload the flows it hit sent again (docs/faults.md: per level)
  uint64_t route_changes = 0;         // times routing changed for it (away and back)
  uint64_t flows_rerouted = 0;        // flow paths moved by those changes
};

}  // namespace aifabric
