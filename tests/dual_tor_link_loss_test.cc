// The HPN figure (Qian et al., "Alibaba HPN: A Data Center Network for Large
// Language Model Training", SIGCOMM 2024): a server of 8 NICs, each NIC's
// two 200G ports to the two ToRs of a pair, has 16 NIC-ToR links, so losing
// one costs it 1/16 = 6.25% of its bandwidth; single-homed, the same loss
// takes a whole NIC, 1/8 = 12.5%. Checked at flow level against the
// bandwidth worked out from the flows' actual hash assignment, and at
// packet level (the fault played, detected and routed around) against the
// same figure within the packets a window's edges can cut.
//
// The shape: 2 servers x 8 NICs of 400G under one leaf-spine (128 x 400G
// switches). Dual-ToR, all 16 NICs sit on one ToR pair (leaf0, leaf1), so
// NIC i of server 0 (host i) reaches NIC i of server 1 (host 8 + i) through
// either ToR, straight down: path [host i side s, leaf s -> host 8 + i].
// The two sides' paths share no link, and no two NICs share one, so each
// side of each NIC is its own bottleneck: it carries its 200G link's
// payload rate C = 200G x 4096 / (4096 + 82) whenever the hash put at least
// one flow there, split evenly over those flows. Single-homed, the same
// holds with one 400G side per NIC.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <span>
#include <vector>

#include "engine/simulator.h"
#include "fabric/link_fault.h"
#include "fabric/routing_table.h"
#include "fabric/topology_builder.h"
#include "flow/flow_network.h"
#include "packet/packet_network.h"

