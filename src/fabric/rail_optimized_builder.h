// The rail-optimized 2-tier builder: NIC r of every server (rail r) attaches
// to leaves that carry only rail r, and one spine layer connects all leaves.
// Same-rail traffic between servers under one leaf crosses one switch;
// everything else goes leaf-spine-leaf (the NCCL "rail" pattern keeps
// collective traffic on one rail, PXN moves cross-rail hops onto NVLink).
//
// Shape, with R = nics_per_server rails and N = servers:
//   hosts first (host id = server * R + rail, see AddHosts);
//   servers_per_leaf  = hosts_per_leaf, sized as in leaf_spine_builder.h but
//                       capped at N (a leaf holds one rail of that many servers);
//   leaves_per_rail   = ceil(N / servers_per_leaf);
//   leaves            = R * leaves_per_rail, rail-major: "leaf<i>" with
//                       i = rail * leaves_per_rail + server / servers_per_leaf;
//   spines "spine<j>" above all leaves, as in leaf_spine (every leaf to every
//                       spine with the same number of parallel links).
// dual_tor and planes as in leaf_spine_builder.h: each rail's leaves come in
// ToR pairs (leaves_per_rail = 2 x ceil(N / servers_per_leaf); the pair of
// server s, rail r: leaves r*leaves_per_rail + 2*(s / servers_per_leaf) and
// the next), and the whole two tiers repeat per plane.
// With spec.tiers == 3, or tiers == 0 and a cluster one spine layer cannot
// hold, it builds 3 tiers: rail leaves in pods under aggregation switches
// "agg<i>" and cores "core<i>", sized as the fat-tree (fat_tree_builder.h,
// "Rail-optimized, 3 tiers"). tiers == 2 never does.
#pragma once

#include "core/result.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric {

// Builds the rail-optimized fabric `spec` describes.
Result<Topology> BuildRailOptimized(const TopologySpec& spec);

}  // namespace aifabric
