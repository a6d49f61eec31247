// Specs of link faults at flow level (flow/flow_faults.h), each against a
// figure worked out by hand on a 2-spine leaf-spine (TwoSpines: 400G links,
// 500 ns cables, 400 ns switches). The numbers the tests share:
//   payload rate c = 400e9 * 4096 / 4178 bit/s (RoCEv2 framing);
//   B = 1000 full packets = 4,096,000 bytes drain in B * 8 / c =
//     1000 * 4178 * 8 / 400e9 s = 83.56 us;
//   path latency h0 -> leaf0 -> spine -> leaf1 -> h1 (FlowNetwork's
//     PathLatency): 4 cables (2,000 ns) + 3 switches (1,200 ns) + the first
//     packet's store-and-forward on 3 of the 4 hops (3 x 83.56 ns) =
//     3,450.68 ns;
//   what a dying 400G port holds of a fluid at rate x: x * (500 ns cable +
//     83.56 ns frame) / 8, i.e. at the full rate c:
//     50e9 B/s * 583.56 ns * 4096 / 4178 = 29,178 * 4096 / 4178 = 28,605.3 B,
//     which take 583.56 ns to send again at c.
#include "flow/flow_faults.h"

#include <gtest/gtest.h>

#include <cmath>
#include <utility>

#include "engine/simulator.h"
#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "flow/flow_dcqcn.h"
#include "flow/flow_network.h"

