// Specs of link faults at packet level (packet/packet_faults.h), each
// against a figure worked out by hand: which packets a dead link destroys,
// when routing moves the flows, how many reroutes a flapping link makes,
// how many packets a gray link loses, what adaptive routing saves.
#include "packet/packet_faults.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "engine/simulator.h"
#include "fabric/fabric_observation.h"
#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

using fabric_testing::TwoSpines;

struct FaultRun {
  explicit FaultRun(const Topology& t) : sim(1), routes(RoutingTable::BuildShortestPaths(t)), net(sim, t, routes, {}) {}
  void Start(uint64_t bytes, NodeId src, NodeId dst) {
    TransferRequest r;
    r.id = 0;
    r.src = src;
    r.dst = dst;
    r.bytes = bytes;
    net.StartTransfer(r);
  }
  Simulator sim;
  RoutingTable routes;
  PacketNetwork net;
};

constexpr uint32_t kPayload = 4096;            // PacketConfig's default MTU
constexpr int64_t kPacketPs = 4178 * 20;   // 4096 + 82 B at 400G (20 ps a byte): 83,560 ps

TEST(PacketFaults, LinkDownLosesWhatCrossesItUntilRoutingMovesTheFlow) {
  TwoSpines f;
  FaultRun run(f.t);
  run.Start(400ull * kPayload, f.h0, f.h1);
  // The spine the flow's hash picked, and the other one.
  const NodeId via = f.t.port(run.net.path(0)[1]).peer;
  const NodeId other = via == f.spine0 ? f.spine1 : f.spine0;
  LinkFault fault;
  fault.kind = FaultKind::kLinkDown;
  fault.links = {f.Link(f.leaf0, via)};
  fault.at = Time::FromUs(5);
  fault.detection = Time::FromUs(10);
  fault.name = "leaf0-spine";
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&fault, 1)).ok());
  run.sim.Run();

  // Without a transport the source sends every packet once, back to back:
  // packet k leaves h0 at k*tau, is whole at leaf0 (k+1)*tau + 500 ns and
  // leaves it 400 ns later, and reaches the spine ((k+2)*tau + 1800 ns) —
  // where the gate sees it — only if that is before the link fails at 5 us:
  // (k+2) * 83.56 ns + 1800 ns < 5000 ns for k <= 36, so 37 get through.
  // Routing moves the flow at 5 + 10 = 15 us; the packets made before
  // (k * tau < 15 us: k <= 179, 180 of them) carry the old path and die at
  // the dead link: 180 - 37 = 143 lost.
  const std::vector<FaultOutcome> out = run.net.FaultOutcomes();
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].packets_lost.value_or(0), 143u);
  EXPECT_EQ(out[0].detected, Time::FromUs(15));
  EXPECT_EQ(out[0].rerouted, Time::FromUs(15));
  EXPECT_EQ(out[0].route_changes, 1u);
  EXPECT_EQ(out[0].flows_rerouted, 1u);
  EXPECT_EQ(f.t.port(run.net.path(0)[1]).peer, other);
  // Conservation: what was not lost arrived.
  const PayloadTotals totals = run.net.totals();
  EXPECT_EQ(totals.dropped, 143ull * kPayload);
  EXPECT_EQ(totals.delivered + totals.dropped, 400ull * kPayload);
  EXPECT_EQ(totals.in_flight, 0u);
  static_assert(kPacketPs == 83'560);
  // What the run shows of the flow's route (FabricObservation): its path
  // now, by the other spine, and the one it was moved off, by `via`; all
  // its packets took one path at a time (per-flow ECMP).
  FabricObservation seen;
  run.net.Observe(seen);
  ASSERT_EQ(seen.transfers.size(), 1u);
  const TransferObservation& x = seen.transfers[0];
  EXPECT_EQ(x.path, run.net.path(0));
  ASSERT_EQ(x.earlier_path.size(), 4u);  // h0 -> leaf0 -> via -> leaf1 -> h1
  EXPECT_EQ(f.t.port(x.earlier_path[1]).peer, via);
  EXPECT_EQ(x.earlier_path[0], x.path[0]);
  EXPECT_TRUE(x.single_path);
}

