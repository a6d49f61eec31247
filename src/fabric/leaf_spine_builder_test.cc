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
using fabric_testing::PeerNames;

TopologySpec LeafSpineSpec(int servers, double oversubscription) {
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
  Result<Topology> t = BuildLeafSpine(LeafSpineSpec(16, 1.0));
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
  Result<Topology> t = BuildLeafSpine(LeafSpineSpec(24, 3.0));
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
  TopologySpec spec = LeafSpineSpec(16, 1.0);
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

// Dual-ToR (Alibaba HPN): 2 servers x 8 NICs of 400G, each NIC two 200G
// ports to a ToR pair. Host links at 200G on 128 x 400G ports: the largest
// n with n + ceil(n * 200 / 400) <= 128 is 85, capped at the 16 hosts; each
// leaf needs ceil(16 * 200 / 400) = 8 uplinks -> 8 spines; one ToR pair =
// 2 leaves. Links: 16 hosts x 2 + 2 leaves x 8 = 48. A server has 16
// NIC-ToR links (8 NICs x 2), the 1/16 of HPN's figure.
TEST(LeafSpine, DualTorGivesEveryNicOneLinkToEachToROfAPair) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "128x400G", 2, 8, DataRate::Gbps(400));
  spec.dual_tor = true;
  Result<Topology> t = BuildLeafSpine(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 2);
  EXPECT_EQ(CountTier(*t, 2), 8);
  EXPECT_EQ(t->num_links(), 48u);
  for (NodeId h : t->hosts()) {
    EXPECT_EQ(PeerNames(*t, h), (std::vector<std::string>{"leaf0", "leaf1"})) << h;
    for (PortId p : t->node(h).ports) EXPECT_EQ(t->port(p).rate, DataRate::Gbps(200));
  }
  int server0_links = 0;
  for (NodeId h = 0; h < 8; ++h) server0_links += static_cast<int>(t->node(h).ports.size());
  EXPECT_EQ(server0_links, 16);
  EXPECT_EQ(Uplinks(*t, t->FindByName("leaf0")), 8);
  EXPECT_EQ(Uplinks(*t, t->FindByName("leaf1")), 8);
  // The NIC hashes over its two ToRs: h0 -> h8 goes through either ToR of
  // the pair, straight to h8's port on it (2 hops, 2 paths).
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  EXPECT_EQ(rt.NextHops(0, 8).size(), 2u);
  EXPECT_EQ(rt.Distance(0, 8), 2);
  EXPECT_EQ(CountShortestPaths(*t, rt, 0, 8), 2);
  // The leaf tier is non-blocking: down 16 hosts x 2 x 200G = 6.4T, up
  // 2 leaves x 8 x 400G = 6.4T.
  const TopologyReport r = MakeTopologyReport(*t);
  EXPECT_DOUBLE_EQ(r.tiers[0].oversubscription, 1.0);
  EXPECT_EQ(r.max_host_links, 2);
  EXPECT_EQ(r.max_host_switches, 2);
  EXPECT_THAT(FormatReport(r), HasSubstr("host links: 2 per NIC, to up to 2 switches (multi-homed)"));
}

// The pairs double the leaves the spines must hold. 128-port switches,
// dual-ToR: 85 hosts per leaf and 43 uplinks, so a spine's 128 ports hold
// 128 leaves = 64 pairs x 85 = 5440 hosts (680 servers x 8); 681 servers
// (5448 hosts) need ceil(5448 / 85) = 65 pairs = 130 leaves. Single-homed,
// the same 681 servers fit: 64 hosts per leaf, ceil(5448 / 64) = 86 leaves.
TEST(LeafSpine, DualTorSizingCountsBothToRsOfEveryPair) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "128x400G", 680, 8, DataRate::Gbps(400));
  spec.dual_tor = true;
  Result<LeafSpineShape> fits = SizeLeafSpine(spec, 680 * 8, 1);
  ASSERT_TRUE(fits.ok()) << fits.error().message;
  EXPECT_EQ(fits->hosts_per_leaf, 85);
  EXPECT_EQ(fits->leaves, 128);
  EXPECT_EQ(fits->spines.upper, 43);
  spec.servers = 681;
  Result<LeafSpineShape> over = SizeLeafSpine(spec, 681 * 8, 1);
  ASSERT_FALSE(over.ok());
  EXPECT_THAT(over.error().message, HasSubstr("5448 hosts need 130 leaves of 85 hosts, so each spine needs 130 ports"));
  spec.dual_tor = false;
  Result<LeafSpineShape> single = SizeLeafSpine(spec, 681 * 8, 1);
  ASSERT_TRUE(single.ok()) << single.error().message;
  EXPECT_EQ(single->leaves, 86);
}

