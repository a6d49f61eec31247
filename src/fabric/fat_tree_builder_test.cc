#include "fabric/fat_tree_builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using fabric_testing::PeerNames;
using fabric_testing::CountShortestPaths;
using fabric_testing::CountTier;
using fabric_testing::MakeSpec;

TopologySpec KAry(int k, int hosts) {
  // The 32x100G switch has radix 32 >= k for every k used here.
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", hosts, 1, DataRate::Gbps(100));
  spec.k = k;
  return spec;
}

// k-ary fat-tree: k^3/4 hosts; k/2 edge + k/2 agg per pod, k pods, (k/2)^2
// cores: k^2 + k^2/4 = 5k^2/4 switches; links: k^3/4 host links, k pods x
// (k/2)^2 edge-agg, k^2/2 aggs x k/2 cores = k^3/4 each: 3k^3/4 in all.
TEST(FatTree, KAryCounts) {
  for (int k : {4, 8}) {
    const int hosts = k * k * k / 4;
    Result<Topology> t = BuildFatTree(KAry(k, hosts));
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(static_cast<int>(t->hosts().size()), hosts) << k;              // 16, 128
    EXPECT_EQ(static_cast<int>(t->switches().size()), 5 * k * k / 4) << k;   // 20, 80
    EXPECT_EQ(static_cast<int>(t->num_links()), 3 * hosts) << k;             // 48, 384
    EXPECT_EQ(CountTier(*t, 1), k * k / 2);
    EXPECT_EQ(CountTier(*t, 2), k * k / 2);
    EXPECT_EQ(CountTier(*t, 3), k * k / 4);
    // Every switch uses exactly k ports.
    for (NodeId s : t->switches()) EXPECT_EQ(static_cast<int>(t->node(s).ports.size()), k) << t->node(s).name;
  }
}

TEST(FatTree, NamesPodsAndHostOrder) {
  // k = 4: hosts 0-15, leaf0-7 (16-23), agg0-7 (24-31), core0-3 (32-35).
  Result<Topology> t = BuildFatTree(KAry(4, 16));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->node(5).name, "h5");
  EXPECT_EQ(t->node(5).server, 5);
  EXPECT_EQ(t->node(16).name, "leaf0");
  EXPECT_EQ(t->node(24).name, "agg0");
  EXPECT_EQ(t->node(32).name, "core0");
  EXPECT_EQ(t->node(19).pod, 1);  // leaf3: pod 3 / 2 = 1
  EXPECT_EQ(t->node(31).pod, 3);  // agg7
  EXPECT_EQ(t->node(32).pod, -1);
  // Host 5 sits under leaf 5 / 2 = 2.
  EXPECT_EQ(t->port(t->node(5).ports[0]).peer, t->FindByName("leaf2"));
  EXPECT_EQ(t->switch_specs().size(), 1u);
  EXPECT_EQ(t->switch_specs()[0].name, "32x100G");
}

// Shortest paths in a k = 4 fat-tree, as products of next-hop counts:
//   same edge:     host -> edge -> host                          = 1
//   same pod:      1 x (k/2 = 2 aggs) x 1 x 1                    = 2
//   between pods:  1 x (k/2 aggs) x (k/2 cores) x 1 x 1 x 1      = 4
TEST(FatTree, KAryShortestPathCounts) {
  Result<Topology> t = BuildFatTree(KAry(4, 16));
  ASSERT_TRUE(t.ok());
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  for (NodeId a : t->hosts()) {
    for (NodeId b : t->hosts()) {
      if (a == b) continue;
      const bool same_edge = a / 2 == b / 2;
      const bool same_pod = a / 4 == b / 4;
      const int64_t expected = same_edge ? 1 : same_pod ? 2 : 4;
      const int hops = same_edge ? 2 : same_pod ? 4 : 6;
      EXPECT_EQ(CountShortestPaths(*t, rt, a, b), expected) << a << "->" << b;
      EXPECT_EQ(rt.Distance(a, b), hops) << a << "->" << b;
    }
  }
}

