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
#pragma once

#include "core/result.h"
#include "fabric/clos_sizing.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric {

struct LeafSpineShape {
  int hosts_per_leaf = 0;
  int leaves_per_group = 0;   // leaves under each group of hosts (a rail)
  int leaves = 0;             // groups * leaves_per_group
  UplinkPlan spines;          // spines.upper spines, spines.links_each links per leaf-spine pair
};

// Sizes leaves and spines for `groups` groups of `hosts_per_group` hosts,
// each group on its own leaves and all leaves under one spine layer
// (leaf_spine: one group of all hosts; rail_optimized: one group per rail).
// Checks the spec's common fields too. REQUIRES: hosts_per_group >= 1, groups >= 1
// (true once ValidateClusterAndSwitch passed).
Result<LeafSpineShape> SizeLeafSpine(const TopologySpec& spec, int hosts_per_group, int groups);

// Builds the leaf-spine fabric `spec` describes.
Result<Topology> BuildLeafSpine(const TopologySpec& spec);

}  // namespace aifabric
