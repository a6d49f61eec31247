// The sizing knobs the planner writes into a two-tier design's topology so
// its bill of materials is what an architect would buy. The builders'
// defaults suit a full fabric: as many hosts per leaf as the radix allows
// and one spine per leaf uplink. A cluster smaller than the fabric's
// capacity then gets spines that use a few ports each; the planner instead
// spreads the hosts evenly over the leaves they need and takes the fewest
// spines whose ports hold every leaf's uplinks (a divisor of the uplinks, so
// each leaf-spine pair has the same number of parallel links and the paths
// stay equal-cost). Three-tier fabrics need nothing: the fat-tree builder
// already takes the fewest cores. Pure function; thread-safe.
#pragma once

#include "core/data_rate.h"
#include "fabric/catalog.h"
#include "plan/design_space.h"
#include "plan/plan_requirements.h"

namespace aifabric {

struct TopologyKnobs {
  int hosts_per_leaf = 0;  // 0: the builder's
  int spines = 0;          // 0: the builder's
  int tiers = 0;           // rail_optimized: 3 when one spine layer cannot hold the cluster
};

// For leaf_spine and rail_optimized designs; {} for the others.
TopologyKnobs SizeTwoTier(const PlanRequirements& requirements, const Design& design, const SwitchSpec& sw,
                          DataRate nic_rate);

// The fewest spines whose `radix` ports hold `leaves` x `uplinks` links,
// raised to a divisor of `uplinks`.
int FewestSpines(int uplinks, int leaves, int radix);

}  // namespace aifabric