TEST(FatTree, PartialKAryBuildsOnlyPodsWithHosts) {
  // 5 hosts in a k = 4 tree (4 per pod): pods 0 and 1, each complete
  // (2 leaves + 2 aggs), plus all 4 cores: 4 + 4 + 4 = 12 switches.
  // Links: 5 host + 2 pods x 4 edge-agg + 4 aggs x 2 cores = 21.
  Result<Topology> t = BuildFatTree(KAry(4, 5));
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t->switches().size(), 12u);
  EXPECT_EQ(t->num_links(), 21u);
}

// Dual-ToR by radix, R = 8, 16 NICs of 100G -> two 50G links each. 4 hosts
// per leaf (given) need ceil(4 * 50 / 100) = 2 uplinks -> 2 aggs per pod;
// 4 pairs = 8 leaves; an agg takes at most 4 downlinks (4 + 4 = 8), so 4
// leaves (2 pairs) per pod, 2 pods. Agg uplinks 4; cores per group: the
// fewest whose ports hold 2 pods x 4 = 8 links is 1 (8 ports), so 2 cores
// with 4 links from each agg. Links: 32 host + 8 x 2 + 4 x 4 = 64.
TEST(FatTree, DualTorPairsShareAPod) {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 4, 4, DataRate::Gbps(100));
  spec.switch_spec.radix = 8;
  spec.hosts_per_leaf = 4;
  spec.dual_tor = true;
  Result<FatTreeShape> shape = SizeFatTree(spec);
  ASSERT_TRUE(shape.ok()) << shape.error().message;
  EXPECT_EQ(shape->aggs_per_pod, 2);
  EXPECT_EQ(shape->leaves_per_pod, 4);
  EXPECT_EQ(shape->pods, 2);
  EXPECT_EQ(shape->cores(), 2);
  EXPECT_EQ(shape->agg_core_links, 4);
  Result<Topology> t = BuildFatTree(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 8);
  EXPECT_EQ(t->num_links(), 64u);
  for (NodeId s : t->switches()) EXPECT_LE(static_cast<int>(t->node(s).ports.size()), 8);
  EXPECT_EQ(PeerNames(*t, 0), (std::vector<std::string>{"leaf0", "leaf1"}));
  EXPECT_EQ(PeerNames(*t, 4), (std::vector<std::string>{"leaf2", "leaf3"}));
  EXPECT_EQ(PeerNames(*t, 8), (std::vector<std::string>{"leaf4", "leaf5"}));
  EXPECT_EQ(t->node(t->FindByName("leaf3")).pod, 0);
  EXPECT_EQ(t->node(t->FindByName("leaf4")).pod, 1);
  EXPECT_EQ(t->port(t->node(0).ports[0]).rate, DataRate::Gbps(50));
  // The k-ary tree has one host per edge port: refused.
  spec.hosts_per_leaf = 0;
  spec.switch_spec.radix = 32;
  spec.k = 4;
  EXPECT_THAT(SizeFatTree(spec).error().message, HasSubstr("fabric.topology.dual_tor: a k-ary fat-tree"));
}

// Two planes of a k = 4 tree: 16 hosts fill 4 pods per plane; each plane
// has 8 leaves, 8 aggs and 4 cores, so 16 + 16 + 8 switches, and 32 host
// links (one 50G link per NIC per plane) + 2 x (16 + 16) = 96 links. Plane
// 1's agg8 (pod 4, the first of its pod) joins plane 1's core group 0:
// core4 and core5.
TEST(FatTree, PlanesRepeatEveryTier) {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 16, 1, DataRate::Gbps(100));
  spec.k = 4;
  spec.planes = 2;
  Result<Topology> t = BuildFatTree(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  EXPECT_EQ(CountTier(*t, 1), 16);
  EXPECT_EQ(CountTier(*t, 2), 16);
  EXPECT_EQ(CountTier(*t, 3), 8);
  EXPECT_EQ(t->num_links(), 96u);
  EXPECT_EQ(PeerNames(*t, 0), (std::vector<std::string>{"leaf0", "leaf8"}));
  EXPECT_EQ(t->node(t->FindByName("leaf8")).pod, 4);
  const std::vector<std::string> agg8 = PeerNames(*t, t->FindByName("agg8"));
  EXPECT_EQ(std::vector<std::string>(agg8.end() - 2, agg8.end()), (std::vector<std::string>{"core4", "core5"}));
}

