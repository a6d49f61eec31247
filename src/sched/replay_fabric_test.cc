#include "sched/replay_fabric.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "fabric/ecmp_path.h"
#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

// h0 h1 under leaf0, h2 h3 under leaf1, two spines; 100G everywhere, 1 us
// cables. Port ids follow AddLink: link k has ports 2k (a->b) and 2k+1.
struct TwoSpines {
  Topology t;
  NodeId leaf0, leaf1, spine0, spine1;
  TwoSpines() {
    sched_testing::AddOneNicServers(t, 4);
    const int spec = t.AddSwitchSpec(SwitchSpec{});
    leaf0 = t.AddSwitch("leaf0", 1, spec);
    leaf1 = t.AddSwitch("leaf1", 1, spec);
    spine0 = t.AddSwitch("spine0", 2, spec);
    spine1 = t.AddSwitch("spine1", 2, spec);
    for (int h = 0; h < 4; ++h) t.AddLink(h, h < 2 ? leaf0 : leaf1, DataRate::Gbps(100), Time::FromUs(1));
    for (NodeId l : {leaf0, leaf1}) {
      for (NodeId s : {spine0, spine1}) t.AddLink(l, s, DataRate::Gbps(100), Time::FromUs(1));
    }
  }
  PortId Port(NodeId from, NodeId to) const {
    for (PortId p : t.node(from).ports) {
      if (t.port(p).peer == to) return p;
    }
    return kNoPort;
  }
};

struct FabricRun {
  TwoSpines c;
  RoutingTable routes = RoutingTable::BuildShortestPaths(c.t);
  Simulator sim{1};
  std::vector<uint64_t> done;
  ReplayFabric fabric{sim, c.t, routes, 1.0, 1, Time::FromSeconds(1), {}, [this](uint64_t id, Time) {
                        done.push_back(id);
                      }};
};

// Two flows h0->h2 (4 hops) and h1->h0 (2 hops) of 1,000 and 500 bytes: the
// reference is 1,000; h1->leaf0 carries 0.5 per reference byte, h0's
// uplink 1; the latency is the longer path's, 4 us. Idle, the tightest
// port carries 1 x the reference: 1,000 B at 100G = 80 ns, plus 4 us.
TEST(ReplayFabricTest, RouteSumsEdgesIntoPortsAndCoefficients) {
  FabricRun r;
  const std::vector<CommEdge> edges = {{0, 2, 1000}, {1, 0, 500}};
  const CoflowPlan plan = r.fabric.Route(edges, 7);
  EXPECT_DOUBLE_EQ(plan.reference_bytes, 1000);
  EXPECT_EQ(plan.ports.size(), 6u);  // 4 hops + 2 hops, none shared
  EXPECT_EQ(plan.latency, Time::FromUs(4));
  double h0_up = -1, h1_up = -1;
  for (size_t i = 0; i < plan.ports.size(); ++i) {
    if (plan.ports[i] == r.c.Port(0, r.c.leaf0)) h0_up = plan.coefficients[i];
    if (plan.ports[i] == r.c.Port(1, r.c.leaf0)) h1_up = plan.coefficients[i];
  }
  EXPECT_DOUBLE_EQ(h0_up, 1.0);
  EXPECT_DOUBLE_EQ(h1_up, 0.5);
  EXPECT_EQ(r.fabric.IdleDuration(plan), Time::FromNs(80) + Time::FromUs(4));
  EXPECT_EQ(r.fabric.IdleDuration(plan, 10), Time::FromNs(800) + Time::FromUs(4));
}

// Expected load: a plan carried at half a port's rate on average loads it
// 0.5, and leaving takes it back to 0.
TEST(ReplayFabricTest, ExpectedLoadIsTheRunningJobsAverage) {
  FabricRun r;
  const CoflowPlan plan = r.fabric.Route(std::vector<CommEdge>{{0, 1, 1000}}, 1);
  const PortId up = r.c.Port(0, r.c.leaf0);
  r.fabric.AddExpectedLoad(plan, 100e9 / 8 / 2, +1);
  EXPECT_DOUBLE_EQ(r.fabric.PortLoad(up), 0.5);
  r.fabric.AddExpectedLoad(plan, 100e9 / 8 / 2, -1);
  EXPECT_DOUBLE_EQ(r.fabric.PortLoad(up), 0.0);
}