TEST(PacketFaults, AdaptiveRoutingSteersAwayFromADeadLinkAtOnce) {
  // The same flow and failure as above, with adaptive switches: leaf0
  // picks each packet's uplink from the ports that are up, so from 5 us on
  // no packet is sent into the dead link, without waiting for routing's
  // 10 us. Lost are only the packets whose first bit left leaf0's port to
  // the dead spine in the 583.56 ns before 5 us (cable 500 ns + a frame:
  // still on the wire at the failure): leaf0 forwards one packet every tau
  // (it receives them back to back from h0), so at most
  // ceil(583.56 / 83.56) = 7 of them, plus one that waited in that port's
  // queue (a 400G stream over two 400G uplinks leaves at most one behind
  // the one on the wire). Against ECMP's 143.
  TwoSpines f;
  Simulator sim(1);
  const RoutingTable routes = RoutingTable::BuildShortestPaths(f.t);
  PacketConfig config;
  config.load_balancing = LoadBalancing::kAdaptive;
  PacketNetwork net(sim, f.t, routes, config);
  TransferRequest r;
  r.src = f.h0;
  r.dst = f.h1;
  r.bytes = 400ull * kPayload;
  net.StartTransfer(r);
  LinkFault fault;
  fault.kind = FaultKind::kLinkDown;
  fault.links = {f.Link(f.leaf0, f.spine0)};
  fault.at = Time::FromUs(5);
  fault.detection = Time::FromUs(10);
  fault.name = "leaf0-spine0";
  ASSERT_TRUE(net.InjectFaults(std::span<const LinkFault>(&fault, 1)).ok());
  // The one queued at the failure leaves when the frame on the wire is out,
  // by 5 us + tau, and meets the dead link by 5 us + 2 tau + 500 ns: by
  // then every packet that was sent towards the dead spine has died or
  // arrived, and what is lost is all that will be.
  sim.Run(Time::FromPs(5'000'000 + 500'000 + 3 * kPacketPs));
  const uint64_t lost_early = net.FaultOutcomes()[0].packets_lost.value_or(0);
  sim.Run();
  const FaultOutcome out = net.FaultOutcomes()[0];
  EXPECT_EQ(out.packets_lost.value_or(0), lost_early);
  EXPECT_LE(lost_early, 8u);
  const PayloadTotals totals = net.totals();
  EXPECT_EQ(totals.dropped, lost_early * kPayload);
  EXPECT_EQ(totals.delivered + totals.dropped, 400ull * kPayload);
  EXPECT_EQ(totals.in_flight, 0u);
  std::printf("adaptive: %llu packets lost, detected %.3f us\n", static_cast<unsigned long long>(lost_early),
              out.detected.us_f());
  // Each packet picked its own uplink: the flow's path is not the one
  // they all took.
  FabricObservation seen;
  net.Observe(seen);
  ASSERT_EQ(seen.transfers.size(), 1u);
  EXPECT_FALSE(seen.transfers[0].single_path);
}

TEST(PacketFaults, FlappingLinkReroutesTwicePerDetectedDownPeriod) {
  // Down for 8 us at the start of every 20 us from 10 us to 110 us: 5
  // periods. With a 3 us detection each down period holds long enough to
  // be seen (3 < 8) and each repair too before the next failure
  // (8 + 3 < 20): routing changes away and back 5 times, 10 changes.
  TwoSpines f;
  for (const auto& [detection, changes] : {std::pair{Time::FromUs(3), 10u}, std::pair{Time::FromUs(9), 0u}}) {
    FaultRun run(f.t);
    run.Start(4000ull * kPayload, f.h0, f.h1);
    LinkFault flap;
    flap.kind = FaultKind::kLinkFlap;
    flap.links = {f.Link(f.leaf0, f.spine0)};
    flap.at = Time::FromUs(10);
    flap.until = Time::FromUs(110);
    flap.period = Time::FromUs(20);
    flap.down_for = Time::FromUs(8);
    flap.detection = detection;
    ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&flap, 1)).ok());
    run.sim.Run();
    const FaultOutcome out = run.net.FaultOutcomes()[0];
    // With a 9 us detection no down period (8 us) lasts long enough: never
    // detected, never rerouted.
    EXPECT_EQ(out.route_changes, changes) << "detection " << detection.us_f() << " us";
    EXPECT_EQ(out.detected.IsInfinite(), changes == 0);
  }
}

