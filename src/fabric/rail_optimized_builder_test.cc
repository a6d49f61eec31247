#include "fabric/rail_optimized_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using fabric_testing::CountShortestPaths;
using fabric_testing::CountTier;
using fabric_testing::MakeSpec;

// 32 servers x 4 rails on 32x100G, o = 1: a leaf takes 16 servers of one
// rail and 16 uplinks, so 2 leaves per rail, 8 leaves, 16 spines with one
// link from each leaf (a spine uses 8 ports).
// Links: 128 host + 8 x 16 = 256.
TEST(RailOptimized, Shape) {
  const TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "32x100G", 32, 4, DataRate::Gbps(100));
  Result<Topology> t = BuildRailOptimized(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(t->hosts().size(), 128u);
  EXPECT_EQ(CountTier(*t, 1), 8);
  EXPECT_EQ(CountTier(*t, 2), 16);
  EXPECT_EQ(t->num_links(), 256u);
  // NIC r of every server sits under rail r's leaves: leaf 2r + server/16.
  for (NodeId h : t->hosts()) {
    const Node& host = t->node(h);
    EXPECT_EQ(h, host.server * 4 + host.rail);
    const std::string leaf = t->node(t->port(host.ports[0]).peer).name;
    EXPECT_EQ(leaf, "leaf" + std::to_string(2 * host.rail + host.server / 16)) << host.name;
  }
}

// Dual-ToR rails: 4 servers x 2 NICs of 400G on 128 x 400G, 200G per port.
// A rail's 4 servers fit one ToR pair; 2 rails -> 4 leaves, each with
// ceil(4 * 200 / 400) = 2 uplinks -> 2 spines. Server s, rail r: leaves 2r
// and 2r + 1. Links: 8 x 2 + 4 x 2 = 24.
TEST(RailOptimized, DualTorPairsPerRail) {
  TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "128x400G", 4, 2, DataRate::Gbps(400));
  spec.dual_tor = true;
  Result<Topology> t = BuildRailOptimized(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 4);
  EXPECT_EQ(CountTier(*t, 2), 2);
  EXPECT_EQ(t->num_links(), 24u);
  for (NodeId h : t->hosts()) {
    const Node& host = t->node(h);
    ASSERT_EQ(host.ports.size(), 2u);
    for (int side = 0; side < 2; ++side) {
      EXPECT_EQ(t->node(t->port(host.ports[side]).peer).name, "leaf" + std::to_string(2 * host.rail + side))
          << host.name;
    }
  }
}

// Two planes of rails: 4 servers x 2 NICs of 400G on 128 x 400G, each NIC
// a 200G port into each plane. Per plane a rail's 4 servers fit one leaf,
// so 2 leaves, each with ceil(4 x 200 / 400) = 2 uplinks -> 2 spines;
// plane 0 = leaf0-1 + spine0-1, plane 1 = leaf2-3 + spine2-3. Server s,
// rail r: leaf r and leaf 2 + r. Links: 8 x 2 + 4 x 2 = 24, none between
// the planes; rail 0 to rail 1 of another server: 2 spines in each plane.
TEST(RailOptimized, PlanesAreCopiesWithOneNicPortEach) {
  TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "128x400G", 4, 2, DataRate::Gbps(400));
  spec.planes = 2;
  Result<Topology> t = BuildRailOptimized(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 4);
  EXPECT_EQ(CountTier(*t, 2), 4);
  EXPECT_EQ(t->num_links(), 24u);
  for (NodeId h : t->hosts()) {
    const Node& host = t->node(h);
    ASSERT_EQ(host.ports.size(), 2u);
    for (int plane = 0; plane < 2; ++plane) {
      EXPECT_EQ(t->port(host.ports[plane]).rate, DataRate::Gbps(200));
      EXPECT_EQ(t->node(t->port(host.ports[plane]).peer).name, "leaf" + std::to_string(2 * plane + host.rail))
          << host.name;
    }
  }
  for (int leaf = 0; leaf < 4; ++leaf) {
    const Node& node = t->node(t->FindByName("leaf" + std::to_string(leaf)));
    for (PortId p : node.ports) {
      const Node& peer = t->node(t->port(p).peer);
      if (peer.kind != NodeKind::kSwitch) continue;
      const int spine = std::stoi(peer.name.substr(5));
      EXPECT_EQ(spine / 2, leaf / 2) << node.name << " reaches " << peer.name << " of the other plane";
    }
  }
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  const NodeId s0r0 = 0, s1r1 = 3;
  EXPECT_EQ(rt.Distance(s0r0, s1r1), 4);
  EXPECT_EQ(CountShortestPaths(*t, rt, s0r0, s1r1), 4);
}