// Two planes, 16 NICs of 400G: each NIC gets one 200G link into each plane.
// Per plane, 8 hosts per leaf -> 2 leaves, ceil(8 * 200 / 400) = 4 spines;
// plane 0 = leaf0-1 + spine0-3, plane 1 = leaf2-3 + spine4-7. Links: 16 x 2
// + 4 leaves x 4 = 48. h0 (leaf0, leaf2) to h8 (leaf1, leaf3): 4 spines in
// each plane, 8 paths of 4 hops, and no link between the planes.
TEST(LeafSpine, PlanesAreIndependentCopiesWithOneNicPortEach) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "128x400G", 2, 8, DataRate::Gbps(400));
  spec.planes = 2;
  spec.hosts_per_leaf = 8;
  Result<Topology> t = BuildLeafSpine(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 4);
  EXPECT_EQ(CountTier(*t, 2), 8);
  EXPECT_EQ(t->num_links(), 48u);
  EXPECT_EQ(PeerNames(*t, 0), (std::vector<std::string>{"leaf0", "leaf2"}));
  EXPECT_EQ(PeerNames(*t, 8), (std::vector<std::string>{"leaf1", "leaf3"}));
  EXPECT_EQ(PeerNames(*t, t->FindByName("leaf0")).back(), "spine3");
  EXPECT_EQ(PeerNames(*t, t->FindByName("leaf2")).back(), "spine7");
  for (const char* leaf : {"leaf0", "leaf1"}) {
    for (const std::string& peer : PeerNames(*t, t->FindByName(leaf))) {
      EXPECT_NE(peer, "spine4") << leaf;  // plane 0 never reaches plane 1
    }
  }
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  EXPECT_EQ(rt.Distance(0, 8), 4);
  EXPECT_EQ(CountShortestPaths(*t, rt, 0, 8), 8);
  // Dual-ToR in each of 2 planes: 4 links per NIC at 100G.
  spec.dual_tor = true;
  Result<Topology> both = BuildLeafSpine(spec);
  ASSERT_TRUE(both.ok()) << both.error().message;
  EXPECT_EQ(PeerNames(*both, 0), (std::vector<std::string>{"leaf0", "leaf1", "leaf4", "leaf5"}));
  EXPECT_EQ(both->port(both->node(0).ports[0]).rate, DataRate::Gbps(100));
  spec.planes = 9;
  EXPECT_THAT(BuildLeafSpine(spec).error().message, HasSubstr("fabric.topology.planes: must be 1..8, got 9"));
}

std::string LeafSpineError(const TopologySpec& spec) {
  Result<Topology> t = BuildLeafSpine(spec);
  return t.ok() ? "(built)" : t.error().message;
}

TEST(LeafSpine, Errors) {
  EXPECT_THAT(LeafSpineError(LeafSpineSpec(16, 0.5)), HasSubstr("fabric.topology.oversubscription: must be >= 1"));
  EXPECT_THAT(LeafSpineError(LeafSpineSpec(0, 1)), HasSubstr("cluster.servers: must be >= 1, got 0"));
  // At most 128 leaves of 64 hosts under a 128-port spine = 8192 hosts.
  EXPECT_THAT(LeafSpineError(LeafSpineSpec(1025, 1)),
              HasSubstr("fabric.topology: 8200 hosts need 129 leaves of 64 hosts, so each spine needs 129 ports"));
  EXPECT_EQ(LeafSpineError(LeafSpineSpec(1024, 1)), "(built)");
  TopologySpec spec = LeafSpineSpec(16, 1);
  spec.hosts_per_leaf = 128;
  EXPECT_THAT(LeafSpineError(spec), HasSubstr("fabric.topology.hosts_per_leaf: must be below the switch's 128 ports"));
  spec.hosts_per_leaf = 100;  // needs 100 uplinks at o = 1
  EXPECT_THAT(LeafSpineError(spec), HasSubstr("fabric.topology.hosts_per_leaf: 100 hosts per leaf need 100 uplinks"));
  spec.hosts_per_leaf = 0;
  spec.spines = -2;
  EXPECT_THAT(LeafSpineError(spec), HasSubstr("fabric.topology.spines: must be >= 0"));
  spec = LeafSpineSpec(16, 1);
  spec.switch_spec.radix = 1;
  EXPECT_THAT(LeafSpineError(spec), HasSubstr("fabric.switch (128x400G).ports: a switch needs at least 2 ports"));
}

}  // namespace
}  // namespace aifabric