// The sending port's drop and FCS-error counters summed over both
// directions of `link`.
struct LinkCounts {
  uint64_t drops = 0, fcs_errors = 0;
};
LinkCounts CountsOf(PacketNetwork& net, LinkId link) {
  LinkCounts c;
  for (PortId port : {static_cast<PortId>(2 * link), static_cast<PortId>(2 * link + 1)}) {
    c.drops += net.port(port).counters().drop_packets;
    c.fcs_errors += net.port(port).counters().fcs_error_packets;
  }
  return c;
}

TEST(PacketFaults, GrayLinkCorruptsItsCorruptionRateOfThePackets) {
  // 20,000 packets over a link corrupting each with p = 1%: the count lost is
  // binomial, mean n p = 200, sd sqrt(n p (1 - p)) = 14.07; the link's own
  // generator is seeded, so the count is fixed, and it lies within 4 sd.
  // Every one is an FCS error (and a drop) of the sending port.
  TwoSpines f;
  FaultRun run(f.t);
  constexpr uint64_t kPackets = 20'000;
  run.Start(kPackets * kPayload, f.h0, f.h1);
  LinkFault gray;
  gray.kind = FaultKind::kGrayLink;
  gray.links = {f.Link(f.h0, f.leaf0)};
  gray.corruption_rate = 0.01;
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&gray, 1)).ok());
  run.sim.Run();
  const FaultOutcome out = run.net.FaultOutcomes()[0];
  ASSERT_TRUE(out.packets_lost.has_value());  // the packet level counts them
  const uint64_t lost = *out.packets_lost;
  const double mean = kPackets * 0.01, sd = std::sqrt(kPackets * 0.01 * 0.99);
  EXPECT_LE(std::abs(static_cast<double>(lost) - mean), 4 * sd) << lost;
  EXPECT_TRUE(out.detected.IsInfinite());  // routing never hears of it
  EXPECT_EQ(run.net.totals().dropped, lost * kPayload);
  const LinkCounts counted = CountsOf(run.net, gray.links[0]);
  EXPECT_EQ(counted.fcs_errors, lost);
  EXPECT_EQ(counted.drops, lost);
  // The same seed gives the same losses.
  FaultRun again(f.t);
  again.Start(kPackets * kPayload, f.h0, f.h1);
  ASSERT_TRUE(again.net.InjectFaults(std::span<const LinkFault>(&gray, 1)).ok());
  again.sim.Run();
  EXPECT_EQ(again.net.FaultOutcomes()[0].packets_lost.value_or(0), lost);
}

TEST(PacketFaults, GrayLinksSilentLossIsInNoCounter) {
  // The same 20,000 packets over a link losing each silently with p = 1%:
  // as many lost (the same draws: one per packet, the same generator), but
  // no port counts a drop or an FCS error for them; only the simulator
  // knows (the fault's packets_lost, the flow's dropped payload, so
  // payload conservation holds).
  TwoSpines f;
  constexpr uint64_t kPackets = 20'000;
  uint64_t lost[2] = {0, 0};
  for (int silent = 0; silent < 2; ++silent) {
    FaultRun run(f.t);
    run.Start(kPackets * kPayload, f.h0, f.h1);
    LinkFault gray;
    gray.kind = FaultKind::kGrayLink;
    gray.links = {f.Link(f.h0, f.leaf0)};
    (silent ? gray.loss_rate : gray.corruption_rate) = 0.01;
    ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&gray, 1)).ok());
    run.sim.Run();
    lost[silent] = run.net.FaultOutcomes()[0].packets_lost.value_or(0);
    EXPECT_EQ(run.net.totals().dropped, lost[silent] * kPayload);
    if (silent) {
      uint64_t drops = 0, fcs = 0;
      for (const Port& p : f.t.ports()) {
        drops += run.net.port(p.id).counters().drop_packets;
        fcs += run.net.port(p.id).counters().fcs_error_packets;
      }
      EXPECT_EQ(drops, 0u);
      EXPECT_EQ(fcs, 0u);
    }
  }
  EXPECT_GT(lost[1], 0u);
  EXPECT_EQ(lost[1], lost[0]);
}

