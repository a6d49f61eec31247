// The alpha-beta model: a transfer takes the idle path's time, stretched by
// the oversubscription of the tiers it climbs; transfers do not interact.
#include "flow/analytic_network.h"

#include <gtest/gtest.h>

#include <map>
#include <string>

#include "fabric/leaf_spine_builder.h"
#include "fabric/topology_spec.h"
#include "flow/flow_test_util.h"

namespace aifabric {
namespace {

using flow_testing::Finishes;

// Two leaves of 4 hosts at 100G, oversubscribed 2:1 (2 spine links per
// leaf at 100G), 500 ns cables, 400 ns switches.
Topology TwoLeaves() {
  TopologySpec spec;
  spec.servers = 8;
  spec.nics_per_server = 1;
  spec.nic_rate = DataRate::Gbps(100);
  spec.switch_spec.name = "t";
  spec.switch_spec.radix = 8;
  spec.switch_spec.port_rate = DataRate::Gbps(100);
  spec.switch_spec.latency = Time::FromNs(400);
  spec.switch_spec.buffer_bytes = 1 << 24;
  spec.hosts_per_leaf = 4;
  spec.oversubscription = 2;
  return BuildLeafSpine(spec).value();
}

// An AnalyticNetwork on TwoLeaves, its completions recorded.
struct TwoLeavesRun {
  TwoLeavesRun() { net.SetObserver(&done); }
  Topology t = TwoLeaves();
  RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  Simulator sim{1};
  AnalyticNetwork net{sim, t, routes, FlowConfig{}};
  Finishes done;
};

TEST(AnalyticNetwork, SameLeafIsTheIdlePathAndCrossingTheSpineTakesTheOversubscription) {
  TwoLeavesRun run;
  const Topology& t = run.t;
  AnalyticNetwork& net = run.net;
  Finishes& done = run.done;
  TransferRequest same;
  same.id = 1;
  same.src = 0;
  same.dst = 1;
  same.bytes = 4096 * 100;
  TransferRequest cross = same;
  cross.id = 2;
  cross.dst = 5;
  net.StartTransfer(same);
  net.StartTransfer(cross);
  net.StartTransfer([&] { TransferRequest again = same; again.id = 3; return again; }());
  run.sim.Run();
  // Inside a leaf: alone on the idle path, whatever else runs (transfer 3
  // shares every link with 1 and still takes the same time).
  EXPECT_EQ(done.at.at(1), net.IdealFct(same));
  EXPECT_EQ(done.at.at(3), done.at.at(1));
  // Across the spine (2:1): the bandwidth term doubles. 100 packets of
  // 4096 + 82 bytes at 100G = 33.424 us more than alone.
  EXPECT_EQ(done.at.at(2) - net.IdealFct(cross), Time::FromNs(33'424));
  // All three leave host 0 over its one link.
  EXPECT_NEAR(net.bytes_carried(t.node(0).ports[0]), 3 * 409600.0, 1e-9);
}

TEST(AnalyticNetwork, ACoflowTakesTheLongerOfItsChainAndItsStretchedDrain) {
  // Two edges: 0 -> 1 inside a leaf and 0 -> 5 across the 2:1 spine, 409,600
  // bytes each (100 packets). D = the longest stretched bandwidth term:
  // the cross edge's, 2 x 33.424 us = 66.848 us. With no chain, depth 0
  // and a 1 us latency: D + 1 us. With a 100 us chain (and one of the
  // paths' latency at weight 1) and depth 0.5: 100 us + that path latency
  // + D / 2 > D, plus 1 us.
  TwoLeavesRun run;
  AnalyticNetwork& net = run.net;
  Finishes& done = run.done;
  CoflowRequest c;
  c.id = 7;
  c.edges = {CoflowEdge{0, 1, 409'600, 0, 0.0}, CoflowEdge{0, 5, 409'600, 0, 0.0}};
  c.timing.latency = Time::FromUs(1);
  ASSERT_TRUE(net.StartCoflow(c).ok());
  CoflowRequest chained = c;
  chained.id = 8;
  chained.edges[0].latency_weight = 1;
  chained.timing.chain = Time::FromUs(100);
  chained.timing.depth = 0.5;
  ASSERT_TRUE(net.StartCoflow(chained).ok());
  run.sim.Run();
  const Time d = Time::FromNs(66'848);
  EXPECT_EQ(done.at.at(7), d + Time::FromUs(1));
  TransferRequest same;
  same.src = 0;
  same.dst = 1;
  same.bytes = 409'600;
  // The same-leaf edge's path latency: its idle time less its bandwidth term (33.424 us).
  const Time path_latency = net.IdealFct(same) - Time::FromNs(33'424);
  EXPECT_EQ(done.at.at(8), Time::FromUs(100) + path_latency + Time::FromNs(33'424) + Time::FromUs(1));
}

}  // namespace
}  // namespace aifabric
