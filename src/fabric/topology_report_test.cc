#include "fabric/topology_report.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "fabric/fabric_test_util.h"
#include "fabric/fat_tree_builder.h"
#include "fabric/leaf_spine_builder.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;
using fabric_testing::MakeSpec;

// A k-ary fat-tree carries hosts * rate across every tier boundary
// (k^3/4 links each), so its bisection is hosts * rate / 2:
// k = 4, 100G: 16 * 100 / 2 = 800 Gbps; k = 8: 128 * 100 / 2 = 6400 Gbps.
TEST(TopologyReport, FatTreeBisection) {
  for (int k : {4, 8}) {
    const int hosts = k * k * k / 4;
    TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", hosts, 1, DataRate::Gbps(100));
    spec.k = k;
    Result<Topology> t = BuildFatTree(spec);
    ASSERT_TRUE(t.ok());
    const TopologyReport r = MakeTopologyReport(*t);
    EXPECT_EQ(r.hosts, hosts);
    EXPECT_EQ(r.switches, 5 * k * k / 4);
    EXPECT_EQ(r.links, 3 * hosts);
    EXPECT_DOUBLE_EQ(r.host_bandwidth_gbps, hosts * 100.0);
    EXPECT_DOUBLE_EQ(r.bisection_gbps, hosts * 100.0 / 2);
    ASSERT_EQ(r.tiers.size(), 3u);
    EXPECT_EQ(r.tiers[0].switches, k * k / 2);
    EXPECT_EQ(r.tiers[2].switches, k * k / 4);
    EXPECT_DOUBLE_EQ(r.tiers[0].oversubscription, 1.0);
    EXPECT_DOUBLE_EQ(r.tiers[1].oversubscription, 1.0);
    EXPECT_FALSE(r.tiers[2].has_uplinks);
    EXPECT_EQ(r.crossing_gbps, (std::vector<double>{hosts * 100.0, hosts * 100.0, hosts * 100.0}));
  }
}

// Leaf-spine at o = 3 (96 hosts, 32 uplinks per leaf, 192 hosts):
// host-leaf 192 x 400G = 76.8T, leaf-spine 64 x 400G = 25.6T;
// bisection = 25.6T / 2 = 12.8T.
TEST(TopologyReport, OversubscribedBisectionAndTable) {
  TopologySpec spec = MakeSpec(TopologyType::kLeafSpine, "128x400G", 24, 8, DataRate::Gbps(400));
  spec.oversubscription = 3;
  Result<Topology> t = BuildLeafSpine(spec);
  ASSERT_TRUE(t.ok());
  const TopologyReport r = MakeTopologyReport(*t);
  EXPECT_DOUBLE_EQ(r.bisection_gbps, 12800);
  EXPECT_DOUBLE_EQ(r.tiers[0].down_gbps, 76800);
  EXPECT_DOUBLE_EQ(r.tiers[0].up_gbps, 25600);
  EXPECT_DOUBLE_EQ(r.tiers[1].down_gbps, 25600);
  const std::string text = FormatReport(r);
  EXPECT_THAT(text, HasSubstr("hosts 192, switches 34 (leaf 2, spine 32), links 256"));
  EXPECT_THAT(text, HasSubstr("bisection bandwidth: 12.8Tbps"));
  EXPECT_THAT(text, HasSubstr("switch: 128x400G"));
  EXPECT_THAT(text, HasSubstr("3.0\n"));
  EXPECT_THAT(text, HasSubstr("- (no uplinks)"));
}

TEST(TopologyReport, OddRatioKeepsTwoDecimals) {
  // Hand-built: one leaf, 4 x 100G hosts down, 3 x 100G up -> 1.33.
  Topology t;
  for (int i = 0; i < 4; ++i) t.AddHost(std::string("h").append(std::to_string(i)));
  const int spec = t.AddSwitchSpec(fabric_testing::NamedSwitch("x"));
  const NodeId leaf = t.AddSwitch("leaf0", 1, spec);
  const NodeId spine = t.AddSwitch("spine0", 2, spec);
  for (int i = 0; i < 4; ++i) t.AddLink(i, leaf, DataRate::Gbps(100), Time::Zero());
  for (int i = 0; i < 3; ++i) t.AddLink(leaf, spine, DataRate::Gbps(100), Time::Zero());
  const TopologyReport r = MakeTopologyReport(t);
  EXPECT_NEAR(r.tiers[0].oversubscription, 4.0 / 3, 1e-12);
  EXPECT_THAT(FormatReport(r), HasSubstr("1.33\n"));
}

}  // namespace
}  // namespace aifabric