// Measured load: a coflow of 100G x 2 s from h0 to h1 runs the whole first
// window: refreshed at 1 s, h0's uplink measured 1.0 (what it carried over
// the window / its capacity).
TEST(ReplayFabricTest, MeasuredLoadIsWhatThePortCarriedOverTheWindow) {
  FabricRun r;
  const CoflowPlan plan = r.fabric.Route(std::vector<CommEdge>{{0, 1, 2 * 100e9 / 8}}, 1);
  r.fabric.Start(5, plan, 1.0, 1.0);
  const PortId up = r.c.Port(0, r.c.leaf0);
  double at_half = -1, at_one = -1;
  r.sim.ScheduleCallback(Time::FromMs(500), [&] {
    r.fabric.RefreshMeasuredLoad();  // not a window yet: nothing measured
    at_half = r.fabric.PortLoad(up);
  });
  r.sim.ScheduleCallback(Time::FromSeconds(1), [&] {
    r.fabric.RefreshMeasuredLoad();
    at_one = r.fabric.PortLoad(up);
  });
  r.sim.Run();
  EXPECT_EQ(at_half, 0.0);
  EXPECT_NEAR(at_one, 1.0, 1e-9);
  EXPECT_EQ(r.done, (std::vector<uint64_t>{5}));
}

// Crux's path choice: with spine0's side of leaf0 loaded, every flow from
// h0 to h2 takes spine1, whatever its hash; plain ECMP takes spine0 for
// some key (found by trying).
TEST(ReplayFabricTest, LeastLoadedPathAvoidsTheLoadedUplink) {
  FabricRun r;
  const PortId via0 = r.c.Port(r.c.leaf0, r.c.spine0), via1 = r.c.Port(r.c.leaf0, r.c.spine1);
  CoflowPlan hot;
  hot.reference_bytes = 1;
  hot.ports = {via0};
  hot.coefficients = {1};
  r.fabric.AddExpectedLoad(hot, 100e9 / 8 * 0.9, +1);
  bool plain_took_spine0 = false;
  for (uint64_t key = 0; key < 16; ++key) {
    const std::vector<CommEdge> edge = {{0, 2, 1000}};
    const CoflowPlan chosen = r.fabric.Route(edge, key, true, 1.0);
    EXPECT_NE(std::find(chosen.ports.begin(), chosen.ports.end(), via1), chosen.ports.end()) << key;
    const CoflowPlan plain = r.fabric.Route(edge, key, false);
    plain_took_spine0 = plain_took_spine0 || std::find(plain.ports.begin(), plain.ports.end(), via0) != plain.ports.end();
  }
  EXPECT_TRUE(plain_took_spine0);
}

// A down link: both its ports read down, and every flow from h0 to h2,
// whatever its hash, routes around it through spine1; back up, plain ECMP
// uses spine0 again for some key.
TEST(ReplayFabricTest, RoutesAvoidADownLink) {
  FabricRun r;
  const PortId via0 = r.c.Port(r.c.leaf0, r.c.spine0);
  const LinkId link = r.c.t.port(via0).link;
  r.fabric.SetLinkUp(link, false);
  EXPECT_FALSE(r.fabric.PortUp(via0));
  EXPECT_FALSE(r.fabric.PortUp(r.c.t.port(via0).reverse()));
  EXPECT_TRUE(r.fabric.PortUp(r.c.Port(r.c.leaf0, r.c.spine1)));
  for (uint64_t key = 0; key < 16; ++key) {
    for (bool least_loaded : {false, true}) {
      const CoflowPlan plan = r.fabric.Route(std::vector<CommEdge>{{0, 2, 1000}}, key, least_loaded, 1.0);
      EXPECT_FALSE(r.fabric.CrossesDownLink(plan)) << key;
    }
  }
  EXPECT_EQ(r.fabric.unroutable_edges(), 0u);
  r.fabric.SetLinkUp(link, true);
  bool back = false;
  for (uint64_t key = 0; key < 16; ++key) {
    const CoflowPlan plan = r.fabric.Route(std::vector<CommEdge>{{0, 2, 1000}}, key);
    back = back || std::find(plan.ports.begin(), plan.ports.end(), via0) != plan.ports.end();
  }
  EXPECT_TRUE(back);
}

}  // namespace
}  // namespace aifabric
