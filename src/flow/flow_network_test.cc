// Specs of the flow-level model, each against a figure worked out by hand.
// Payload efficiency at the default RoCEv2 framing: 4096 / (4096 + 82) =
// 4096 / 4178, so a 100G link carries C = 100e9 * 4096 / 4178 =
// 98.0373...e9 payload bit/s, and one 4178-byte frame takes 334,240 ps.
#include "flow/flow_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <memory>
#include <string>
#include <vector>

#include "engine/simulator.h"
#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "flow/flow_test_util.h"

namespace aifabric {
namespace {

constexpr double kEfficiency = 4096.0 / 4178.0;

using flow_testing::TestSwitch;

// "prefix<i>", appended (GCC 12 warns falsely on "literal" + std::string).
std::string Name(const char* prefix, int i) {
  std::string n = prefix;
  n += std::to_string(i);
  return n;
}

using flow_testing::Finishes;

// A FlowNetwork on `topology` with shortest-path routes.
struct Harness {
  explicit Harness(const Topology& t, FlowConfig config = {})
      : sim(1), routes(RoutingTable::BuildShortestPaths(t)), net(sim, t, routes, config) {
    net.SetObserver(&finishes);
  }
  static TransferRequest Request(FlowId id, NodeId src, NodeId dst, uint64_t bytes, uint8_t prio = 3) {
    return flow_testing::Request(id, src, dst, bytes, prio);
  }
  void Start(FlowId id, NodeId src, NodeId dst, uint64_t bytes, uint8_t prio = 3) {
    net.StartTransfer(Request(id, src, dst, bytes, prio));
  }
  Simulator sim;
  RoutingTable routes;
  FlowNetwork net;
  Finishes finishes;
};

// h0 -100G- leaf0 -400G- spine -400G- leaf1 -100G- h1, 500 ns cables,
// 400 ns switches (the packet model's OneFlowOnIdlePath topology).
Topology FourHopPath() { return fabric_testing::FourHopPath(TestSwitch()); }

TEST(FlowNetwork, OneFlowOnIdlePathTakesLatencyPlusBytesOverPayloadRate) {
  // 40,960 B = 10 full packets. Fluid: 40,960 * 8 / (100e9 * 4096/4178) s
  // = 10 * 4178 * 8 / 100e9 s = 3,342,400 ps.
  // Latency: cables 4 * 500,000 + switches 3 * 400,000 = 3,200,000, plus
  // store-and-forward of the first 4178-byte frame at every hop but the
  // bottleneck one: 83,560 + 83,560 + 334,240 = 501,360 (one frame per
  // switch at the rate of the link leaving it).
  // FCT = 3,342,400 + 3,701,360 = 7,043,760 ps: the packet model's figure
  // for the same flow (PacketNetwork.OneFlowOnIdlePathMatchesClosedForm...).
  const Topology t = FourHopPath();
  Harness h(t);
  h.Start(1, 0, 1, 40'960);
  EXPECT_NEAR(h.net.rate_bps(0), 100e9 * kEfficiency, 1e-3);
  h.sim.Run();
  ASSERT_EQ(h.finishes.at.count(1), 1u);
  EXPECT_EQ(h.finishes.at[1], Time::FromPs(7'043'760));
  EXPECT_EQ(h.net.IdealFct(Harness::Request(1, 0, 1, 40'960)), Time::FromPs(7'043'760));
  EXPECT_EQ(h.net.flows()[0].latency, Time::FromPs(3'701'360));
}

TEST(FlowNetwork, AMessageShorterThanAPacketPaysOnlyItsOwnFrame) {
  // 1,000 B: first frame 1,082 B: 100G 86,560 ps, 400G 21,640 ps. Latency
  // 3,200,000 + 21,640 + 21,640 + 86,560 = 3,329,840; fluid ceil(1,000 * 8
  // * 4178 / 4096 / 100e9 s) = ceil(81,601.5625) = 81,602 ps.
  // FCT = 3,411,442 ps (the packet model: 3,200,000 + 2 * 86,560 + 2 *
  // 21,640 = 3,416,400; the fluid charges the overhead per byte, 4,958 ps less).
  const Topology t = FourHopPath();
  Harness h(t);
  h.Start(1, 0, 1, 1'000);
  h.sim.Run();
  EXPECT_EQ(h.finishes.at[1], Time::FromPs(3'411'442));
  EXPECT_EQ(h.net.IdealFct(Harness::Request(1, 0, 1, 1'000)), Time::FromPs(3'411'442));
}

// One switch, `hosts` hosts on 100G links of 1 us, switch latency 400 ns.
Topology Star(int hosts) {
  Topology t;
  for (int i = 0; i < hosts; ++i) t.AddHost(Name("h", i));
  const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(TestSwitch()));
  for (int i = 0; i < hosts; ++i) t.AddLink(i, sw, DataRate::Gbps(100), Time::FromUs(1));
  return t;
}

TEST(FlowNetwork, IncastSharesTheReceiverLinkEquallyAndFinishesTogether) {
  // 4 senders x 1 MB into h4: each gets C/4. The receiver link drains 4 MB
  // at C: 4e6 * 8 * 4178 / 4096 / 100e9 s = 326,406,250 ps. Latency: 2
  // cables 2,000,000 + switch 400,000 + one frame at 100G 334,240 =
  // 2,734,240. All four finish at 329,140,490 ps.
  const Topology t = Star(5);
  Harness h(t);
  for (int i = 0; i < 4; ++i) h.Start(i, i, 4, 1'000'000);
  for (uint32_t i = 0; i < 4; ++i) EXPECT_NEAR(h.net.rate_bps(i), 100e9 * kEfficiency / 4, 1e-3);
  h.sim.Run();
  ASSERT_EQ(h.finishes.at.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(h.finishes.at[i], Time::FromPs(329'140'490)) << i;
  EXPECT_EQ(h.net.solves(), 2u);  // once at the start, once at the common finish
}

TEST(FlowNetwork, ACoflowRingMovesAtItsSharedRateAndAddsItsChain) {
  // A ring h0 -> h1 -> h2 -> h0 of 1 MB per edge, as one coflow, and a
  // plain 1 MB h3 -> h1 that shares h1's link: the coflow and the flow get
  // C/2 each, so both drain at 2 x 1e6 * 8 * 4178 / 4096 / 100e9 s =
  // 163,203,125 ps. The flow adds its path latency (2,734,240 ps, as in
  // the incast above). The coflow's chain is its three edges' path
  // latencies (weight 1 each: 8,202,720 ps) plus one drain (pipeline depth
  // 1), then 1 us of latency: 163,203,125 + 8,202,720 + 1,000,000.
  const Topology t = Star(4);
  Harness h(t);
  CoflowRequest ring;
  ring.id = 7;
  for (int i = 0; i < 3; ++i) {
    CoflowEdge e;
    e.src = i;
    e.dst = (i + 1) % 3;
    e.bytes = 1'000'000;
    e.latency_weight = 1;
    ring.edges.push_back(e);
  }
  ring.timing.depth = 1;
  ring.timing.latency = Time::FromUs(1);
  ASSERT_TRUE(h.net.StartCoflow(ring).ok());
  h.Start(1, 3, 1, 1'000'000);
  h.sim.Run();
  EXPECT_EQ(h.finishes.at[1], Time::FromPs(163'203'125 + 2'734'240));
  EXPECT_EQ(h.finishes.at[7], Time::FromPs(163'203'125 + 8'202'720 + 1'000'000));
  EXPECT_EQ(h.net.coflows(), 1u);
  // Every link of the ring carried its edge's megabyte.
  EXPECT_NEAR(h.net.bytes_carried(h.net.RoutePath(Harness::Request(0, 2, 0, 1)).front()), 1e6, 1e-3);
}

TEST(FlowNetwork, ParkingLotGetsTheMaxMinRatesWorkedByHand) {
  // A (on s0), B (s1), C (s2), D (s3) on 400G host links; a chain
  // s0 -100G- s1 -100G- s2 -50G- s3. Flows (in raw Gbps; payload rates are
  // these x 4096/4178):
  //   f0 A->D crosses s0s1, s1s2, s2s3     f1 A->B crosses s0s1
  //   f2, f4 B->C cross s1s2               f3 C->D crosses s2s3
  // Progressive filling: s2s3 fills first at 50/2 = 25 (s1s2 would at
  // 100/3, s0s1 at 50): f0 = f3 = 25. Then s1s2 has 75 left for f2, f4:
  // 37.5 each; s0s1 has 75 left for f1: 75. Host links never fill.
  Topology t;
  const NodeId a = t.AddHost("A"), b = t.AddHost("B"), c = t.AddHost("C"), d = t.AddHost("D");
  const int spec = t.AddSwitchSpec(TestSwitch());
  NodeId s[4];
  for (int i = 0; i < 4; ++i) s[i] = t.AddSwitch(Name("s", i), 1, spec);
  const Time cable = Time::FromNs(100);
  t.AddLink(a, s[0], DataRate::Gbps(400), cable);
  t.AddLink(b, s[1], DataRate::Gbps(400), cable);
  t.AddLink(c, s[2], DataRate::Gbps(400), cable);
  t.AddLink(d, s[3], DataRate::Gbps(400), cable);
  t.AddLink(s[0], s[1], DataRate::Gbps(100), cable);
  t.AddLink(s[1], s[2], DataRate::Gbps(100), cable);
  t.AddLink(s[2], s[3], DataRate::Gbps(50), cable);
  Harness h(t);
  h.Start(0, a, d, 10'000'000);
  h.Start(1, a, b, 10'000'000);
  h.Start(2, b, c, 10'000'000);
  h.Start(3, c, d, 10'000'000);
  h.Start(4, b, c, 10'000'000);
  const double expected_gbps[] = {25, 75, 37.5, 25, 37.5};
  for (uint32_t i = 0; i < 5; ++i) EXPECT_NEAR(h.net.rate_bps(i), expected_gbps[i] * 1e9 * kEfficiency, 1) << i;
  h.sim.Run();
  EXPECT_EQ(h.finishes.at.size(), 5u);
}

// The k=4 fat-tree of 16 hosts, 100G everywhere, 1 us cables.
Topology FatTreeK4With1usLinks() {
  TopologySpec spec = fabric_testing::MakeSpec(TopologyType::kFatTree, "32x100G", 16, 1, DataRate::Gbps(100));
  spec.k = 4;
  spec.link_latency = Time::FromUs(1);
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

// Host i sends 1 MB to host (5i + 3) mod 16: a derangement (5i + 3 = i
// mod 16 has no solution), hashed onto ECMP paths by flow id.
void StartPermutation(Harness& h, const Topology& t) {
  for (int i = 0; i < 16; ++i) h.Start(i, t.hosts()[i], t.hosts()[(5 * i + 3) % 16], 1'000'000);
}

TEST(FlowNetwork, PermutationRatesAreLineRateOverTheFlowsOnTheMostLoadedLink) {
  // Non-blocking, so only ECMP collisions slow a flow: a flow whose most
  // loaded link carries n flows runs at C/n. (Max-min gives exactly that
  // here because no flow sharing that link is held lower elsewhere, which
  // the first loop checks: every flow on a link of n flows has n as its own
  // maximum.) With these flow ids and ECMP seed 0, 11 flows share their
  // most loaded link with one other flow (C/2) and 5 run alone (C).
  const Topology t = FatTreeK4With1usLinks();
  Harness h(t);
  StartPermutation(h, t);
  std::vector<int> on_port(t.ports().size(), 0);
  for (uint32_t f = 0; f < 16; ++f) {
    for (PortId p : h.net.path(f)) ++on_port[p];
  }
  int max_sharing = 0;
  std::vector<int> most(16, 0);
  for (uint32_t f = 0; f < 16; ++f) {
    for (PortId p : h.net.path(f)) most[f] = std::max(most[f], on_port[p]);
    max_sharing = std::max(max_sharing, most[f]);
  }
  for (uint32_t f = 0; f < 16; ++f) {
    for (PortId p : h.net.path(f)) {
      if (on_port[p] == most[f]) {
        for (uint32_t g = 0; g < 16; ++g) {
          for (PortId q : h.net.path(g)) {
            if (q != p) continue;
            EXPECT_EQ(most[g], most[f]) << "the closed form does not apply to this instance";
          }
        }
      }
    }
  }
  EXPECT_EQ(max_sharing, 2);
  EXPECT_EQ(std::count(most.begin(), most.end(), 2), 11);
  const double c = 100e9 * kEfficiency;
  for (uint32_t f = 0; f < 16; ++f) EXPECT_NEAR(h.net.rate_bps(f), c / most[f], 1) << f;
  h.sim.Run();
  EXPECT_EQ(h.finishes.at.size(), 16u);
}

TEST(FlowNetwork, BytesCarriedPerLinkAreTheFlowsCrossingIt) {
  // No flow finishes before 1e6 * 8 / C = 81.6 us, so rates hold from 0 to
  // 50 us: then every port has carried sum over the flows crossing it of
  // rate * 50 us / 8, and never more than capacity * 50 us / 8. At the end,
  // every port has carried exactly 1 MB per flow whose path crosses it.
  const Topology t = FatTreeK4With1usLinks();
  Harness h(t);
  StartPermutation(h, t);
  std::vector<double> rate(16);
  for (uint32_t f = 0; f < 16; ++f) rate[f] = h.net.rate_bps(f);
  const Time midway = Time::FromUs(50);
  h.sim.Run(midway);
  h.sim.ScheduleCallback(midway, [] {});  // Run(until) leaves the clock at the last event
  h.sim.Run(midway);
  ASSERT_EQ(h.sim.Now(), midway);
  std::vector<double> expected(t.ports().size(), 0);
  for (uint32_t f = 0; f < 16; ++f) {
    for (PortId p : h.net.path(f)) expected[p] += rate[f] / 8 * 50e-6;
  }
  for (const Port& p : t.ports()) {
    EXPECT_NEAR(h.net.bytes_carried(p.id), expected[p.id], 1e-6) << p.id;
    EXPECT_LE(h.net.bytes_carried(p.id), h.net.payload_capacity_bps(p.id) / 8 * 50e-6 * (1 + 1e-12));
  }
  h.sim.Run();
  ASSERT_EQ(h.finishes.at.size(), 16u);
  std::fill(expected.begin(), expected.end(), 0);
  for (uint32_t f = 0; f < 16; ++f) {
    for (PortId p : h.net.path(f)) expected[p] += 1e6;
  }
  for (const Port& p : t.ports()) EXPECT_EQ(h.net.bytes_carried(p.id), expected[p.id]) << p.id;
}

TEST(FlowNetwork, TwoRunsAreIdentical) {
  const Topology t = FatTreeK4With1usLinks();
  FlowConfig config;
  config.qps_per_transfer = 3;
  std::map<FlowId, Time> first;
  for (int run = 0; run < 2; ++run) {
    Harness h(t, config);
    StartPermutation(h, t);
    // A second wave at 20 us, so rates change mid-flight.
    h.sim.ScheduleCallback(Time::FromUs(20), [&] {
      for (int i = 0; i < 16; ++i) h.Start(100 + i, t.hosts()[i], t.hosts()[(3 * i + 1) % 16], 300'000);
    });
    h.sim.Run();
    ASSERT_EQ(h.finishes.at.size(), 32u);
    if (run == 0) {
      first = h.finishes.at;
    } else {
      EXPECT_EQ(h.finishes.at, first);
    }
  }
}

TEST(FlowNetwork, QueuePairsSplitATransferAndItEndsWithTheLast) {
  // 3 queue pairs on the idle FourHopPath share the 100G first link: the
  // 10 packets split 4/3/3 = 16,384/12,288/12,288 B, each at C/3 until the
  // smaller two drain together (3 x 12,288 B at C: 3,008,160 ps), then the
  // first alone at C for its last 4,096 B (334,240 ps): 3,342,400 ps, the
  // same fluid time as one queue pair, + latency 3,701,360 = 7,043,760 ps.
  const Topology t = FourHopPath();
  FlowConfig config;
  config.qps_per_transfer = 3;
  Harness h(t, config);
  h.Start(1, 0, 1, 40'960);
  h.sim.Run();
  ASSERT_EQ(h.net.flows().size(), 3u);
  EXPECT_EQ(h.finishes.at[1], Time::FromPs(7'043'760));
}

TEST(FlowNetwork, ACoflowEdgeOverQueuePairsTakesTheirPaths) {
  // With qps_per_transfer 3 an edge of a coflow is a connection over three
  // queue pairs, as a transfer is (NCCL_IB_QPS_PER_CONNECTION): host 0 ->
  // host 15 of a k=4 fat-tree, 1 MB with source port 1234, carries on
  // every port exactly the bytes the same transfer's three queue pairs
  // carry (whole packets, 82/82/81 of 245: 335,872 / 335,872 / 328,256 B),
  // which here take three different core switches.
  const Topology t = FatTreeK4With1usLinks();
  FlowConfig config;
  config.qps_per_transfer = 3;
  Harness as_transfer(t, config), as_coflow(t, config);
  TransferRequest r = Harness::Request(1, t.hosts()[0], t.hosts()[15], 1'000'000);
  r.sport = 1234;
  as_transfer.net.StartTransfer(r);
  as_transfer.sim.Run();
  CoflowRequest c;
  c.id = 2;
  c.edges.push_back(CoflowEdge{t.hosts()[0], t.hosts()[15], 1'000'000, 1234, 1.0});
  ASSERT_TRUE(as_coflow.net.StartCoflow(c).ok());
  as_coflow.sim.Run();
  ASSERT_EQ(as_coflow.finishes.at.count(2), 1u);
  for (const Port& p : t.ports()) {
    EXPECT_NEAR(as_coflow.net.bytes_carried(p.id), as_transfer.net.bytes_carried(p.id), 1e-3) << p.id;
  }
  std::set<NodeId> cores;
  for (uint32_t f = 0; f < 3; ++f) {
    for (PortId p : as_transfer.net.path(f)) {
      if (t.node(t.port(p).node).tier == 3) cores.insert(t.port(p).node);
    }
  }
  EXPECT_EQ(cores.size(), 3u);
}

TEST(FlowNetwork, ClassWeightsShareABottleneckInProportion) {
  // Two flows into one receiver, priority 3 of weight 3 and priority 1 of
  // weight 1: 3C/4 and C/4.
  const Topology t = Star(3);
  FlowConfig config;
  config.priority_classes[3].weight = 3;
  Harness h(t, config);
  h.Start(0, 0, 2, 1'000'000, 3);
  h.Start(1, 1, 2, 1'000'000, 1);
  const double c = 100e9 * kEfficiency;
  EXPECT_NEAR(h.net.rate_bps(0), 0.75 * c, 1);
  EXPECT_NEAR(h.net.rate_bps(1), 0.25 * c, 1);
}

}  // namespace
}  // namespace aifabric
