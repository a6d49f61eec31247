// The 3-tier fat-tree (Clos) builder: edge switches "leaf<i>" (tier 1) hold
// the hosts, aggregation switches "agg<i>" (tier 2) sit in pods with the
// edges, core switches "core<i>" (tier 3) join the pods. Node ids: hosts
// first (see AddHosts), then all leaves, all aggs, all cores; leaves and aggs
// are numbered pod-major and carry Node::pod.
//
// Wiring: leaf i holds hosts [i*hosts_per_leaf, (i+1)*hosts_per_leaf) and
// sits in pod i / leaves_per_pod; every leaf links to every agg of its pod
// with edge_agg_links links; agg a of each pod (a = index within the pod)
// links to every core of core group a (cores [a*cores_per_group,
// (a+1)*cores_per_group)) with agg_core_links links.
//
// Two ways to size it:
//  * k > 0: the standard k-ary fat-tree (Al-Fares et al., SIGCOMM 2008):
//    k/2 hosts per leaf, k/2 leaves and k/2 aggs per pod, (k/2)^2 cores in
//    k/2 groups, single links; at most k^3/4 hosts. Requires k even and
//    <= radix, both oversubscriptions 1 and the other knobs 0.
//    With fewer than k^3/4 hosts the hosts fill pods in order and only the
//    pods holding a host are built (each complete, k/2 leaves + k/2 aggs);
//    all (k/2)^2 cores are always built. A full k-ary tree has k^3/4 hosts,
//    5k^2/4 switches and 3k^3/4 links.
//  * k == 0, general radix R, o = oversubscription (at the leaf), oa =
//    agg_oversubscription (at the agg); p = port rate, h = host link rate:
//      hosts_per_leaf  = largest n with n + ceil(n*h/(o*p)) <= R, or given;
//      leaf uplinks u  = ceil(hosts_per_leaf*h/(o*p));
//      aggs_per_pod    = u (one link to each), or given A (ceil(u/A) links each);
//      leaves_per_pod  = largest E with d + ceil(d/oa) <= R, d = E * edge_agg_links,
//                        capped at the leaves needed; or given;
//      pods            = ceil(leaves / leaves_per_pod), each built complete;
//      agg uplinks ua  = ceil(leaves_per_pod*edge_agg_links / oa);
//      cores           = aggs_per_pod * G, G = the smallest divisor of ua with
//                        G >= ceil(pods * ua / R): the fewest cores per group
//                        whose ports hold the group's links, ua / G links from
//                        each agg to each core of its group (a full tree,
//                        pods = R, gets G = ua: one link each); or given C, a
//                        multiple of aggs_per_pod, with ceil(ua / (C/aggs_per_pod))
//                        links each;
//      a core needs pods * agg_core_links <= R ports.
//    dual_tor (radix sizing only; k-ary refuses it): h is half the NIC
//    rate, every ToR group is a pair of leaves holding the same hosts
//    (leaves = 2 x the groups), leaves_per_pod is rounded down to an even
//    count so a pair shares its pod, and the aggs count both leaves' links.
//  * planes: the three tiers above are built `planes` times, each wired
//    only within itself; plane p's leaves, aggs and cores follow plane
//    p-1's in each tier (numbering runs on), its pods are p*pods .. ,
//    and every host links into every plane (clos_sizing.h, AttachHost).
#pragma once

#include "core/result.h"
#include "fabric/topology.h"
#include "fabric/topology_spec.h"

namespace aifabric {

struct FatTreeShape {
  int hosts_per_leaf = 0;
  int leaves_per_pod = 0;
  int aggs_per_pod = 0;
  int pods = 0;
  int edge_agg_links = 0;    // parallel links from a leaf to each agg of its pod
  int cores_per_group = 0;   // cores reached by one agg; groups = aggs_per_pod
  int agg_core_links = 0;    // parallel links from an agg to each core of its group
  // 0: leaf i holds hosts [i*hosts_per_leaf, ...). > 0 (rail-optimized, the
  // NICs per server): a pod's leaves are rail-major, leaves_per_pod / rails
  // per rail, each holding that rail's NIC of hosts_per_leaf servers.
  int rails = 0;
  // Leaves per ToR group: 2 with dual_tor (the pair LeafOf gives and the
  // next leaf, in one pod, holding the same hosts), else 1. leaves_per_pod
  // is a multiple of it (of rails x it, rail-optimized).
  int tor_sides = 1;
  // Per plane; BuildFatTree builds spec.planes copies.
  int cores() const { return aggs_per_pod * cores_per_group; }
};

// Rail-optimized, 3 tiers (spec.type == kRailOptimized; BuildRailOptimized
// calls these): sized by radix as above, except that a leaf holds one rail
// (NIC r) of hosts_per_leaf servers (capped at the servers), leaves_per_pod
// is rounded down to a multiple of the rails, and a pod holds
// leaves_per_pod / rails x hosts_per_leaf whole servers: server s, rail r
// sits on leaf pod*leaves_per_pod + r*(leaves_per_pod/rails) +
// (s mod servers_per_pod) / hosts_per_leaf. Same-rail traffic inside a pod
// crosses leaf-agg-leaf; the aggs and cores are the fat-tree's.

// Sizes the fabric (either way above) and checks every radix fits.
Result<FatTreeShape> SizeFatTree(const TopologySpec& spec);

// Builds the 3-tier fat-tree `spec` describes.
Result<Topology> BuildFatTree(const TopologySpec& spec);

}  // namespace aifabric