TEST(PacketFaults, GrayLinksLossAndCorruptionTogetherEachCountAsTheirOwn) {
  // Loss 1% then, of what survives, corruption 1%: each packet is lost with
  // probability 0.01 + 0.99 x 0.01 = 0.0199; of 20,000, mean 398, sd
  // sqrt(20,000 x 0.0199 x 0.9801) = 19.75. The corrupted ones (mean 198)
  // are the port's FCS errors; the silent ones (mean 200) are in no counter.
  TwoSpines f;
  FaultRun run(f.t);
  constexpr uint64_t kPackets = 20'000;
  run.Start(kPackets * kPayload, f.h0, f.h1);
  LinkFault gray;
  gray.kind = FaultKind::kGrayLink;
  gray.links = {f.Link(f.h0, f.leaf0)};
  gray.loss_rate = 0.01;
  gray.corruption_rate = 0.01;
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&gray, 1)).ok());
  run.sim.Run();
  const uint64_t lost = run.net.FaultOutcomes()[0].packets_lost.value_or(0);
  EXPECT_LE(std::abs(static_cast<double>(lost) - 398.0), 4 * 19.75) << lost;
  const LinkCounts counted = CountsOf(run.net, gray.links[0]);
  EXPECT_EQ(counted.drops, counted.fcs_errors);
  // The corrupted share: binomial(~20,000, 0.0099), mean 198, sd 14.
  EXPECT_LE(std::abs(static_cast<double>(counted.fcs_errors) - 198.0), 4 * 14.0) << counted.fcs_errors;
  EXPECT_LT(counted.fcs_errors, lost);  // the rest went silently
  EXPECT_EQ(run.net.totals().dropped, lost * kPayload);
}

TEST(PacketFaults, AGrayLinksDegradedRateSerializesAtIt) {
  // leaf0's uplink under the flow runs at 100G from 0: 1000 packets leave
  // h0 back to back every tau = 83.56 ns and queue at leaf0, which sends
  // one every 4 tau = 334.24 ns. The first is there at tau + 500 + 400 ns
  // = 983.56 ns, so the last leaves leaf0 at 983.56 ns + 1000 x 334.24 ns;
  // it then crosses the spine (500 + 400 + 83.56 ns), leaf1 (500 + 400 +
  // 83.56 ns) and the last cable (500 ns): it arrives at
  //   983.56 + 334,240 + 983.56 + 983.56 + 500 = 337,690.68 ns,
  // i.e. 1000 x 334.24 ns + the path's 3,450.68 ns, what the flow level
  // gives (flow/flow_faults_test.cc).
  TwoSpines f;
  FaultRun run(f.t);
  run.Start(1000ull * kPayload, f.h0, f.h1);
  const NodeId via = f.t.port(run.net.path(0)[1]).peer;
  LinkFault gray;
  gray.kind = FaultKind::kGrayLink;
  gray.links = {f.Link(f.leaf0, via)};
  gray.rate = DataRate::Gbps(100);
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&gray, 1)).ok());
  run.sim.Run();
  EXPECT_EQ(run.net.flows()[0].finish.ps(), 337'690'680);
  EXPECT_EQ(run.net.totals().dropped, 0u);
  EXPECT_EQ(run.net.FaultOutcomes()[0].packets_lost.value_or(1), 0u);
}

// h0 and h1 each dual-homed (Alibaba HPN's dual-ToR): one 400G link to
// leaf0 and one to leaf1, no link between the ToRs; 500 ns cables, 400 ns
// switches. h0 -> h1 goes h0 - leafX - h1 for either X, by the flow's hash.
struct DualHomed {
  DualHomed() {
    const SwitchSpec spec = fabric_testing::LinkFaultTestSwitch();
    h0 = t.AddHost("h0");
    h1 = t.AddHost("h1");
    const int s = t.AddSwitchSpec(spec);
    leaf0 = t.AddSwitch("leaf0", 1, s);
    leaf1 = t.AddSwitch("leaf1", 1, s);
    for (NodeId h : {h0, h1}) {
      for (NodeId leaf : {leaf0, leaf1}) t.AddLink(h, leaf, DataRate::Gbps(400), Time::FromNs(500));
    }
  }
  Topology t;
  NodeId h0, h1, leaf0, leaf1;
};

