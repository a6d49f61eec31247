// FaultSpec is one item of a scenario's `faults:` list as written: its kind,
// its window and what it names (a link by its two ends, a switch or NIC by
// node, a GPU), not yet resolved against a topology (run/fault_plan.h does
// that). Plain struct; the faults section reader fills it. The default
// detection delays live here, with their sources (docs/faults.md).
#pragma once

#include <optional>
#include <string>

#include "core/data_rate.h"
#include "core/time.h"
#include "fabric/link_fault.h"

namespace aifabric {

// A link down at the PHY: loss of signal is seen within microseconds and,
// with no hold time configured (the usual default, e.g. HPE AOS-CX
// `inter-switch-link hold-time` defaults to 0 s), the switch withdraws the
// port from its ECMP groups; 1 ms for the whole is an estimate, not a
// published figure (configurable per fault: detection).
constexpr Time kPhyLinkDownDetection = Time::FromMs(1);
// BFD, for a gray link when asked (detection: bfd): detection time =
// transmit interval x detect multiplier (RFC 5880 §6.8.4) with FortiOS's
// defaults, 250 ms x 3 (docs.fortinet.com, FortiGate 7.0.7 CLI reference,
// `config router bfd`). A gray link that loses 1% of its packets rarely
// loses 3 BFD packets in a row, so by default a gray link goes undetected.
constexpr Time kBfdDetection = Time::FromMs(750);
// OpenSM's periodic heavy sweep, OSM_DEFAULT_SWEEP_INTERVAL_SECS = 10 s
// (linux-rdma/opensm include/opensm/osm_base.h): the longest an InfiniBand
// fabric waits to reroute (docs/faults.md: not modelled yet).
constexpr Time kOpensmSweepInterval = Time::FromMs(10'000);

struct FaultSpec {
  FaultKind kind = FaultKind::kLinkDown;
  Time at;
  Time until = Time::Infinite();  // Infinite: to the end of the run
  std::string a, b;               // link: [a, b] (link_down, link_flap, gray_link)
  int link_index = 0;             // index: which of the parallel links joining a and b (0 = the first)
  std::string node;               // switch_down: a switch; nic_port_down: a host (NIC)
  int nic_port = -1;              // nic_port_down: only the NIC's link of this index (-1: all of them)
  int gpu = -1;                   // straggler: the GPU's global index
  double loss_rate = 0;           // gray_link: silent loss, per packet
  double corruption_rate = 0;     // gray_link: frames failing their FCS, per packet
  DataRate rate;                  // gray_link: a degraded rate (0: not given)
  Time period, down_for;          // link_flap
  double factor = 1;              // straggler: compute speed, in (0, 1]
  // How long until routing reacts; unset: the kind's default (the PHY's
  // for a link that goes down, never for a gray one); Infinite: never.
  std::optional<Time> detection;
  std::string path;               // "faults.N", for messages
};

}  // namespace aifabric