namespace aifabric {
namespace {

using fabric_testing::TwoSpines;

constexpr uint64_t kBytes = 4'096'000;           // 1000 full packets
constexpr int64_t kDrainPs = 83'560'000;         // kBytes at c
constexpr int64_t kLatencyPs = 3'450'680;        // the path's latency
constexpr int64_t kResendPs = 583'560;           // a dying port's share at c, sent again
constexpr uint64_t kLostBytes = 28'605;          // that share in bytes, rounded

struct FlowRun {
  explicit FlowRun(const Topology& t, FlowConfig config = {})
      : sim(1), routes(RoutingTable::BuildShortestPaths(t)), net(sim, t, routes, config) {}
  void Start(NodeId src, NodeId dst, uint64_t bytes = kBytes) {
    TransferRequest r;
    r.id = 0;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    net.StartTransfer(r);
  }
  // The spine the flow's hash picked.
  NodeId Via(const Topology& t) { return t.port(net.path(0)[1]).peer; }
  void Inject(const LinkFault& fault) {
    ASSERT_TRUE(net.InjectFaults(std::span<const LinkFault>(&fault, 1)).ok());
  }
  Simulator sim;
  RoutingTable routes;
  FlowNetwork net;
};

LinkFault Down(LinkId link, Time at, Time detection, Time until = Time::Infinite()) {
  LinkFault f;
  f.kind = FaultKind::kLinkDown;
  f.links = {link};
  f.at = at;
  f.until = until;
  f.detection = detection;
  f.name = "leaf0-spine";
  return f;
}

TEST(FlowFaults, LinkDownStallsTheFlowUntilDetectionThenItFinishesOnTheOtherSpine) {
  // The link under the flow fails at 5 us; routing hears at 15 us. The
  // flow runs at c until 5 us, stalls (rate 0) for the 10 us detection,
  // must send again the 583.56 ns of data that was on the dead link's
  // wire, and goes on at c over the other spine:
  //   FCT = 83.56 us + 10 us + 583.56 ns + 3,450.68 ns = 97,594,240 ps.
  TwoSpines f;
  FlowRun run(f.t);
  run.Start(f.h0, f.h1);
  const NodeId via = run.Via(f.t);
  const NodeId other = via == f.spine0 ? f.spine1 : f.spine0;
  run.Inject(Down(f.Link(f.leaf0, via), Time::FromUs(5), Time::FromUs(10)));
  run.sim.Run(Time::FromUs(10));
  EXPECT_EQ(run.net.rate_bps(0), 0.0);  // stalled on the dead link
  run.sim.Run();
  EXPECT_EQ(run.net.flows()[0].finish.ps(), kDrainPs + 10'000'000 + kResendPs + kLatencyPs);
  EXPECT_EQ(f.t.port(run.net.path(0)[1]).peer, other);
  const FaultOutcome out = run.net.FaultOutcomes()[0];
  EXPECT_EQ(out.detected, Time::FromUs(15));
  EXPECT_EQ(out.rerouted, Time::FromUs(15));
  EXPECT_EQ(out.route_changes, 1u);
  EXPECT_EQ(out.flows_rerouted, 1u);
  EXPECT_FALSE(out.packets_lost.has_value());  // a fluid has no packets
  EXPECT_EQ(out.bytes_resent, kLostBytes);
  // Conservation: what was sent is what was delivered plus what was lost.
  const PayloadTotals p = run.net.RunTotals().payload;
  EXPECT_EQ(p.sent, kBytes + kLostBytes);
  EXPECT_EQ(p.dropped, kLostBytes);
  EXPECT_EQ(p.delivered, kBytes);
  EXPECT_EQ(p.retransmitted, kLostBytes);
  EXPECT_EQ(p.in_flight, 0u);
}

TEST(FlowFaults, WithDcqcnALoneFlowStallsAndReroutesAsWithout) {
  // DCQCN's caps are resources of the fluid beyond the ports
  // (flow_dcqcn.h): the reroute skips them, moves the cap with the flow,
  // and the lone flow, never queued, finishes at the figure above.
  TwoSpines f;
  FlowConfig config;
  config.dcqcn = true;
  config.ecn.enabled = true;
  FlowRun run(f.t, config);
  run.Start(f.h0, f.h1);
  run.Inject(Down(f.Link(f.leaf0, run.Via(f.t)), Time::FromUs(5), Time::FromUs(10)));
  run.sim.Run();
  EXPECT_EQ(run.net.flows()[0].finish.ps(), kDrainPs + 10'000'000 + kResendPs + kLatencyPs);
  EXPECT_EQ(run.net.dcqcn()->cnps(), 0u);
}

TEST(FlowFaults, AFlowThatIsNotOnTheDeadLinkKeepsItsPath) {
  // The other spine's link fails: the flow loses nothing and is not moved.
  TwoSpines f;
  FlowRun run(f.t);
  run.Start(f.h0, f.h1);
  const NodeId other = run.Via(f.t) == f.spine0 ? f.spine1 : f.spine0;
  run.Inject(Down(f.Link(f.leaf0, other), Time::FromUs(5), Time::FromUs(10)));
  run.sim.Run();
  EXPECT_EQ(run.net.flows()[0].finish.ps(), kDrainPs + kLatencyPs);
  const FaultOutcome out = run.net.FaultOutcomes()[0];
  EXPECT_EQ(out.route_changes, 1u);  // routing still changed
  EXPECT_EQ(out.flows_rerouted, 0u);
  EXPECT_EQ(out.bytes_resent, 0u);
}

TEST(FlowFaults, FlappingLinkReroutesTwicePerDetectedDownPeriod) {
  // Down for 8 us at the start of every 20 us from 10 us to 110 us: 5
  // periods. With a 3 us detection each down period is seen (3 < 8) and so
  // is each repair before the next failure (8 + 3 < 20): routing changes
  // away and back 5 times, 10 changes, and the flow on the link moves each
  // time (10). With 9 us no down period lasts long enough: none.
  TwoSpines f;
  for (const auto& [detection, changes] : {std::pair{Time::FromUs(3), 10u}, std::pair{Time::FromUs(9), 0u}}) {
    FlowRun run(f.t);
    run.Start(f.h0, f.h1, 10 * kBytes);
    LinkFault flap;
    flap.kind = FaultKind::kLinkFlap;
    flap.links = {f.Link(f.leaf0, run.Via(f.t))};
    flap.at = Time::FromUs(10);
    flap.until = Time::FromUs(110);
    flap.period = Time::FromUs(20);
    flap.down_for = Time::FromUs(8);
    flap.detection = detection;
    run.Inject(flap);
    run.sim.Run();
    const FaultOutcome out = run.net.FaultOutcomes()[0];
    EXPECT_EQ(out.route_changes, changes) << "detection " << detection.us_f() << " us";
    EXPECT_EQ(out.flows_rerouted, changes) << "detection " << detection.us_f() << " us";
    EXPECT_EQ(out.detected.IsInfinite(), changes == 0);
  }
}

TEST(FlowFaults, ANicPortDownStallsItsFlowUntilTheRepair) {
  // h0's only link is down from 5 us to 25 us, before its 1 ms detection
  // could see it (a repair inside the hold time is never seen): the flow
  // has no other path; it stalls 20 us and sends again what was on the
  // NIC's wire (the same 583.56 ns at c):
  //   FCT = 83.56 us + 20 us + 583.56 ns + 3,450.68 ns.
  TwoSpines f;
  FlowRun run(f.t);
  run.Start(f.h0, f.h1);
  LinkFault nic = Down(f.Link(f.h0, f.leaf0), Time::FromUs(5), Time::FromMs(1), Time::FromUs(25));
  nic.kind = FaultKind::kNicPortDown;
  run.Inject(nic);
  run.sim.Run();
  EXPECT_EQ(run.net.flows()[0].finish.ps(), kDrainPs + 20'000'000 + kResendPs + kLatencyPs);
  EXPECT_TRUE(run.net.FaultOutcomes()[0].detected.IsInfinite());
}

TEST(FlowFaults, SprayStallsUntilDetectionAndAdaptiveMovesAtOnce) {
  // Spread over both spines, the flow crosses leaf0's dying uplink with
  // half its rate, so it loses c/2 * 583.56 ns of data there, which takes
  // 291.78 ns at c to send again. Sprayed it is one fluid and stalls as a
  // whole until routing re-splits it over the surviving spine at
  // detection; adaptive re-splits at the failure itself. Either way the
  // host link bounds it at c before and after:
  //   spray:    FCT = 83.56 us + 10 us + 291.78 ns + 3,450.68 ns;
  //   adaptive: FCT = 83.56 us + 291.78 ns + 3,450.68 ns.
  TwoSpines f;
  for (const FlowBalancing balancing : {FlowBalancing::kSpray, FlowBalancing::kAdaptive}) {
    const bool adaptive = balancing == FlowBalancing::kAdaptive;
    FlowConfig config;
    config.balancing = balancing;
    FlowRun run(f.t, config);
    run.Start(f.h0, f.h1);
    run.Inject(Down(f.Link(f.leaf0, f.spine0), Time::FromUs(5), Time::FromUs(10)));
    run.sim.Run();
    const int64_t stall = adaptive ? 0 : 10'000'000;
    EXPECT_NEAR(static_cast<double>(run.net.flows()[0].finish.ps()),
                static_cast<double>(kDrainPs + stall + kResendPs / 2 + kLatencyPs), 1.0)
        << (adaptive ? "adaptive" : "spray");
    const FaultOutcome out = run.net.FaultOutcomes()[0];
    EXPECT_EQ(out.rerouted, adaptive ? Time::FromUs(5) : Time::FromUs(15));
    EXPECT_EQ(out.flows_rerouted, 1u);
    EXPECT_EQ(out.bytes_resent, (kLostBytes + 1) / 2);  // 14,302.7 rounded
  }
}

TEST(FlowFaults, ACoflowOverTheDeadLinkStallsAndMovesAsATransferDoes) {
  // One edge h0 -> h1 with latency weight 1 and no pipeline terms: the
  // coflow is done at start + max(chain, drain) (CoflowTiming), its chain
  // the path's 3,450.68 ns, far below the drain, which is the first test's:
  //   83.56 us + 10 us stalled + 583.56 ns sent again.
  TwoSpines f;
  FlowRun run(f.t);
  CoflowRequest c;
  c.id = 7;
  c.edges.push_back(CoflowEdge{f.h0, f.h1, kBytes, 0, 1.0});
  const std::vector<PortId> ports = run.net.RoutePath(EdgeAsTransfer(c.edges[0], c.priority));
  const NodeId via = f.t.port(ports[1]).peer;
  run.Inject(Down(f.Link(f.leaf0, via), Time::FromUs(5), Time::FromUs(10)));
  struct Done final : TransferObserver {
    Time at = Time::Infinite();
    void OnTransferDone(FlowId, Time finish) override { at = finish; }
  } done;
  run.net.SetObserver(&done);
  ASSERT_TRUE(run.net.StartCoflow(c).ok());
  run.sim.Run();
  EXPECT_NEAR(static_cast<double>(done.at.ps()), static_cast<double>(kDrainPs + 10'000'000 + kResendPs), 1.0);
  EXPECT_EQ(run.net.FaultOutcomes()[0].flows_rerouted, 1u);
}

TEST(FlowFaults, AGrayLinksDegradedRateIsItsCapacityForTheWindow) {
  // leaf0's uplink under the flow runs at 100G from 0: it is the
  // bottleneck, c/4, so B drains in 4 x 83.56 us = 334.24 us; the path
  // latency is the same 3,450.68 ns (the slow hop's own frame time,
  // 334.24 ns, is the one the fluid already counts). The flow starts at 0,
  // just after the link slowed (Run plays the transition, the only event):
  //   FCT = 334.24 us + 3,450.68 ns.
  TwoSpines f;
  FlowRun probe(f.t);
  probe.Start(f.h0, f.h1);  // the spine its hash picks
  const NodeId via = probe.Via(f.t);
  LinkFault gray;
  gray.kind = FaultKind::kGrayLink;
  gray.links = {f.Link(f.leaf0, via)};
  gray.at = Time::Zero();
  gray.rate = DataRate::Gbps(100);
  FlowRun slow(f.t);
  slow.Inject(gray);
  slow.sim.Run(Time::FromUs(1));
  slow.Start(f.h0, f.h1);
  slow.sim.Run();
  EXPECT_EQ(f.t.port(slow.net.path(0)[1]).peer, via);  // the same hash, the same spine
  EXPECT_EQ(slow.net.flows()[0].start, Time::Zero());
  EXPECT_EQ(slow.net.flows()[0].finish.ps(), 4 * kDrainPs + kLatencyPs);
  // With until = 51.56 us it runs at 100G for that window only: it moves
  // 51.56 us x c/4, i.e. 12.89 us of data at c, and the other 70.67 us of
  // data at c after: FCT = 51.56 + 70.67 us + 3,450.68 ns.
  FlowRun window(f.t);
  gray.until = Time::FromNs(51'560);
  window.Inject(gray);
  window.sim.Run(Time::FromUs(1));
  window.Start(f.h0, f.h1);
  window.sim.Run();
  EXPECT_NEAR(static_cast<double>(window.net.flows()[0].finish.ps()),
              static_cast<double>(51'560'000 + 70'670'000 + kLatencyPs), 1.0);
}

}  // namespace
}  // namespace aifabric
