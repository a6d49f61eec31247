// The 2-tier leaf-spine (folded Clos) builder. Hosts first (see AddHosts),
// then leaves "leaf<i>" (tier 1), then spines "spine<j>" (tier 2). Leaf i
// holds hosts [i*hosts_per_leaf, (i+1)*hosts_per_leaf), so a server's NICs
// share a leaf unless a leaf boundary falls inside the server. Every leaf
// links to every spine with the same number of parallel links.
//
// Sizing, with o = fabric.topology.oversubscription (leaf downlink capacity
// / uplink capacity), R = switch radix, host rate h = min(nic, port rate),
// port rate p:
//   hosts_per_leaf = largest n with n + ceil(n*h/(o*p)) <= R
//                    (= floor(R*o/(1+o)) when h == p), capped at the hosts;
//   uplinks u      = ceil(hosts_per_leaf * h / (o * p));
//   spines         = u, one link from each leaf to each spine; an explicit
//                    spine count S gives ceil(u/S) links to each spine (u
//                    rounded up to a multiple of S, so paths stay equal-cost);
//   leaves         = ceil(hosts / hosts_per_leaf); a spine needs
//                    leaves * links_each <= R ports.
// Spines are built even when there is a single leaf, so the shape does not
// change with the cluster size.
//
// dual_tor: leaves come in ToR pairs (leaf 2i, 2i+1) that hold the same
// hosts_per_leaf hosts, each host with one link to each, at half the NIC
// rate (h above is that rate, so a 400G NIC sizes as two 200G downlinks);
// leaves = 2 x ceil(hosts / hosts_per_leaf) and the spines' ports count
// both. The pair has no link between its ToRs (HPN's non-stacked dual-ToR).
// planes: the leaves and spines above are built `planes` times (plane p:
// leaves [p*leaves, (p+1)*leaves), spines likewise), each plane wired only
// within itself, and every host links into every plane (clos_sizing.h,
// AttachHost). Numbering runs on across planes: leaf<i>, spine<j>.
#pragma once

#include "core/result.h"
#include "fabric/clos_sizing.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric {

struct LeafSpineShape {
  int hosts_per_leaf = 0;
  int leaves_per_group = 0;   // leaves under each group of hosts (a rail)
  int leaves = 0;             // groups * leaves_per_group, in each plane
  UplinkPlan spines;          // spines.upper spines, spines.links_each links per leaf-spine pair
};

// Sizes leaves and spines for `groups` groups of `hosts_per_group` hosts,
// each group on its own leaves and all leaves under one spine layer
// (leaf_spine: one group of all hosts; rail_optimized: one group per rail).
// Checks the spec's common fields too. REQUIRES: hosts_per_group >= 1, groups >= 1
// (true once ValidateClusterAndSwitch passed).
Result<LeafSpineShape> SizeLeafSpine(const TopologySpec& spec, int hosts_per_group, int groups);

// Wires every plane's leaves to its spines: plane p's leaves
// [first_leaf + p*leaves, ...) to its spines [first_spine + p*upper, ...),
// shape.spines.links_each links per pair.
void WirePlanes(const TopologySpec& spec, Topology& topology, const LeafSpineShape& shape, NodeId first_leaf,
                NodeId first_spine);

// Builds the leaf-spine fabric `spec` describes.
Result<Topology> BuildLeafSpine(const TopologySpec& spec);

}  // namespace aifabric
