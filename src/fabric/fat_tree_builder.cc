#include "fabric/fat_tree_builder.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>

#include "fabric/clos_sizing.h"

namespace aifabric {
namespace {

std::string Str(int64_t v) { return std::to_string(v); }

Result<FatTreeShape> SizeKAry(const TopologySpec& spec, int64_t hosts) {
  const int k = spec.k;
  const int radix = spec.switch_spec.radix;
  if (k < 2 || k % 2 != 0) return Error{"fabric.topology.k: must be an even number >= 2, got " + Str(k)};
  if (k > radix) {
    return Error{"fabric.topology.k: a k-ary fat-tree uses k ports per switch; k = " + Str(k) + " exceeds the " +
                 Str(radix) + "-port switch"};
  }
  const struct { int value; const char* field; } unused[] = {
      {spec.hosts_per_leaf, "hosts_per_leaf"}, {spec.leaves_per_pod, "leaves_per_pod"},
      {spec.aggs_per_pod, "aggs_per_pod"},     {spec.cores, "cores"},
      {spec.spines, "spines"}};
  for (const auto& u : unused) {
    if (u.value != 0) {
      return Error{std::string("fabric.topology.") + u.field + ": not used with k (a k-ary fat-tree fixes it); " +
                   "remove it, or set k: 0 to size the fat-tree by radix"};
    }
  }
  if (spec.dual_tor) {
    return Error{"fabric.topology.dual_tor: a k-ary fat-tree gives each edge port one host; "
                 "set k: 0 to size a dual-ToR fat-tree by radix"};
  }
  if (spec.oversubscription != 1.0 || spec.agg_oversubscription != 1.0) {
    return Error{std::string("fabric.topology.") +
                 (spec.oversubscription != 1.0 ? "oversubscription" : "agg_oversubscription") +
                 ": a k-ary fat-tree is non-blocking (1); set k: 0 to size an oversubscribed fat-tree by radix"};
  }
  const int64_t half = k / 2;
  const int64_t capacity = half * half * k;  // k^3/4
  if (hosts > capacity) {
    return Error{"fabric.topology.k: a k = " + Str(k) + " fat-tree holds at most k^3/4 = " + Str(capacity) +
                 " hosts, but the cluster has " + Str(hosts) + " (servers x NICs per server)"};
  }
  FatTreeShape s;
  s.hosts_per_leaf = static_cast<int>(half);
  s.leaves_per_pod = static_cast<int>(half);
  s.aggs_per_pod = static_cast<int>(half);
  s.pods = static_cast<int>((hosts + half * half - 1) / (half * half));
  s.edge_agg_links = 1;
  s.cores_per_group = static_cast<int>(half);
  s.agg_core_links = 1;
  return s;
}

// The fewest cores a group needs so that every core's ports hold the group's
// links: `pods` aggs (one per pod) each bring `agg_uplinks` links, so the
// group needs at least ceil(pods * agg_uplinks / radix) cores; the count is
// raised to a divisor of agg_uplinks so every agg-core pair gets the same
// number of parallel links (equal-cost paths), at most agg_uplinks. A full tree (pods = radix)
// gets one core per uplink, as the k-ary tree does; a partial one shares
// each core among the pods: 16,384 hosts on 128-port switches (4 pods of
// 64 uplinks per agg) need 2 cores per group, 128 in all, not 4,096.
int CoresPerGroup(int agg_uplinks, int pods, int radix) {
  // More cores than uplinks cannot help: one link each is the most spread,
  // and the caller reports a core that still needs more than `radix` ports.
  int cores = std::clamp(CeilDiv(pods * agg_uplinks, radix), 1, agg_uplinks);
  while (agg_uplinks % cores != 0) ++cores;
  return cores;
}

Result<FatTreeShape> SizeByRadix(const TopologySpec& spec, int64_t hosts) {
  for (auto [value, field] : {std::pair{spec.hosts_per_leaf, "hosts_per_leaf"},
                              std::pair{spec.leaves_per_pod, "leaves_per_pod"},
                              std::pair{spec.aggs_per_pod, "aggs_per_pod"}, std::pair{spec.cores, "cores"}}) {
    if (Status s = ValidateKnob(value, std::string("fabric.topology.") + field); !s) return s.error();
  }
  if (spec.spines != 0) {
    return Error{"fabric.topology.spines: not used by fat_tree (use aggs_per_pod and cores)"};
  }
  if (Status s = ValidateOversubscription(spec.oversubscription, "fabric.topology.oversubscription"); !s) {
    return s.error();
  }
  if (Status s = ValidateOversubscription(spec.agg_oversubscription, "fabric.topology.agg_oversubscription"); !s) {
    return s.error();
  }
  const int radix = spec.switch_spec.radix;
  const DataRate host_rate = HostLinkRate(spec);
  const DataRate port_rate = spec.switch_spec.port_rate;
  const double o = spec.oversubscription;
  const double oa = spec.agg_oversubscription;
  FatTreeShape s;

  // Rail-optimized: a leaf holds one rail of up to hosts_per_leaf servers.
  const int rails = spec.type == TopologyType::kRailOptimized ? spec.nics_per_server : 0;
  const int64_t leaf_hosts_cap = rails > 0 ? spec.servers : hosts;
  // dual_tor: every ToR group is a pair of leaves holding the same hosts.
  const int sides = TorSides(spec);
  s.tor_sides = sides;

  // Leaf (edge) tier.
  if (spec.hosts_per_leaf > 0) {
    if (spec.hosts_per_leaf >= radix) {
      return Error{"fabric.topology.hosts_per_leaf: must be below the switch's " + Str(radix) +
                   " ports (a leaf needs uplinks), got " + Str(spec.hosts_per_leaf)};
    }
    s.hosts_per_leaf = static_cast<int>(std::min<int64_t>(spec.hosts_per_leaf, leaf_hosts_cap));
  } else {
    s.hosts_per_leaf =
        static_cast<int>(std::min<int64_t>(MaxDownlinks(radix, host_rate, o, port_rate), leaf_hosts_cap));
  }
  const int uplinks = UplinksFor(s.hosts_per_leaf, host_rate, o, port_rate);
  const UplinkPlan edge_up = PlanUplinks(uplinks, spec.aggs_per_pod);
  if (s.hosts_per_leaf + edge_up.uplinks() > radix) {
    if (spec.aggs_per_pod > 0 && edge_up.uplinks() != uplinks) {
      return Error{"fabric.topology.aggs_per_pod: with " + Str(spec.aggs_per_pod) + " aggs per pod each leaf needs " +
                   Str(edge_up.uplinks()) + " uplinks (" + Str(uplinks) + " rounded up to a multiple of " +
                   Str(spec.aggs_per_pod) + "), and " + Str(s.hosts_per_leaf) + " hosts + " +
                   Str(edge_up.uplinks()) + " uplinks exceed the " + Str(radix) + "-port leaf"};
    }
    return Error{"fabric.topology.hosts_per_leaf: " + Str(s.hosts_per_leaf) + " hosts per leaf need " +
                 Str(uplinks) + " uplinks at the requested oversubscription, more than the " + Str(radix) +
                 "-port leaf has left"};
  }
  s.aggs_per_pod = edge_up.upper;
  s.edge_agg_links = edge_up.links_each;
  const int64_t leaves = sides * (rails > 0 ? rails * ((spec.servers + s.hosts_per_leaf - 1) / s.hosts_per_leaf)
                                            : (hosts + s.hosts_per_leaf - 1) / s.hosts_per_leaf);

  // Aggregation tier: leaves_per_pod * edge_agg_links downlinks per agg.
  if (spec.leaves_per_pod > radix) {
    return Error{"fabric.topology.leaves_per_pod: an agg links to every leaf of its pod, so at most " + Str(radix) +
                 " leaves fit the " + Str(radix) + "-port agg, got " + Str(spec.leaves_per_pod)};
  }
  if (spec.leaves_per_pod > 0) {
    const int down = spec.leaves_per_pod * s.edge_agg_links;
    if (down + UplinksFor(down, port_rate, oa, port_rate) > radix) {
      return Error{"fabric.topology.leaves_per_pod: " + Str(spec.leaves_per_pod) + " leaves x " +
                   Str(s.edge_agg_links) + " links = " + Str(down) + " agg downlinks, which with " +
                   Str(UplinksFor(down, port_rate, oa, port_rate)) + " uplinks exceed the " + Str(radix) +
                   "-port agg"};
    }
    s.leaves_per_pod = static_cast<int>(std::min<int64_t>(spec.leaves_per_pod, leaves));
  } else {
    const int max_down = MaxDownlinks(radix, port_rate, oa, port_rate);
    s.leaves_per_pod = static_cast<int>(std::min<int64_t>(max_down / s.edge_agg_links, leaves));
    if (s.leaves_per_pod == 0) {
      return Error{"fabric.topology: each leaf needs " + Str(s.edge_agg_links) +
                   " links to every agg, more than an agg's " + Str(max_down) +
                   " downlinks; use more aggs_per_pod or fewer hosts_per_leaf"};
    }
  }
  if (rails > 0) {
    // A pod holds whole servers: the same number of leaves (ToR groups) on every rail.
    if (s.leaves_per_pod < rails * sides) {
      return Error{"fabric.topology: a rail-optimized pod needs " +
                   (sides > 1 ? std::string("a ToR pair") : std::string("a leaf")) + " per rail (" +
                   Str(rails * sides) + " leaves), but an agg takes only " + Str(s.leaves_per_pod) +
                   " leaves; use a larger switch or fewer NICs per server"};
    }
    s.leaves_per_pod -= s.leaves_per_pod % (rails * sides);
    s.rails = rails;
    const int64_t servers_per_pod = static_cast<int64_t>(s.leaves_per_pod / (rails * sides)) * s.hosts_per_leaf;
    s.pods = static_cast<int>((spec.servers + servers_per_pod - 1) / servers_per_pod);
  } else {
    // A ToR pair sits in one pod.
    if (s.leaves_per_pod < sides) {
      return Error{"fabric.topology.leaves_per_pod: a dual-ToR pod needs its leaves in pairs, got " +
                   Str(s.leaves_per_pod)};
    }
    s.leaves_per_pod -= s.leaves_per_pod % sides;
    s.pods = static_cast<int>((leaves + s.leaves_per_pod - 1) / s.leaves_per_pod);
  }
  const int agg_down = s.leaves_per_pod * s.edge_agg_links;
  const int agg_uplinks = UplinksFor(agg_down, port_rate, oa, port_rate);

  // Core tier: aggs_per_pod groups.
  int per_group = 0;
  if (spec.cores > 0) {
    if (spec.cores % s.aggs_per_pod != 0) {
      return Error{"fabric.topology.cores: must be a multiple of aggs_per_pod (" + Str(s.aggs_per_pod) +
                   "; agg i of every pod links to core group i), got " + Str(spec.cores)};
    }
    per_group = spec.cores / s.aggs_per_pod;
  } else {
    per_group = CoresPerGroup(agg_uplinks, s.pods, radix);
  }
  const UplinkPlan agg_up = PlanUplinks(agg_uplinks, per_group);
  if (agg_down + agg_up.uplinks() > radix) {
    return Error{"fabric.topology.cores: with " + Str(spec.cores) + " cores each agg needs " + Str(agg_up.uplinks()) +
                 " uplinks (" + Str(agg_uplinks) + " rounded up to a multiple of " + Str(per_group) + "), and " +
                 Str(agg_down) + " downlinks + " + Str(agg_up.uplinks()) + " uplinks exceed the " + Str(radix) +
                 "-port agg"};
  }
  s.cores_per_group = agg_up.upper;
  s.agg_core_links = agg_up.links_each;
  const int64_t core_ports = static_cast<int64_t>(s.pods) * s.agg_core_links;
  if (core_ports > radix) {
    return Error{"fabric.topology: " + Str(hosts) + " hosts need " + Str(leaves) + " leaves in " + Str(s.pods) +
                 " pods of " + Str(s.leaves_per_pod) + ", so each core needs " + Str(core_ports) + " ports (" +
                 Str(s.pods) + " pods x " + Str(s.agg_core_links) + " links), but a " + Str(radix) +
                 "-port core can connect only " + Str(radix) +
                 "; use a higher-radix switch or more oversubscription"};
  }
  return s;
}

// The first leaf (index among one plane's leaves) of the ToR group host `h`
// attaches to; with dual_tor the pair is that leaf and the next.
int LeafOf(const Node& host, NodeId h, const FatTreeShape& s) {
  if (s.rails == 0) return h / s.hosts_per_leaf * s.tor_sides;
  const int per_rail = s.leaves_per_pod / s.rails;
  const int servers_per_pod = per_rail / s.tor_sides * s.hosts_per_leaf;
  const int pod = host.server / servers_per_pod;
  const int in_pod = host.server % servers_per_pod;
  return pod * s.leaves_per_pod + host.rail * per_rail + in_pod / s.hosts_per_leaf * s.tor_sides;
}

}  // namespace

Result<FatTreeShape> SizeFatTree(const TopologySpec& spec) {
  if (Status s = ValidateClusterAndSwitch(spec); !s) return s.error();
  if (spec.k < 0) return Error{"fabric.topology.k: must be >= 0 (0 sizes by radix), got " + Str(spec.k)};
  const int64_t hosts = static_cast<int64_t>(spec.servers) * spec.nics_per_server;
  if (spec.k > 0 && spec.type == TopologyType::kRailOptimized) {
    return Error{"fabric.topology.k: not used by rail_optimized (it is sized by radix)"};
  }
  return spec.k > 0 ? SizeKAry(spec, hosts) : SizeByRadix(spec, hosts);
}

Result<Topology> BuildFatTree(const TopologySpec& spec) {
  Result<FatTreeShape> sized = SizeFatTree(spec);
  if (!sized) return sized.error();
  const FatTreeShape& s = *sized;

  Topology t;
  AddHosts(spec, t);
  const int sw = t.AddSwitchSpec(spec.switch_spec);
  // Per plane; plane p's switches follow plane p-1's in each tier, and its
  // pods are numbered p * pods + pod.
  const int leaves = s.pods * s.leaves_per_pod;
  const int aggs = s.pods * s.aggs_per_pod;
  const int planes = spec.planes;
  const NodeId first_leaf = static_cast<NodeId>(t.num_nodes());
  for (int i = 0; i < leaves * planes; ++i) {
    t.SetPod(t.AddSwitch("leaf" + std::to_string(i), 1, sw), i / s.leaves_per_pod);
  }
  const NodeId first_agg = static_cast<NodeId>(t.num_nodes());
  for (int i = 0; i < aggs * planes; ++i) {
    t.SetPod(t.AddSwitch("agg" + std::to_string(i), 2, sw), i / s.aggs_per_pod);
  }
  const NodeId first_core = static_cast<NodeId>(t.num_nodes());
  for (int i = 0; i < s.cores() * planes; ++i) t.AddSwitch("core" + std::to_string(i), 3, sw);

  const DataRate port_rate = spec.switch_spec.port_rate;
  for (NodeId h : t.hosts()) AttachHost(spec, h, first_leaf + LeafOf(t.node(h), h, s), leaves, t);
  for (int p = 0; p < s.pods * planes; ++p) {
    WireAllToAll(t, first_leaf + p * s.leaves_per_pod, s.leaves_per_pod, first_agg + p * s.aggs_per_pod,
                 s.aggs_per_pod, s.edge_agg_links, port_rate, spec.link_latency);
  }
  for (int p = 0; p < s.pods * planes; ++p) {
    const NodeId plane_cores = first_core + p / s.pods * s.cores();
    for (int a = 0; a < s.aggs_per_pod; ++a) {
      WireAllToAll(t, first_agg + p * s.aggs_per_pod + a, 1, plane_cores + a * s.cores_per_group,
                   s.cores_per_group, s.agg_core_links, port_rate, spec.link_latency);
    }
  }
  return t;
}

}  // namespace aifabric