TEST(FatTree, GeneralRadixNonBlocking) {
  // R = 32, o = 1: 16 hosts + 16 uplinks per leaf, 16 aggs per pod, an agg
  // takes 16 leaves and 16 uplinks. 512 hosts -> 32 leaves -> 2 pods.
  // cores: 32 given -> 2 per group, ceil(16/2) = 8 links from each agg to
  // each; a core then uses 2 pods x 8 = 16 ports.
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 64, 8, DataRate::Gbps(100));
  spec.cores = 32;
  Result<FatTreeShape> shape = SizeFatTree(spec);
  ASSERT_TRUE(shape.ok()) << shape.error().message;
  EXPECT_EQ(shape->hosts_per_leaf, 16);
  EXPECT_EQ(shape->aggs_per_pod, 16);
  EXPECT_EQ(shape->leaves_per_pod, 16);
  EXPECT_EQ(shape->pods, 2);
  EXPECT_EQ(shape->cores_per_group, 2);
  EXPECT_EQ(shape->agg_core_links, 8);
  Result<Topology> t = BuildFatTree(spec);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(CountTier(*t, 1), 32);
  EXPECT_EQ(CountTier(*t, 2), 32);
  EXPECT_EQ(CountTier(*t, 3), 32);
  // 512 host links + 32 leaves x 16 + 32 aggs x 16 = 1536.
  EXPECT_EQ(t->num_links(), 1536u);
  for (NodeId s : t->switches()) EXPECT_LE(static_cast<int>(t->node(s).ports.size()), 32);
  // Between pods, counting parallel links as distinct paths: 16 aggs x
  // (2 cores x 8 links up) x 8 links down to the far agg = 2048.
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  EXPECT_EQ(CountShortestPaths(*t, rt, 0, 511), 2048);
}

TEST(FatTree, GeneralRadixOversubscribed) {
  // R = 32, o = 3: largest n with n + ceil(n/3) <= 32 is 24 -> 8 uplinks, 8
  // aggs per pod; oa = 1: 16 leaves per agg (16 down + 16 up).
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 96, 8, DataRate::Gbps(100));
  spec.oversubscription = 3;
  Result<FatTreeShape> shape = SizeFatTree(spec);
  ASSERT_TRUE(shape.ok()) << shape.error().message;
  EXPECT_EQ(shape->hosts_per_leaf, 24);
  EXPECT_EQ(shape->aggs_per_pod, 8);
  EXPECT_EQ(shape->leaves_per_pod, 16);
  EXPECT_EQ(shape->pods, 2);        // 768 hosts / 24 = 32 leaves
  // Each agg has 16 uplinks; a group's 2 aggs bring 32 links, which one
  // 32-port core holds: 1 core per group, 16 links from each agg, 8 cores.
  EXPECT_EQ(shape->cores_per_group, 1);
  EXPECT_EQ(shape->agg_core_links, 16);
  EXPECT_EQ(shape->cores(), 8);
}