namespace aifabric {
namespace {

constexpr int kNics = 8;
constexpr uint32_t kFlowsPerNic = 16;
constexpr NodeId kLossyNic = 3;  // host 3 (server 0, NIC 3) loses its port 0

Topology ServerPair(bool dual_tor) {
  TopologySpec spec;
  spec.type = TopologyType::kLeafSpine;
  spec.servers = 2;
  spec.nics_per_server = kNics;
  spec.nic_rate = DataRate::Gbps(400);
  spec.switch_spec.name = "test-128x400G";
  spec.switch_spec.radix = 128;
  spec.switch_spec.port_rate = DataRate::Gbps(400);
  spec.switch_spec.latency = Time::FromNs(400);
  spec.switch_spec.buffer_bytes = 64ull << 20;
  spec.dual_tor = dual_tor;
  Result<Topology> t = BuildTopology(spec);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return std::move(t).value();
}

// kFlowsPerNic flows from every NIC of server 0 to the same NIC of server
// 1, ids 0.. in NIC-major order (distinct ids: distinct source ports).
std::vector<TransferRequest> Job(uint64_t bytes) {
  std::vector<TransferRequest> flows;
  for (NodeId nic = 0; nic < kNics; ++nic) {
    for (uint32_t k = 0; k < kFlowsPerNic; ++k) {
      TransferRequest r;
      r.id = static_cast<FlowId>(flows.size());
      r.src = nic;
      r.dst = nic + kNics;
      r.bytes = bytes;
      flows.push_back(r);
    }
  }
  return flows;
}

// The link of host 3's port 0 (its link to leaf0).
std::vector<uint8_t> LossyLinkDown(const Topology& t) {
  std::vector<uint8_t> down(t.num_links(), 0);
  down[static_cast<size_t>(t.port(t.node(kLossyNic).ports[0]).link)] = 1;
  return down;
}

struct FlowRun {
  FlowRun(const Topology& t, std::span<const uint8_t> link_down)
      : sim(1), routes(RoutingTable::BuildShortestPaths(t, link_down)), net(sim, t, routes, FlowConfig{}) {}
  Simulator sim;
  RoutingTable routes;
  FlowNetwork net;
};

// Flows per (NIC, side) from the paths the model took: side = the host
// port's index among the NIC's ports.
std::array<std::array<int, 2>, kNics> FlowsPerSide(const Topology& t, FlowNetwork& net) {
  std::array<std::array<int, 2>, kNics> n{};
  for (uint32_t i = 0; i < net.flows().size(); ++i) {
    const PortId first = net.path(i)[0];
    const Node& host = t.node(t.port(first).node);
    const int side = host.ports[0] == first ? 0 : 1;
    ++n[static_cast<size_t>(host.id)][static_cast<size_t>(side)];
  }
  return n;
}

double ServerRateBps(FlowNetwork& net) {
  double sum = 0;
  for (uint32_t i = 0; i < net.flows().size(); ++i) sum += net.rate_bps(i);
  return sum;
}

TEST(DualTorLinkLoss, FlowLevelServerLosesOneSixteenthOfItsBandwidth) {
  const Topology t = ServerPair(true);
  FlowRun healthy(t, {});
  const std::vector<uint8_t> down = LossyLinkDown(t);
  FlowRun lossy(t, down);  // routing converged around the dead link
  constexpr uint64_t kBytes = 64ull << 20;
  for (const TransferRequest& r : Job(kBytes)) {
    healthy.net.StartTransfer(r);
    lossy.net.StartTransfer(r);
  }
  const double c = healthy.net.payload_capacity_bps(t.node(0).ports[0]);
  EXPECT_NEAR(c, 200e9 * 4096 / 4178, 1);

  // The hash assignment, and the bandwidth it gives: C per side in use.
  const auto before = FlowsPerSide(t, healthy.net);
  const auto after = FlowsPerSide(t, lossy.net);
  double expected_before = 0, expected_after = 0;
  for (int nic = 0; nic < kNics; ++nic) {
    for (int side = 0; side < 2; ++side) {
      expected_before += before[nic][side] > 0 ? c : 0;
      expected_after += after[nic][side] > 0 ? c : 0;
      // Only the lossy NIC's flows moved (the others' hash choices stand).
      if (nic != kLossyNic) {
        EXPECT_EQ(after[nic][side], before[nic][side]) << nic << "/" << side;
      }
    }
  }
  EXPECT_EQ(after[kLossyNic][0], 0);
  EXPECT_EQ(after[kLossyNic][1], static_cast<int>(kFlowsPerNic));
  // With 16 flows a NIC leaves a side idle with probability 2^-15; this
  // hash uses both sides of every NIC, so the 16 links are all busy before
  // the loss and 15 after: exactly 15/16 of the bandwidth.
  EXPECT_DOUBLE_EQ(expected_before, 16 * c);
  EXPECT_DOUBLE_EQ(expected_after, 15 * c);
  const double rate_before = ServerRateBps(healthy.net), rate_after = ServerRateBps(lossy.net);
  EXPECT_NEAR(rate_before, expected_before, 1e-6 * expected_before);
  EXPECT_NEAR(rate_after, expected_after, 1e-6 * expected_after);
  EXPECT_NEAR(1 - rate_after / rate_before, 1.0 / 16, 1e-6);  // 6.25%

  // What it does to a job that gives every NIC the same bytes: each side's
  // n flows share C, so they all finish at n * bytes * 8 / C plus their
  // path latency; the job ends with its slowest side. The lossy NIC's one
  // side now carries all 16 flows: that rank is the step's straggler.
  healthy.sim.Run();
  lossy.sim.Run();
  for (FlowRun* run : {&healthy, &lossy}) {
    const auto n = FlowsPerSide(t, run->net);
    for (uint32_t i = 0; i < run->net.flows().size(); ++i) {
      const PortId first = run->net.path(i)[0];
      const Node& host = t.node(t.port(first).node);
      const int on_side = n[static_cast<size_t>(host.id)][host.ports[0] == first ? 0 : 1];
      const double payload_ps = static_cast<double>(on_side) * kBytes * 8 / c * 1e12;
      const Time latency = run->net.PathLatency(run->net.path(i), kBytes);
      EXPECT_NEAR(static_cast<double>(run->net.flows()[i].finish.ps()),
                  payload_ps + static_cast<double>(latency.ps()), 1000.0)
          << "flow " << i;
    }
  }
}

// The fault played at flow level: host 3's port 0 fails at 2 us and
// routing hears of it 3 us later.
LinkFault LossyPortDown(const Topology& t, PortId port) {
  LinkFault f;
  f.kind = FaultKind::kNicPortDown;
  f.links = {t.port(port).link};
  f.at = Time::FromUs(2);
  f.detection = Time::FromUs(3);
  f.name = "h3:0";
  return f;
}

TEST(DualTorLinkLoss, FlowLevelFailoverAtDetectionLeavesFifteenSixteenths) {
  // The same job on the healthy routes, the fault played: at detection
  // host 3's flows on its dead port move to its other port, so every flow
  // finishes and the server keeps 15 of its 16 links.
  const Topology t = ServerPair(true);
  FlowRun run(t, {});
  for (const TransferRequest& r : Job(64ull << 20)) run.net.StartTransfer(r);
  const LinkFault f = LossyPortDown(t, t.node(kLossyNic).ports[0]);
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&f, 1)).ok());
  const double c = run.net.payload_capacity_bps(t.node(0).ports[0]);
  const auto before = FlowsPerSide(t, run.net);
  ASSERT_GT(before[kLossyNic][0], 0);  // the fault hits some of its flows
  run.sim.Run(Time::FromUs(1));
  EXPECT_NEAR(ServerRateBps(run.net), 16 * c, 1e-6 * 16 * c);
  run.sim.Run(Time::FromUs(4));  // failed, not yet detected: its flows there stall
  for (uint32_t i = 0; i < run.net.flows().size(); ++i) {
    if (run.net.path(i)[0] == t.node(kLossyNic).ports[0]) {
      EXPECT_EQ(run.net.rate_bps(i), 0) << "flow " << i;
    }
  }
  run.sim.Run(Time::FromUs(6));  // detected: failed over
  const auto after = FlowsPerSide(t, run.net);
  EXPECT_EQ(after[kLossyNic][0], 0);
  EXPECT_EQ(after[kLossyNic][1], static_cast<int>(kFlowsPerNic));
  for (int nic = 0; nic < kNics; ++nic) {
    if (nic != kLossyNic) {
      EXPECT_EQ(after[nic], before[nic]) << nic;
    }
  }
  const double rate = ServerRateBps(run.net);
  EXPECT_NEAR(rate, 15 * c, 1e-6 * 15 * c);
  EXPECT_NEAR(1 - rate / (16 * c), 1.0 / 16, 1e-6);  // 6.25%
  const std::vector<FaultOutcome> o = run.net.FaultOutcomes();
  ASSERT_EQ(o.size(), 1u);
  EXPECT_EQ(o[0].detected, Time::FromUs(5));
  EXPECT_EQ(o[0].rerouted, Time::FromUs(5));
  EXPECT_EQ(o[0].flows_rerouted, static_cast<uint64_t>(before[kLossyNic][0]));
  run.sim.Run();
  for (uint32_t i = 0; i < run.net.flows().size(); ++i) {
    EXPECT_FALSE(run.net.flows()[i].finish.IsInfinite()) << "flow " << i;
  }
}

