#include "fabric/leaf_spine_builder.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace aifabric {

Result<LeafSpineShape> SizeLeafSpine(const TopologySpec& spec, int hosts_per_group, int groups) {
  if (Status s = ValidateClusterAndSwitch(spec); !s) return s.error();
  if (Status s = ValidateOversubscription(spec.oversubscription, "fabric.topology.oversubscription"); !s) {
    return s.error();
  }
  if (Status s = ValidateKnob(spec.hosts_per_leaf, "fabric.topology.hosts_per_leaf"); !s) return s.error();
  if (Status s = ValidateKnob(spec.spines, "fabric.topology.spines"); !s) return s.error();
  assert(hosts_per_group >= 1 && groups >= 1);

  const int radix = spec.switch_spec.radix;
  const DataRate host_rate = HostLinkRate(spec);
  const DataRate port_rate = spec.switch_spec.port_rate;
  const double o = spec.oversubscription;

  LeafSpineShape shape;
  if (spec.hosts_per_leaf > 0) {
    if (spec.hosts_per_leaf >= radix) {
      return Error{"fabric.topology.hosts_per_leaf: must be below the switch's " + std::to_string(radix) +
                   " ports (a leaf needs uplinks), got " + std::to_string(spec.hosts_per_leaf)};
    }
    shape.hosts_per_leaf = std::min(spec.hosts_per_leaf, hosts_per_group);
  } else {
    shape.hosts_per_leaf = std::min(MaxDownlinks(radix, host_rate, o, port_rate), hosts_per_group);
  }
  assert(shape.hosts_per_leaf >= 1);  // radix >= 2 always fits one host and one uplink
  const int uplinks = UplinksFor(shape.hosts_per_leaf, host_rate, o, port_rate);
  shape.spines = PlanUplinks(uplinks, spec.spines);
  if (shape.hosts_per_leaf + shape.spines.uplinks() > radix) {
    if (spec.spines > 0 && shape.spines.uplinks() != uplinks) {
      return Error{"fabric.topology.spines: with " + std::to_string(spec.spines) + " spines each leaf needs " +
                   std::to_string(shape.spines.uplinks()) + " uplinks (" + std::to_string(uplinks) +
                   " rounded up to a multiple of " + std::to_string(spec.spines) + "), and " +
                   std::to_string(shape.hosts_per_leaf) + " hosts + " + std::to_string(shape.spines.uplinks()) +
                   " uplinks exceed the " + std::to_string(radix) + "-port leaf"};
    }
    return Error{"fabric.topology.hosts_per_leaf: " + std::to_string(shape.hosts_per_leaf) +
                 " hosts per leaf need " + std::to_string(uplinks) +
                 " uplinks at the requested oversubscription, more than the " + std::to_string(radix) +
                 "-port leaf has left (" + std::to_string(shape.hosts_per_leaf) + " + " + std::to_string(uplinks) +
                 " > " + std::to_string(radix) + ")"};
  }
  // A ToR group (a pair with dual_tor) holds hosts_per_leaf hosts on each of its leaves.
  shape.leaves_per_group = CeilDiv(hosts_per_group, shape.hosts_per_leaf) * TorSides(spec);
  shape.leaves = groups * shape.leaves_per_group;
  const int64_t spine_ports = static_cast<int64_t>(shape.leaves) * shape.spines.links_each;
  if (spine_ports > radix) {
    const int64_t hosts = static_cast<int64_t>(hosts_per_group) * groups;
    return Error{"fabric.topology: " + std::to_string(hosts) + " hosts need " + std::to_string(shape.leaves) +
                 " leaves of " + std::to_string(shape.hosts_per_leaf) + " hosts" +
                 (groups > 1 ? " (" + std::to_string(shape.leaves_per_group) + " per rail x " +
                                   std::to_string(groups) + " rails)"
                             : std::string()) +
                 ", so each spine needs " + std::to_string(spine_ports) + " ports (" +
                 std::to_string(shape.leaves) + " leaves x " + std::to_string(shape.spines.links_each) +
                 " links), but a " + std::to_string(radix) + "-port spine can connect only " +
                 std::to_string(radix) +
                 "; use type fat_tree, a higher-radix switch or a higher fabric.topology.oversubscription"};
  }
  return shape;
}

void WirePlanes(const TopologySpec& spec, Topology& topology, const LeafSpineShape& shape, NodeId first_leaf,
                NodeId first_spine) {
  for (int p = 0; p < spec.planes; ++p) {
    WireAllToAll(topology, first_leaf + p * shape.leaves, shape.leaves, first_spine + p * shape.spines.upper,
                 shape.spines.upper, shape.spines.links_each, spec.switch_spec.port_rate, spec.link_latency);
  }
}

Result<Topology> BuildLeafSpine(const TopologySpec& spec) {
  if (Status s = ValidateClusterAndSwitch(spec); !s) return s.error();  // bounds the host count
  Result<LeafSpineShape> sized = SizeLeafSpine(spec, spec.servers * spec.nics_per_server, 1);
  if (!sized) return sized.error();
  const LeafSpineShape& shape = *sized;

  Topology t;
  const auto [first_leaf, first_spine] =
      AddTwoTierNodes(spec, shape.leaves * spec.planes, shape.spines.upper * spec.planes, t);

  for (NodeId h : t.hosts()) {
    AttachHost(spec, h, first_leaf + h / shape.hosts_per_leaf * TorSides(spec), shape.leaves, t);
  }
  WirePlanes(spec, t, shape, first_leaf, first_spine);
  return t;
}

}  // namespace aifabric