// Two NICs of one server on different rails: host-leaf-spine-leaf-host, 4
// hops (2 switch-to-switch hops), one path per spine = 16. The same rail of
// two servers under one leaf: 2 hops, 1 path.
TEST(RailOptimized, Distances) {
  const TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "32x100G", 32, 4, DataRate::Gbps(100));
  Result<Topology> t = BuildRailOptimized(spec);
  ASSERT_TRUE(t.ok());
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  const NodeId s0r0 = 0, s0r1 = 1, s1r0 = 4;
  EXPECT_EQ(rt.Distance(s0r0, s0r1), 4);
  EXPECT_EQ(CountShortestPaths(*t, rt, s0r0, s0r1), 16);
  EXPECT_EQ(rt.Distance(s0r0, s1r0), 2);
  EXPECT_EQ(CountShortestPaths(*t, rt, s0r0, s1r0), 1);
  // Rail 0 of servers 0 and 31 (leaf0 vs leaf1): also through the spines.
  EXPECT_EQ(rt.Distance(0, 31 * 4), 4);
}

TEST(RailOptimized, TooManyLeavesForTheSpine) {
  // 32-port spines take 32 leaves; 8 rails x 5 leaves (65 servers / 16) = 40.
  TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "32x100G", 65, 8, DataRate::Gbps(100));
  spec.tiers = 2;
  Result<Topology> t = BuildRailOptimized(spec);
  ASSERT_FALSE(t.ok());
  EXPECT_THAT(t.error().message, HasSubstr("need 40 leaves of 16 hosts (5 per rail x 8 rails)"));
}

// The same cluster with tiers left to the builder: one spine layer cannot
// hold it, so 3 tiers. By hand, on 32-port 100G switches at 1:1: a leaf
// takes one rail of 16 servers and 16 uplinks; an agg takes 16 leaves,
// rounded to a multiple of the 8 rails: 16, 2 per rail, so a pod holds 32
// servers and 65 servers need 3 pods (48 leaves, 48 aggs). An agg's 16
// uplinks x 3 pods = 48 links per core group -> 2 cores (32 ports), 8 links
// each: 16 groups x 2 = 32 cores.
TEST(RailOptimized, ThreeTiersWhenOneSpineLayerCannot) {
  const TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "32x100G", 65, 8, DataRate::Gbps(100));
  Result<Topology> t = BuildRailOptimized(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 48);
  EXPECT_EQ(CountTier(*t, 2), 48);
  EXPECT_EQ(CountTier(*t, 3), 32);
  // Every NIC's leaf carries only its rail, and a leaf's hosts are one pod's.
  for (NodeId h : t->hosts()) {
    const Node& host = t->node(h);
    const NodeId leaf = t->port(host.ports[0]).peer;
    const int index = t->node(leaf).pod * 16 + host.rail * 2 + (host.server % 32) / 16;
    EXPECT_EQ(t->node(leaf).name, "leaf" + std::to_string(index)) << host.name;
    EXPECT_EQ(t->node(leaf).pod, host.server / 32) << host.name;
  }
  // Rail 3 of servers 0 and 20 (one pod, leaves 6 and 7): leaf-agg-leaf, 4
  // hops over the pod's 16 aggs. Across pods: through a core, 6 hops.
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  EXPECT_EQ(rt.Distance(0 * 8 + 3, 20 * 8 + 3), 4);
  EXPECT_EQ(CountShortestPaths(*t, rt, 3, 20 * 8 + 3), 16);
  EXPECT_EQ(rt.Distance(3, 40 * 8 + 3), 6);
  TopologySpec three = spec;
  three.tiers = 3;
  three.servers = 4;  // forced to 3 tiers even when 2 would do: 1 pod
  Result<Topology> small = BuildRailOptimized(three);
  ASSERT_TRUE(small.ok()) << small.error().message;
  EXPECT_EQ(small->max_tier(), 3);
}

}  // namespace
}  // namespace aifabric