TEST(DualTorLinkLoss, FlowLevelRepairMovesTheFlowsBack) {
  // Repaired at 20 us, seen at 23 us: the moved flows re-pick by the same
  // hash over both ports again, which returns them to their first port.
  const Topology t = ServerPair(true);
  FlowRun run(t, {});
  for (const TransferRequest& r : Job(64ull << 20)) run.net.StartTransfer(r);
  LinkFault f = LossyPortDown(t, t.node(kLossyNic).ports[0]);
  f.until = Time::FromUs(20);
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&f, 1)).ok());
  const auto before = FlowsPerSide(t, run.net);
  run.sim.Run(Time::FromUs(22));
  EXPECT_EQ(FlowsPerSide(t, run.net)[kLossyNic][0], 0);  // repaired, not yet seen
  run.sim.Run(Time::FromUs(24));
  EXPECT_EQ(FlowsPerSide(t, run.net), before);
  const double c = run.net.payload_capacity_bps(t.node(0).ports[0]);
  EXPECT_NEAR(ServerRateBps(run.net), 16 * c, 1e-6 * 16 * c);
  EXPECT_EQ(run.net.FaultOutcomes()[0].flows_rerouted, 2 * static_cast<uint64_t>(before[kLossyNic][0]));
  run.sim.Run();
  for (uint32_t i = 0; i < run.net.flows().size(); ++i) {
    EXPECT_FALSE(run.net.flows()[i].finish.IsInfinite()) << "flow " << i;
  }
}

TEST(DualTorLinkLoss, FlowLevelSingleFlowFinishesAfterTheDetectionOnTheOtherPort) {
  // One flow of B bytes from host 3 to host 11 at C (its port's payload
  // rate). Its port fails at t0 = 2 us: the bytes on the wire, C/8 x (the
  // cable's propagation + one 4178 B frame at 200G), are lost; it stalls
  // until detection at t0 + 3 us, then runs on host 3's other port, also
  // at C. So it finishes at (B + lost) x 8 / C + 3 us + its path latency.
  const Topology t = ServerPair(true);
  FlowRun run(t, {});
  TransferRequest r;
  r.id = 0;
  r.src = kLossyNic;
  r.dst = kLossyNic + kNics;
  r.bytes = 1ull << 20;
  run.net.StartTransfer(r);
  const PortId first = run.net.path(0)[0];
  const LinkFault f = LossyPortDown(t, first);
  ASSERT_TRUE(run.net.InjectFaults(std::span<const LinkFault>(&f, 1)).ok());
  const double c = run.net.payload_capacity_bps(first);
  run.sim.Run();
  ASSERT_NE(run.net.path(0)[0], first);
  EXPECT_EQ(t.port(run.net.path(0)[0]).node, kLossyNic);
  const double frame_s = 4178.0 * 8 / 200e9;
  const double lost = c / 8 * (static_cast<double>(t.port(first).latency.ps()) * 1e-12 + frame_s);
  EXPECT_EQ(run.net.FaultOutcomes()[0].bytes_resent, static_cast<uint64_t>(std::llround(lost)));
  const double expected_ps = (static_cast<double>(r.bytes) + lost) * 8 / c * 1e12 + 3e6 +
                             static_cast<double>(run.net.PathLatency(run.net.path(0), r.bytes).ps());
  EXPECT_NEAR(static_cast<double>(run.net.flows()[0].finish.ps()), expected_ps, 1000.0);
}

