#include "flow/path_split.h"

#include <gtest/gtest.h>

#include <map>

#include "fabric/fabric_test_util.h"
#include "fabric/topology_builder.h"

namespace aifabric {
namespace {

using fabric_testing::MakeSpec;

// k = 4 fat-tree: hosts 0-15, leaf0-7 (16-23), agg0-7 (24-31), core0-3
// (32-35); leaf i holds hosts 2i, 2i+1 in pod i/2.
Topology FatTreeK4() {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 16, 1, DataRate::Gbps(100));
  spec.k = 4;
  return *BuildTopology(spec);
}

// Fraction by tier crossed: (tier of the sender, tier of the receiver).
std::map<std::pair<int, int>, std::vector<double>> ByHop(const Topology& t, const std::vector<PortShare>& split) {
  std::map<std::pair<int, int>, std::vector<double>> out;
  for (const PortShare& s : split) {
    const Port& p = t.port(s.port);
    out[{t.node(p.node).tier, t.node(p.peer).tier}].push_back(s.fraction);
  }
  return out;
}

// Spraying h0 -> h15 (another pod): the host link carries it all, each of
// the leaf's 2 up-ports 1/2, each agg's 2 core links 1/4 (4 paths), each
// core's one link into the pod 1/4, each of the 2 aggs there 1/2 down to
// the leaf, the last link 1. 1 + 2 + 4 + 4 + 2 + 1 = 14 ports.
TEST(PathSplitter, SprayHalvesAtEveryBranch) {
  const Topology t = FatTreeK4();
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  PathSplitter splitter(t, routes);
  std::vector<PortShare> split;
  splitter.Split(0, 15, {}, split);
  ASSERT_EQ(split.size(), 14u);
  const auto hops = ByHop(t, split);
  EXPECT_EQ(hops.at({0, 1}), std::vector<double>({1.0}));
  EXPECT_EQ(hops.at({1, 2}), std::vector<double>(2, 0.5));
  EXPECT_EQ(hops.at({2, 3}), std::vector<double>(4, 0.25));
  EXPECT_EQ(hops.at({3, 2}), std::vector<double>(4, 0.25));
  EXPECT_EQ(hops.at({2, 1}), std::vector<double>(2, 0.5));
  EXPECT_EQ(hops.at({1, 0}), std::vector<double>({1.0}));
  // Same leaf: one path of two hops.
  split.clear();
  splitter.Split(0, 1, {}, split);
  ASSERT_EQ(split.size(), 2u);
  EXPECT_EQ(split[0].fraction, 1.0);
  EXPECT_EQ(split[1].fraction, 1.0);
}

// Adaptive on an idle fabric of equal rates is the spray split; with load
// on one of the leaf's up-ports it water-fills: loads (L, 0), one unit
// arriving, equal rates: level (1 + L) / 2, so the loaded port takes
// (1 - L) / 2 while L < 1, and none from L = 1 (the free port takes it all).
TEST(PathSplitter, AdaptiveEvensOutTheLoadOnTheNextHops) {
  const Topology t = FatTreeK4();
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  PathSplitter splitter(t, routes);
  std::vector<double> load(t.ports().size(), 0.0);
  std::vector<PortShare> spray, adaptive;
  splitter.Split(0, 15, {}, spray);
  splitter.Split(0, 15, load, adaptive);
  ASSERT_EQ(spray.size(), adaptive.size());
  for (size_t i = 0; i < spray.size(); ++i) {
    EXPECT_EQ(spray[i].port, adaptive[i].port);
    EXPECT_DOUBLE_EQ(spray[i].fraction, adaptive[i].fraction);
  }
  const std::span<const PortId> up = routes.NextHops(16, 15);  // leaf0's up-ports toward h15
  ASSERT_EQ(up.size(), 2u);
  for (const double l : {0.5, 1.0, 3.0}) {
    load.assign(load.size(), 0.0);
    load[static_cast<size_t>(up[0])] = l;
    std::vector<PortShare> split;
    splitter.Split(0, 15, load, split);
    double on_loaded = 0, on_free = 0;
    for (const PortShare& s : split) {
      if (s.port == up[0]) on_loaded = s.fraction;
      if (s.port == up[1]) on_free = s.fraction;
    }
    EXPECT_DOUBLE_EQ(on_loaded, l < 1 ? (1 - l) / 2 : 0.0) << l;
    EXPECT_DOUBLE_EQ(on_free, l < 1 ? (1 + l) / 2 : 1.0) << l;
    // Whatever the split, all of it arrives: the ports into h15 carry 1.
    double arriving = 0;
    for (const PortShare& s : split) arriving += t.port(s.port).peer == 15 ? s.fraction : 0;
    EXPECT_DOUBLE_EQ(arriving, 1.0);
  }
}

}  // namespace
}  // namespace aifabric
