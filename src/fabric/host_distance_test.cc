// Hop distances from the nearest host, worked by hand on a small fabric.
#include "fabric/host_distance.h"

#include <gtest/gtest.h>

#include <utility>
#include <vector>

namespace aifabric {
namespace {

// h0 - leaf0 - spine - leaf1 - h1, top above spine, and h2 on leaf1 and on
// leaf2 (two links); a lone switch and a switch pair no host reaches:
//   hosts 0; leaf0, leaf1, leaf2 1 (a host link); spine 2; top 3;
//   lone, a, b -1. The switches' own tiers are ignored.
struct Fabric {
  Topology t;
  NodeId h0, h1, h2, leaf0, leaf1, leaf2, spine, top, lone, a, b;
  int spec = 0;
  Fabric() {
    spec = t.AddSwitchSpec(SwitchSpec{});
    h0 = t.AddHost("h0", 0, 0);
    h1 = t.AddHost("h1", 1, 0);
    h2 = t.AddHost("h2", 2, 0);
    leaf0 = t.AddSwitch("leaf0", 7, spec);
    leaf1 = t.AddSwitch("leaf1", 7, spec);
    leaf2 = t.AddSwitch("leaf2", -1, spec);
    spine = t.AddSwitch("spine", -1, spec);
    top = t.AddSwitch("top", -1, spec);
    lone = t.AddSwitch("lone", 1, spec);
    a = t.AddSwitch("a", -1, spec);
    b = t.AddSwitch("b", -1, spec);
    const DataRate r = DataRate::Gbps(100);
    for (auto [x, y] : std::vector<std::pair<NodeId, NodeId>>{
             {h0, leaf0}, {leaf0, spine}, {spine, leaf1}, {leaf1, h1}, {spine, top}, {h2, leaf1}, {h2, leaf2}, {a, b}}) {
      t.AddLink(x, y, r, Time::Zero());
    }
  }
};

TEST(HostDistance, BreadthFirstFromEveryHost) {
  const Fabric f;
  const std::vector<int> d = HostDistances(f.t);
  ASSERT_EQ(d.size(), f.t.num_nodes());
  EXPECT_EQ(d[f.h0], 0);
  EXPECT_EQ(d[f.h1], 0);
  EXPECT_EQ(d[f.h2], 0);
  EXPECT_EQ(d[f.leaf0], 1);
  EXPECT_EQ(d[f.leaf1], 1);
  EXPECT_EQ(d[f.leaf2], 1);
  EXPECT_EQ(d[f.spine], 2);
  EXPECT_EQ(d[f.top], 3);
  EXPECT_EQ(d[f.lone], -1);
  EXPECT_EQ(d[f.a], -1);
  EXPECT_EQ(d[f.b], -1);
}

// A link from top to h0 makes the nearest host one hop away: top 1.
TEST(HostDistance, TheNearestHostWins) {
  Fabric f;
  f.t.AddLink(f.top, f.h0, DataRate::Gbps(100), Time::Zero());
  EXPECT_EQ(HostDistances(f.t)[f.top], 1);
  EXPECT_EQ(HostDistances(f.t)[f.spine], 2);
}

TEST(HostDistance, SetTiersFromHostDistanceRewritesEverySwitchTier) {
  Fabric f;
  SetTiersFromHostDistance(f.t);
  EXPECT_EQ(f.t.node(f.leaf0).tier, 1);
  EXPECT_EQ(f.t.node(f.leaf2).tier, 1);
  EXPECT_EQ(f.t.node(f.spine).tier, 2);
  EXPECT_EQ(f.t.node(f.top).tier, 3);
  EXPECT_EQ(f.t.node(f.lone).tier, -1);
  EXPECT_EQ(f.t.node(f.b).tier, -1);
  EXPECT_EQ(f.t.node(f.top).switch_spec, f.spec);
  EXPECT_EQ(f.t.node(f.h0).tier, 0);
  EXPECT_EQ(f.t.hosts().size(), 3u);
}

}  // namespace
}  // namespace aifabric
