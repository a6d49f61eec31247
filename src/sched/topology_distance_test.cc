// TopologyDistance and TiersCrossed on fabrics small enough to work by hand.
#include "sched/topology_distance.h"

#include <gtest/gtest.h>

#include <vector>

#include "fabric/lingjun_topology_reader.h"
#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

using fabric_testing::MakeSpec;
using sched_testing::MakeFatTreeCluster;
using sched_testing::TestCluster;

using sched_testing::MakeTwoPodFatTree;

TEST(TopologyDistance, FatTreeGroupsAndPods) {
  const TestCluster c = MakeTwoPodFatTree();
  const TopologyDistance d(c.topology, c.layout);
  EXPECT_EQ(d.leaf_groups(), 4);
  EXPECT_EQ(d.pods(), 2);
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(d.leaf_group_of(s), s / 2) << s;
    EXPECT_EQ(d.pod_of(s), s / 4) << s;
  }
  EXPECT_EQ(d.group_servers(2), (std::vector<int>{4, 5}));
  EXPECT_EQ(d.pod_groups(1), (std::vector<int>{2, 3}));
}

TEST(TopologyDistance, FatTreeTiersCrossedByHand) {
  const TestCluster c = MakeTwoPodFatTree();
  auto tiers = [&](std::vector<GpuId> gpus) { return TiersCrossed(c.topology, c.layout, gpus); };
  EXPECT_EQ(tiers({}), 0);
  EXPECT_EQ(tiers({5}), 0);
  EXPECT_EQ(tiers({0, 3}), 0);         // both on server 0: NVLink only
  EXPECT_EQ(tiers({0, 4}), 1);         // servers 0, 1: both under leaf0
  EXPECT_EQ(tiers({0, 4, 8}), 2);      // server 2 is under leaf1, same pod
  EXPECT_EQ(tiers({12, 8, 0}), 2);
  EXPECT_EQ(tiers({0, 16}), 3);        // server 4 is in pod 1
  EXPECT_EQ(tiers({16, 20, 24, 28}), 2);  // servers 4-7: all of pod 1
  EXPECT_EQ(tiers({16, 20, 0, 4}), 3);    // two same-leaf pairs, in different pods
}

// 32 servers x 4 rails: NIC r of server s sits under leaf 2r + s/16 (see
// rail_optimized_builder_test.cc), so servers 0-15 share the leaf set
// {leaf0, leaf2, leaf4, leaf6} and 16-31 the other; one spine layer joins
// everything into one pod. One GPU per NIC: GPU 4s + r on rail r.
TEST(TopologyDistance, RailOptimizedLeafGroupsSpanTheRails) {
  const TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "32x100G", 32, 4, DataRate::Gbps(100));
  const Topology t = BuildTopology(spec).value();
  ServerSpec server;
  server.gpus_per_server = 4;
  const ClusterLayout l = ClusterLayout::Build(t, server).value();
  const TopologyDistance d(t, l);
  EXPECT_EQ(d.leaf_groups(), 2);
  EXPECT_EQ(d.pods(), 1);
  EXPECT_EQ(d.leaf_group_of(15), 0);
  EXPECT_EQ(d.leaf_group_of(16), 1);
  // Rail 0 of server 0 and rail 1 of server 1: same leaf group (rail-matched
  // traffic crosses one leaf).
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{0, 5}), 1);
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{0, 64}), 2);  // server 16
}

// A Lingjun-style CSV: a ToR is a (PSW, ASW) pair, so "A0" under P0 and
// under P1 are different leaves; pods are the PSWs. Servers are rows:
// 0, 1 under P0/A0; 2 under P0/A1; 3 under P1/A0. One GPU per server.
TEST(TopologyDistance, LingjunPodsAreThePsws) {
  TopologySpec spec = MakeSpec(TopologyType::kLingjunFile, "32x100G", 4, 1, DataRate::Gbps(100));
  const Topology t = ParseLingjunTopology("ip,DSW,PSW,ASW\na,D0,P0,A0\nb,D0,P0,A0\nc,D0,P0,A1\nd,D0,P1,A0\n",
                                          "test.csv", spec)
                         .value();
  ServerSpec server;
  server.gpus_per_server = 1;
  const ClusterLayout l = ClusterLayout::Build(t, server).value();
  const TopologyDistance d(t, l);
  EXPECT_EQ(d.leaf_groups(), 3);
  EXPECT_EQ(d.pods(), 2);
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{0, 1}), 1);
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{0, 2}), 2);
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{0, 3}), 3);
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{1, 2}), 2);
}

// Switches of unknown tier (as in HPCC files): every server stands alone.
TEST(TopologyDistance, UnknownTiersMakeEachServerItsOwnPod) {
  Topology t;
  const NodeId a = t.AddHost("a", 0, 0);
  const NodeId b = t.AddHost("b", 1, 0);
  const NodeId sw = t.AddSwitch("sw", -1, -1);  // no switch spec
  t.AddLink(a, sw, DataRate::Gbps(100), Time::FromNs(500));
  t.AddLink(b, sw, DataRate::Gbps(100), Time::FromNs(500));
  ServerSpec server;
  server.gpus_per_server = 2;
  const ClusterLayout l = ClusterLayout::Build(t, server).value();
  const TopologyDistance d(t, l);
  EXPECT_EQ(d.leaf_groups(), 2);
  EXPECT_EQ(d.pods(), 2);
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{0, 1}), 0);
  EXPECT_EQ(d.TiersCrossed(l, std::vector<GpuId>{1, 2}), 3);
}

}  // namespace
}  // namespace aifabric
