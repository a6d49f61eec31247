#include "plan/design_sizing.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

SwitchSpec Switch(int radix) {
  SwitchSpec s;
  s.name = "sw";
  s.radix = radix;
  s.port_rate = DataRate::Gbps(400);
  return s;
}

Design Rail(double oversubscription) {
  Design d;
  d.topology = TopologyType::kRailOptimized;
  d.oversubscription = oversubscription;
  return d;
}

PlanRequirements Gpus(int gpus) {
  PlanRequirements r;
  r.gpus = gpus;
  return r;
}

// 1,024 GPUs = 128 servers x 8 rails on 128-port 400G switches at 2:1. By
// hand: a leaf could take 85 hosts (85 + ceil(85/2) = 128), so a rail of 128
// servers needs 2 leaves, 64 servers each; 64 hosts need 32 uplinks at 2:1;
// 16 leaves x 32 uplinks = 512 links fill 4 spines of 128 ports, 8 links
// from each leaf to each (the builder alone: 43 spines of 16 ports used).
TEST(DesignSizing, RailOptimizedSpreadsHostsAndTakesFewestSpines) {
  const TopologyKnobs k = SizeTwoTier(Gpus(1024), Rail(2), Switch(128), DataRate::Gbps(400));
  EXPECT_EQ(k.hosts_per_leaf, 64);
  EXPECT_EQ(k.spines, 4);
  EXPECT_EQ(k.tiers, 0);
  // 1:1 on 64-port switches: 32 servers per leaf, 4 leaves per rail, 32
  // uplinks; 32 leaves x 32 = 1,024 links over 64-port spines: 16 spines,
  // 2 links from each leaf to each.
  const TopologyKnobs q = SizeTwoTier(Gpus(1024), Rail(1), Switch(64), DataRate::Gbps(400));
  EXPECT_EQ(q.hosts_per_leaf, 32);
  EXPECT_EQ(q.spines, 16);
}

// 16,384 GPUs on 64-port switches: 512 rail leaves of 32 uplinks each;
// even one link per spine would need 512 ports: three tiers.
TEST(DesignSizing, TooBigForTwoTiers) {
  const TopologyKnobs k = SizeTwoTier(Gpus(16384), Rail(1), Switch(64), DataRate::Gbps(400));
  EXPECT_EQ(k.tiers, 3);
  EXPECT_EQ(k.spines, 0);
  Design leaf_spine = Rail(1);
  leaf_spine.topology = TopologyType::kLeafSpine;
  const TopologyKnobs none = SizeTwoTier(Gpus(16384), leaf_spine, Switch(64), DataRate::Gbps(400));
  EXPECT_EQ(none.tiers, 0);
  EXPECT_EQ(none.spines, 0);
  Design tree = Rail(1);
  tree.topology = TopologyType::kFatTree;
  EXPECT_EQ(SizeTwoTier(Gpus(1024), tree, Switch(64), DataRate::Gbps(400)).hosts_per_leaf, 0);
}

TEST(DesignSizing, FewestSpinesDividesTheUplinks) {
  EXPECT_EQ(FewestSpines(32, 16, 128), 4);   // 512 / 128
  EXPECT_EQ(FewestSpines(43, 16, 128), 43);  // 688 / 128 -> 6, and 43 is prime
  EXPECT_EQ(FewestSpines(64, 128, 128), 64); // a full fabric: one link each
  EXPECT_EQ(FewestSpines(24, 5, 64), 2);     // 120 / 64 -> 2
}

}  // namespace
}  // namespace aifabric
