// The cabling plan of a fabric: cabling.csv, one row per physical link
// (switch,port,peer,peer_port,cable_type,reach_m), its length from the
// link's propagation latency and its cable type from a rule the caller
// passes (the hardware catalog's cables, or DefaultCableType). Stateless;
// thread-safe.
#pragma once

#include <functional>
#include <string>

#include "core/data_rate.h"
#include "core/time.h"
#include "fabric/topology.h"
#include "packet/packet_config.h"

namespace aifabric {

// The cable (or transceiver) type for a link of `rate` and `length_m`.
using CableTypeRule = std::function<std::string(DataRate rate, double length_m)>;

// Signal speed in a cable: 1.98e8 m/s (about 5.05 ns/m), the figure SONiC's
// headroom model uses (sonic-net/sonic-swss cfgmgr/buffer_headroom_mellanox.lua;
// REFERENCES.md 3), so cable length = latency x 1.98e8 m/s.
inline constexpr double kCableMetersPerSecond = 1.98e8;
inline double CableLengthM(Time latency) { return latency.seconds() * kCableMetersPerSecond; }

// The rule `aifabric validate --config` uses, by length at the link's rate
// ("400G-DAC", ...): DAC up to 3 m, AOC up to 30 m, multimode SR optics up
// to 100 m, single-mode DR up to 500 m, FR up to 2 km, LR up to 10 km, ZR
// beyond. Sources in cabling_plan.cc.
std::string DefaultCableType(DataRate rate, double length_m);

// The length of a link between tiers `lower` < `upper` (0 = a host) whose
// propagation latency is `latency`: the planner's per-tier cable lengths.
using CableLengthRule = std::function<double(int lower, int upper, Time latency)>;

// cabling.csv of `topology`: a header line, then one row per link, the
// switch end first (of two switches, the lower tier, then the lower node
// id), sorted by that end's node id and port; ports named as
// switch_port_names.h says; reach_m the length rounded up to 0.1 m, from
// `length` when given, else from the latency (CableLengthM).
std::string CablingCsv(const Topology& topology, FabricKind kind, const CableTypeRule& cable_type,
                       const CableLengthRule& length = {});

}  // namespace aifabric
