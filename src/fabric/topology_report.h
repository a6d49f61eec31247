// TopologyReport summarizes a built fabric for `aifabric validate` and for
// design comparison: node and link counts, host bandwidth, oversubscription
// per switch tier and bisection bandwidth. A plain value computed once from
// a Topology; thread-safe to read.
//
// Definitions (capacities count one direction of each link, at its rate):
//  * oversubscription of switch tier t = total capacity of links between a
//    tier-t switch and a tier t-1 node (down) / total capacity of links
//    between a tier-t switch and a tier t+1 switch (up). A tier with no
//    uplinks (the top tier) has none; it is reported as 0 with has_uplinks
//    false.
//  * crossing capacity between tiers t and t+1 = total capacity of links with
//    one end in tier t and the other in tier t+1 (tier 0 = hosts).
//  * bisection bandwidth = half the minimum crossing capacity over all
//    consecutive tier pairs (host-leaf, leaf-spine, ...). For a symmetric Clos
//    this is the capacity across a worst-case cut into two equal halves of
//    hosts (a k-ary fat-tree: hosts * rate / 2); for irregular fabrics it is
//    an upper bound on that cut. Links that skip a tier, stay within a tier,
//    or touch a switch of unknown tier (-1) are counted in `links` but in no
//    crossing.
#pragma once

#include <string>
#include <vector>

#include "fabric/topology.h"

namespace aifabric {

struct TierReport {
  int tier = 0;              // 1, 2, 3, ...
  int switches = 0;
  double down_gbps = 0;      // capacity to tier t-1
  double up_gbps = 0;        // capacity to tier t+1
  bool has_uplinks = false;
  double oversubscription = 0;  // down / up; 0 when !has_uplinks
};

struct TopologyReport {
  int hosts = 0;
  int switches = 0;
  int links = 0;
  int unknown_tier_switches = 0;     // switches with tier -1
  double host_bandwidth_gbps = 0;    // sum over hosts of their links' rates
  // Links per host (NIC), the fewest and the most, and the most distinct
  // switches one host links to: 2 and 2 for a dual-ToR fabric (each NIC to
  // a ToR pair), 2N and 2N for dual-ToR over N planes, 1 and 1 otherwise.
  int min_host_links = 0;
  int max_host_links = 0;
  int max_host_switches = 0;
  std::vector<TierReport> tiers;     // tiers[i].tier == i + 1, up to max_tier()
  std::vector<double> crossing_gbps; // [t] = capacity between tier t and t+1
  double bisection_gbps = 0;
  std::vector<std::string> switch_specs;  // names of the specs in use
};

TopologyReport MakeTopologyReport(const Topology& topology);

// A human-readable table for `aifabric validate`, e.g.
//   hosts 192, switches 34 (leaf 2, spine 32), links 256
//   switch: 128x400G
//   host bandwidth: 76.8Tbps
//   (only when a host has several links:)
//   host links: 2 per NIC, to 2 switches (multi-homed)
//   bisection bandwidth: 12.8Tbps (half the narrowest tier crossing)
//   tier   name    switches         down           up  oversubscription
//   1      leaf           2     76.8Tbps     25.6Tbps  3.0
//   2      spine         32     25.6Tbps            -  - (no uplinks)
std::string FormatReport(const TopologyReport& report);

}  // namespace aifabric
