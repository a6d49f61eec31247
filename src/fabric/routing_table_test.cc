#include "fabric/routing_table.h"

#include <gtest/gtest.h>

#include <chrono>

#include "fabric/fabric_test_util.h"
#include "fabric/fat_tree_builder.h"

namespace aifabric {
namespace {

using fabric_testing::CountShortestPaths;
using fabric_testing::MakeSpec;

// k = 16 fat-tree: 16^3/4 = 1024 hosts, 5*16^2/4 = 320 switches, 1344 nodes.
// Between pods there are (k/2)^2 = 64 shortest paths of 6 hops.
TEST(RoutingTable, LargeFatTreeIsFast) {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 1024, 1, DataRate::Gbps(100));
  spec.k = 16;
  Result<Topology> t = BuildFatTree(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  ASSERT_EQ(t->num_nodes(), 1344u);
  const auto start = std::chrono::steady_clock::now();
  const RoutingTable rt = RoutingTable::BuildShortestPaths(*t);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 0.5);
  EXPECT_EQ(rt.Distance(0, 1023), 6);
  EXPECT_EQ(CountShortestPaths(*t, rt, 0, 1023), 64);
  // Within a pod (64 hosts), across edges: k/2 = 8 paths.
  EXPECT_EQ(CountShortestPaths(*t, rt, 0, 63), 8);
  EXPECT_TRUE(rt.NextHops(5, 5).empty());
  EXPECT_EQ(rt.Distance(5, 5), 0);
}

// A host with two links (dual-homed) has two next hops; paths never pass
// through another host, and ports come in port-id order.
//
//   h4 - h0 - s2 - h1
//          \- s3 -/
TEST(RoutingTable, DualHomedHostAndNoTransitThroughHosts) {
  Topology t;
  t.AddHost("h0");
  t.AddHost("h1");
  const int spec = t.AddSwitchSpec(SwitchSpec{});
  t.AddSwitch("s2", 1, spec);
  t.AddSwitch("s3", 1, spec);
  t.AddHost("h4");
  const DataRate r = DataRate::Gbps(100);
  t.AddLink(0, 2, r, Time::Zero());  // ports 0, 1
  t.AddLink(0, 3, r, Time::Zero());  // ports 2, 3
  t.AddLink(2, 1, r, Time::Zero());  // ports 4, 5
  t.AddLink(3, 1, r, Time::Zero());  // ports 6, 7
  t.AddLink(4, 0, r, Time::Zero());  // ports 8, 9: h4 hangs off h0 only
  const RoutingTable rt = RoutingTable::BuildShortestPaths(t);
  const auto hops = rt.NextHops(0, 1);
  ASSERT_EQ(hops.size(), 2u);
  EXPECT_EQ(hops[0], 0);
  EXPECT_EQ(hops[1], 2);
  EXPECT_EQ(rt.Distance(0, 1), 2);
  // h4 reaches h0 directly but nothing beyond: h0 does not forward.
  EXPECT_EQ(rt.Distance(4, 0), 1);
  EXPECT_EQ(rt.Distance(4, 1), -1);
  EXPECT_TRUE(rt.NextHops(4, 1).empty());
  EXPECT_EQ(rt.Distance(2, 4), -1);
}

}  // namespace
}  // namespace aifabric
