#include "fabric/leaf_spine_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "fabric/topology_report.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using fabric_testing::CountShortestPaths;
using fabric_testing::CountTier;
using fabric_testing::MakeSpec;

TopologySpec Spec(int servers, double oversubscription) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "128x400G", servers, 8, DataRate::Gbps(400));
  spec.oversubscription = oversubscription;
  return spec;
}

int Uplinks(const Topology& t, NodeId leaf) {
  int n = 0;
  for (PortId p : t.node(leaf).ports) n += t.node(t.port(p).peer).tier == 2;
  return n;
}

// o = 1 on 128 ports: 64 hosts + 64 uplinks per leaf, 64 spines with one
// link each. 16 servers x 8 NICs = 128 hosts -> 2 leaves.
// Links: 128 host + 2 leaves x 64 = 256.
TEST(LeafSpine, NonBlocking) {
  Result<Topology> t = BuildLeafSpine(Spec(16, 1.0));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 2);
  EXPECT_EQ(CountTier(*t, 2), 64);
  EXPECT_EQ(t->num_links(), 256u);
  const NodeId leaf0 = t->FindByName("leaf0");
  EXPECT_EQ(leaf0, 128);  // hosts first
  EXPECT_EQ(t->FindByName("spine0"), 130);
  EXPECT_EQ(Uplinks(*t, leaf0), 64);
  EXPECT_EQ(t->port(t->node(63).ports[0]).peer, leaf0);
  EXPECT_EQ(t->port(t->node(64).ports[0]).peer, leaf0 + 1);
  // Across leaves: 64 spines = 64 paths of 4 hops.
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  EXPECT_EQ(rt.Distance(0, 127), 4);
  EXPECT_EQ(CountShortestPaths(*t, rt, 0, 127), 64);
  EXPECT_EQ(rt.NextHops(leaf0, 127).size(), 64u);
}

// o = 3 on 128 ports: floor(128*3/4) = 96 hosts, ceil(96/3) = 32 uplinks,
// 32 spines. 24 servers x 8 = 192 hosts -> 2 full leaves; tier-1 capacity
// 192 x 400G down / 64 x 400G up = 3.0.
TEST(LeafSpine, Oversubscribed) {
  Result<Topology> t = BuildLeafSpine(Spec(24, 3.0));
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 2);
  EXPECT_EQ(CountTier(*t, 2), 32);
  EXPECT_EQ(Uplinks(*t, t->FindByName("leaf0")), 32);
  const TopologyReport r = MakeTopologyReport(*t);
  ASSERT_EQ(r.tiers.size(), 2u);
  EXPECT_DOUBLE_EQ(r.tiers[0].oversubscription, 3.0);
  EXPECT_FALSE(r.tiers[1].has_uplinks);
  EXPECT_THAT(FormatReport(r), HasSubstr("  3.0\n"));
}

TEST(LeafSpine, ExplicitSpinesGetParallelLinks) {
  // u = 64 over 16 spines: 4 links from each leaf to each spine.
  TopologySpec spec = Spec(16, 1.0);
  spec.spines = 16;
  Result<Topology> t = BuildLeafSpine(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 2), 16);
  EXPECT_EQ(Uplinks(*t, t->FindByName("leaf1")), 64);
  EXPECT_EQ(t->node(t->FindByName("spine3")).ports.size(), 8u);  // 2 leaves x 4
  // 5 spines: 64 rounds up to 65 uplinks, 64 + 65 > 128.
  spec.spines = 5;
  Result<Topology> bad = BuildLeafSpine(spec);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.error().message, HasSubstr("fabric.topology.spines: with 5 spines each leaf needs 65 uplinks"));
}

TEST(LeafSpine, SlowerNicsFitMoreHostsPerLeaf) {
  // 200G hosts on 400G ports, o = 1: largest n with n + ceil(n*200/400) <= 128
  // is 85 (85 + 43 = 128), not 64.
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "128x400G", 85, 1, DataRate::Gbps(200));
  Result<LeafSpineShape> s = SizeLeafSpine(spec, 85, 1);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->hosts_per_leaf, 85);
  EXPECT_EQ(s->spines.upper, 43);
  Result<Topology> t = BuildLeafSpine(spec);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->port(t->node(0).ports[0]).rate, DataRate::Gbps(200));
  // An 800G NIC on a 400G port runs at 400G.
  spec.nic_rate = DataRate::Gbps(800);
  Result<Topology> fast = BuildLeafSpine(spec);
  ASSERT_TRUE(fast.ok());
  EXPECT_EQ(fast->port(fast->node(0).ports[0]).rate, DataRate::Gbps(400));
}

std::string Err(const TopologySpec& spec) {
  Result<Topology> t = BuildLeafSpine(spec);
  return t.ok() ? "(built)" : t.error().message;
}

TEST(LeafSpine, Errors) {
  EXPECT_THAT(Err(Spec(16, 0.5)), HasSubstr("fabric.topology.oversubscription: must be >= 1"));
  EXPECT_THAT(Err(Spec(0, 1)), HasSubstr("cluster.servers: must be >= 1, got 0"));
  // At most 128 leaves of 64 hosts under a 128-port spine = 8192 hosts.
  EXPECT_THAT(Err(Spec(1025, 1)),
              HasSubstr("fabric.topology: 8200 hosts need 129 leaves of 64 hosts, so each spine needs 129 ports"));
  EXPECT_EQ(Err(Spec(1024, 1)), "(built)");
  TopologySpec spec = Spec(16, 1);
  spec.hosts_per_leaf = 128;
  EXPECT_THAT(Err(spec), HasSubstr("fabric.topology.hosts_per_leaf: must be below the switch's 128 ports"));
  spec.hosts_per_leaf = 100;  // needs 100 uplinks at o = 1
  EXPECT_THAT(Err(spec), HasSubstr("fabric.topology.hosts_per_leaf: 100 hosts per leaf need 100 uplinks"));
  spec.hosts_per_leaf = 0;
  spec.spines = -2;
  EXPECT_THAT(Err(spec), HasSubstr("fabric.topology.spines: must be >= 0"));
  spec = Spec(16, 1);
  spec.switch_spec.radix = 1;
  EXPECT_THAT(Err(spec), HasSubstr("fabric.switch (128x400G).ports: a switch needs at least 2 ports"));
}

}  // namespace
}  // namespace aifabric
