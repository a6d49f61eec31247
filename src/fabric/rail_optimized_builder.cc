#include "fabric/rail_optimized_builder.h"

#include "fabric/clos_sizing.h"
#include "fabric/fat_tree_builder.h"
#include "fabric/leaf_spine_builder.h"

namespace aifabric {

Result<Topology> BuildRailOptimized(const TopologySpec& spec) {
  if (Status s = ValidateClusterAndSwitch(spec); !s) return s.error();
  if (spec.tiers == 3) return BuildFatTree(spec);
  Result<LeafSpineShape> sized = SizeLeafSpine(spec, spec.servers, spec.nics_per_server);
  if (!sized && spec.tiers == 0) {
    // Too big for one spine layer: rail leaves under a fat-tree's pods.
    Result<Topology> three = BuildFatTree(spec);
    if (three) return three;
    return Error{sized.error().message + "; as 3 tiers: " + three.error().message};
  }
  if (!sized) return sized.error();
  const LeafSpineShape& shape = *sized;

  Topology t;
  const auto [first_leaf, first_spine] =
      AddTwoTierNodes(spec, shape.leaves * spec.planes, shape.spines.upper * spec.planes, t);

  for (NodeId h : t.hosts()) {
    const Node& host = t.node(h);
    const int tor = host.rail * shape.leaves_per_group + host.server / shape.hosts_per_leaf * TorSides(spec);
    AttachHost(spec, h, first_leaf + tor, shape.leaves, t);
  }
  WirePlanes(spec, t, shape, first_leaf, first_spine);
  return t;
}

}  // namespace aifabric