// A partly filled tree shares its cores among the pods it has: the bill of
// materials the planner prices. Worked by hand for the two cases that used to
// get a core per agg uplink (a core using `pods` ports of its radix).
TEST(FatTree, PartialTreeSharesCores) {
  // 16,384 hosts on 128-port switches: 64 hosts + 64 uplinks per leaf, 64
  // aggs per pod, 64 leaves per agg -> 256 leaves in 4 pods; an agg's 64
  // uplinks x 4 pods = 256 links per group -> 2 cores of 128 ports, 32 links
  // from each agg to each: 64 groups x 2 = 128 cores (not 64 x 64 = 4,096).
  TopologySpec big = MakeSpec(TopologyType::kFatTree, "128x400G", 2048, 8, DataRate::Gbps(400));
  Result<FatTreeShape> s = SizeFatTree(big);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->pods, 4);
  EXPECT_EQ(s->cores_per_group, 2);
  EXPECT_EQ(s->agg_core_links, 32);
  EXPECT_EQ(s->cores(), 128);
  // On 64-port switches: 32 + 32 per leaf, 512 leaves in 16 pods of 32;
  // 32 uplinks x 16 pods = 512 links per group -> 8 cores of 64 ports, 4
  // links each: 32 groups x 8 = 256 cores (not 1,024).
  TopologySpec mid = MakeSpec(TopologyType::kFatTree, "64x400G", 2048, 8, DataRate::Gbps(400));
  s = SizeFatTree(mid);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->pods, 16);
  EXPECT_EQ(s->cores_per_group, 8);
  EXPECT_EQ(s->agg_core_links, 4);
  EXPECT_EQ(s->cores(), 256);
  // Built, every core uses all its ports and the bisection is intact: each
  // agg still has 32 links up, as many as down.
  Result<Topology> t = BuildFatTree(mid);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(CountTier(*t, 3), 256);
  for (NodeId sw : t->switches()) {
    if (t->node(sw).tier == 3) {
      EXPECT_EQ(static_cast<int>(t->node(sw).ports.size()), 64);
    }
  }
  // Links: 16,384 host + 512 leaves x 32 + 512 aggs x 32 = 49,152.
  EXPECT_EQ(t->num_links(), 49152u);
}

std::string FatTreeError(const TopologySpec& spec) {
  Result<Topology> t = BuildFatTree(spec);
  return t.ok() ? "(built)" : t.error().message;
}

TEST(FatTree, Errors) {
  EXPECT_THAT(FatTreeError(KAry(5, 4)), HasSubstr("fabric.topology.k: must be an even number"));
  EXPECT_THAT(FatTreeError(KAry(4, 17)), HasSubstr("fabric.topology.k: a k = 4 fat-tree holds at most k^3/4 = 16 hosts"));
  EXPECT_THAT(FatTreeError(KAry(34, 16)), HasSubstr("exceeds the 32-port switch"));
  TopologySpec spec = KAry(4, 16);
  spec.hosts_per_leaf = 2;
  EXPECT_THAT(FatTreeError(spec), HasSubstr("fabric.topology.hosts_per_leaf: not used with k"));
  spec = KAry(4, 16);
  spec.oversubscription = 2;
  EXPECT_THAT(FatTreeError(spec), HasSubstr("fabric.topology.oversubscription: a k-ary fat-tree is non-blocking"));

  TopologySpec general = MakeSpec(TopologyType::kFatTree, "32x100G", 64, 8, DataRate::Gbps(100));
  general.cores = 20;
  EXPECT_THAT(FatTreeError(general), HasSubstr("fabric.topology.cores: must be a multiple of aggs_per_pod (16"));
  general.cores = 0;
  general.agg_oversubscription = 0.5;
  EXPECT_THAT(FatTreeError(general), HasSubstr("fabric.topology.agg_oversubscription: must be >= 1"));
  // 32 pods of 256 hosts fill 32-port cores; one more host needs a 33rd pod.
  TopologySpec big = MakeSpec(TopologyType::kFatTree, "32x100G", 8193, 1, DataRate::Gbps(100));
  EXPECT_THAT(FatTreeError(big), HasSubstr("fabric.topology: 8193 hosts need 513 leaves in 33 pods"));
  big.servers = 8192;
  EXPECT_TRUE(SizeFatTree(big).ok());
  TopologySpec neg = general;
  neg.agg_oversubscription = 1;
  neg.leaves_per_pod = -1;
  EXPECT_THAT(FatTreeError(neg), HasSubstr("fabric.topology.leaves_per_pod: must be >= 0"));
}

}  // namespace
}  // namespace aifabric