TEST(PacketFaults, DualHomedNicFailsOverToItsOtherPortAndBack) {
  DualHomed f;
  FaultRun run(f.t);
  run.Start(1000ull * kPayload, f.h0, f.h1);
  const PortId first = run.net.path(0)[0];
  const PortId other = f.t.node(f.h0).ports[0] == first ? f.t.node(f.h0).ports[1] : f.t.node(f.h0).ports[0];
  LinkFault fault;
  fault.kind = FaultKind::kNicPortDown;
  fault.links = {f.t.port(first).link};
  fault.at = Time::FromUs(5);
  fault.until = Time::FromUs(30);
  fault.detection = Time::FromUs(10);
  fault.name = "h0:0";
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&fault, 1)).ok());
  run.sim.Run(Time::FromUs(20));
  // Moved at 15 us to the NIC's other port, and on to h1 through the other ToR.
  EXPECT_EQ(run.net.path(0)[0], other);
  EXPECT_EQ(run.net.path(0).size(), 2u);
  run.sim.Run();

  // Packet k leaves h0 at k*tau and reaches the ToR (cable + the switch's
  // 400 ns) at (k+1)*tau + 900 ns; it survives only if that is before 5 us:
  // (k+1) * 83.56 + 900 < 5000 for k <= 48, 49 packets. Until the move at
  // 15 us the NIC keeps sending on the dead port: k*tau < 15 us for
  // k <= 179, 180 packets, 131 of them lost. From 15 us the other port
  // carries the flow, and after the repair is seen (30 + 10 = 40 us) the
  // hash's first choice again: nothing more is lost.
  const FaultOutcome out = run.net.FaultOutcomes()[0];
  EXPECT_EQ(out.packets_lost, 131u);
  EXPECT_EQ(out.detected, Time::FromUs(15));
  EXPECT_EQ(out.route_changes, 2u);
  EXPECT_EQ(out.flows_rerouted, 2u);
  EXPECT_EQ(run.net.path(0)[0], first);
  const PayloadTotals totals = run.net.totals();
  EXPECT_EQ(totals.dropped, 131ull * kPayload);
  EXPECT_EQ(totals.delivered + totals.dropped, 1000ull * kPayload);
}

TEST(PacketFaults, DualHomedNicWithBothPortsDownKeepsItsRouteUntilTheRepair) {
  // Every link of h0 down from 5 to 30 us: routing has no way out of h0, so
  // the flow keeps its path (its packets die there) and carries on after
  // the repair; ECMP and adaptive switches alike. Conservation must hold.
  DualHomed f;
  for (LoadBalancing lb : {LoadBalancing::kEcmp, LoadBalancing::kAdaptive}) {
    PacketConfig config;
    config.load_balancing = lb;
    Simulator sim(1);
    const RoutingTable routes = RoutingTable::BuildShortestPaths(f.t);
    PacketNetwork net(sim, f.t, routes, config);
    TransferRequest r;
    r.src = f.h0;
    r.dst = f.h1;
    r.bytes = 1000ull * kPayload;
    net.StartTransfer(r);
    LinkFault fault;
    fault.kind = FaultKind::kNicPortDown;
    for (PortId p : f.t.node(f.h0).ports) fault.links.push_back(f.t.port(p).link);
    fault.at = Time::FromUs(5);
    fault.until = Time::FromUs(30);
    fault.detection = Time::FromUs(10);
    ASSERT_TRUE(net.InjectFaults(std::span<const LinkFault>(&fault, 1)).ok());
    sim.Run();
    const PayloadTotals totals = net.totals();
    EXPECT_GT(totals.dropped, 0u);
    EXPECT_EQ(totals.delivered + totals.dropped, 1000ull * kPayload);
    EXPECT_EQ(totals.in_flight, 0u);
  }
}

}  // namespace
}  // namespace aifabric