// A packet-level run of the job for `window` after the fault is routed
// around: the payload server 1's NICs received in [from, until) (the ToRs'
// ports down to them), with host 3's port 0 (dual-ToR) or its only link
// (single-homed) failing at 2 us, seen 3 us later, when `fault` is set.
// No transport: every NIC port sends back to back, round robin over its
// flows, so a busy side runs at line rate.
double PacketDeliveredBytes(const Topology& t, bool fault, Time from, Time until) {
  Simulator sim(1);
  const RoutingTable routes = RoutingTable::BuildShortestPaths(t);
  PacketNetwork net(sim, t, routes, PacketConfig{});
  for (const TransferRequest& r : Job(4ull << 20)) net.StartTransfer(r);
  if (fault) {
    LinkFault f;
    f.kind = FaultKind::kNicPortDown;
    f.links = {t.port(t.node(kLossyNic).ports[0]).link};
    f.at = Time::FromUs(2);
    f.detection = Time::FromUs(3);
    f.name = "h3:0";
    EXPECT_TRUE(net.InjectFaults(std::span<const LinkFault>(&f, 1)).ok());
  }
  std::vector<PortId> into_server1;
  for (const Port& p : t.ports()) {
    if (t.node(p.peer).kind == NodeKind::kHost && p.peer >= kNics) into_server1.push_back(p.id);
  }
  auto received = [&] {
    uint64_t sum = 0;
    for (PortId p : into_server1) sum += net.egress(p).counters().tx_payload_bytes;
    return sum;
  };
  sim.Run(from);
  const uint64_t at_from = received();
  sim.Run(until);
  return static_cast<double>(received() - at_from);
}

TEST(DualTorLinkLoss, PacketLevelAgreesDualToRLosesASixteenthSingleHomedAnEighth) {
  // Window [10 us, 40 us): after the detection (5 us), before any flow is
  // done (a side with all 16 flows of 4 MiB would take 2.7 ms; with one,
  // 170 us). A busy port delivers C * 30 us of payload, give or take a
  // packet at each edge of the window: +-2 x 4096 B per port.
  const Time from = Time::FromUs(10), until = Time::FromUs(40);
  const double window_s = 30e-6;
  for (const bool dual : {true, false}) {
    const Topology t = ServerPair(dual);
    const double link_bps = dual ? 200e9 : 400e9;
    const double per_port = link_bps * 4096 / 4178 * window_s / 8;
    const int ports = dual ? 2 * kNics : kNics;
    const double slack = 2.0 * 4096 * ports;
    const double healthy = PacketDeliveredBytes(t, false, from, until);
    const double lossy = PacketDeliveredBytes(t, true, from, until);
    EXPECT_NEAR(healthy, ports * per_port, slack) << (dual ? "dual-ToR" : "single-homed");
    // Dual-ToR: host 3's flows fail over to its port 1, 15 of 16 ports stay
    // busy. Single-homed: host 3 has no other port, its NIC is lost.
    EXPECT_NEAR(lossy, (ports - 1) * per_port, slack) << (dual ? "dual-ToR" : "single-homed");
    const double loss = 1 - lossy / healthy;
    const double expected = 1.0 / ports;  // 1/16 = 6.25% or 1/8 = 12.5%
    // The bound on the ratio from the slack: (a +- s) / (b +- s).
    const double b = ports * per_port, a = (ports - 1) * per_port;
    const double tolerance = (a + slack) / (b - slack) - a / b;
    EXPECT_NEAR(loss, expected, tolerance) << (dual ? "dual-ToR" : "single-homed");
  }
}

}  // namespace
}  // namespace aifabric
