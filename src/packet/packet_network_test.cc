// Specs of the packet-level model, each against a figure worked out by hand.
#include "packet/packet_network.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "engine/simulator.h"
#include "fabric/fabric_test_util.h"
#include "fabric/routing_table.h"
#include "fabric/topology.h"

namespace aifabric {
namespace {

SwitchSpec TestSwitch(uint64_t buffer_bytes = 64ull << 20) {
  SwitchSpec s;
  s.name = "test";
  s.radix = 64;
  s.port_rate = DataRate::Gbps(400);
  s.latency = Time::FromNs(400);
  s.buffer_bytes = buffer_bytes;
  return s;
}

// Records completion times by flow id.
struct Finishes final : TransferObserver {
  std::map<FlowId, Time> at;
  void OnTransferDone(FlowId id, Time finish) override { at[id] = finish; }
};

// Runs `requests` (all starting at 0) on `topology` and returns finish times.
struct Harness {
  Harness(const Topology& t, PacketConfig config = {}, uint64_t seed = 1)
      : sim(seed), routes(RoutingTable::BuildShortestPaths(t)), net(sim, t, routes, config) {
    net.SetObserver(&finishes);
  }
  void Start(FlowId id, NodeId src, NodeId dst, uint64_t bytes, uint8_t prio = 3, uint16_t sport = 0) {
    TransferRequest r = fabric_testing::Request(id, src, dst, bytes, prio);
    r.sport = sport;
    net.StartTransfer(r);
  }
  Simulator sim;
  RoutingTable routes;
  PacketNetwork net;
  Finishes finishes;
};

TEST(PacketNetwork, OneFlowOnIdlePathMatchesClosedFormToThePicosecond) {
  // 10 packets of 4096 B payload + 82 B RoCEv2 overhead = 4178 B on the wire.
  // Serialization: 100G: 4178*8/100e9 s = 334,240 ps; 400G: 83,560 ps.
  // First packet, store-and-forward, hop by hop (cable 500,000 ps; each of
  // the 3 switches adds 400,000 ps):
  //   334,240 + 83,560 + 83,560 + 334,240  = 835,600   serialization
  //   4 * 500,000                          = 2,000,000 propagation
  //   3 * 400,000                          = 1,200,000 switching
  //                                         = 4,035,600
  // The other 9 packets follow at the 100G bottleneck: 9 * 334,240 = 3,008,160.
  // FCT = 7,043,760 ps.
  Topology t = fabric_testing::FourHopPath(TestSwitch());
  Harness run(t);
  run.Start(1, 0, 1, 10 * 4096);
  run.sim.Run();
  ASSERT_EQ(run.finishes.at.count(1), 1u);
  EXPECT_EQ(run.finishes.at[1].ps(), 7'043'760);
  TransferRequest r;
  r.id = 1; r.src = 0; r.dst = 1; r.bytes = 10 * 4096;
  EXPECT_EQ(run.net.IdealFct(r).ps(), 7'043'760);
}

TEST(PacketNetwork, CutThroughStartsForwardingAfterTheHeader) {
  // h0 -100G- sw -100G- h1, one 4096 B packet (4178 B wire, 334,240 ps).
  // Store-and-forward: 334,240 + 500,000 + 400,000 + 334,240 + 500,000
  //   = 2,068,480 ps.
  // Cut-through: the switch starts after the first 64 B (5,120 ps) have
  // arrived: egress starts at 5,120 + 500,000 + 400,000 = 905,120 and ends at
  // 905,120 + 334,240 = 1,239,360 (later than the last bit's arrival at
  // 834,240, so no stall); + 500,000 = 1,739,360 ps.
  Topology t;
  const NodeId h0 = t.AddHost("h0"), h1 = t.AddHost("h1");
  const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(TestSwitch()));
  t.AddLink(h0, sw, DataRate::Gbps(100), Time::FromNs(500));
  t.AddLink(sw, h1, DataRate::Gbps(100), Time::FromNs(500));
  for (auto [mode, expected] : {std::pair{Forwarding::kStoreAndForward, 2'068'480},
                                std::pair{Forwarding::kCutThrough, 1'739'360}}) {
    PacketConfig config;
    config.forwarding = mode;
    Harness run(t, config);
    run.Start(7, h0, h1, 4096);
    run.sim.Run();
    EXPECT_EQ(run.finishes.at[7].ps(), expected);
    TransferRequest r;
    r.id = 7; r.src = h0; r.dst = h1; r.bytes = 4096;
    EXPECT_EQ(run.net.IdealFct(r).ps(), expected);
  }
}

// N senders under one switch, one receiver: the receiver's link is the
// bottleneck everyone shares.
Topology Star(int senders, uint64_t buffer_bytes) {
  Topology t;
  for (int i = 0; i <= senders; ++i) t.AddHost(std::string("h").append(std::to_string(i)));
  const NodeId sw = t.AddSwitch("sw", 1, t.AddSwitchSpec(TestSwitch(buffer_bytes)));
  for (int i = 0; i <= senders; ++i) t.AddLink(i, sw, DataRate::Gbps(100), Time::FromNs(500));
  return t;
}

TEST(PacketNetwork, EqualFlowsThroughOneBottleneckFinishTogether) {
  // 8 senders x 1 MiB into host 0 through a FIFO egress with room for all
  // (64 MiB buffer): packets interleave, so all finish within 1% of each
  // other. The bottleneck never idles once busy, so the last finish is the
  // total wire bytes over 100G after the first packet reached the egress:
  // 8 * 256 packets * 334,240 ps = 684,523,520 ps after 334,240 + 500,000 +
  // 400,000 = 1,234,240, plus 500,000 of cable: 686,257,760 ps.
  const int n = 8;
  Topology t = Star(n, 64ull << 20);
  Harness run(t);
  for (int i = 1; i <= n; ++i) run.Start(i, i, 0, 1 << 20);
  run.sim.Run();
  ASSERT_EQ(run.finishes.at.size(), static_cast<size_t>(n));
  Time first = Time::Infinite(), last = Time::Zero();
  for (auto& [id, at] : run.finishes.at) {
    first = Min(first, at);
    last = Max(last, at);
  }
  EXPECT_LT((last - first).ps(), last.ps() / 100);
  EXPECT_EQ(last.ps(), 686'257'760);
  EXPECT_EQ(run.net.totals().dropped, 0u);
}

TEST(PacketNetwork, BytesAreConservedWhenBuffersDrop) {
  // A 256 KiB shared buffer cannot hold an 8-to-1 incast of 1 MiB flows, so
  // the switch drops. Counted independently at three places — payload put
  // on the wire by senders, payload received by hosts, payload refused by
  // buffers — sent == delivered + dropped once the run drains, and no packet
  // is left allocated.
  Topology t = Star(8, 256 << 10);
  Harness run(t);
  for (int i = 1; i <= 8; ++i) run.Start(i, i, 0, 1 << 20);
  run.sim.Run();
  const PayloadTotals totals = run.net.totals();
  EXPECT_EQ(totals.sent, 8ull << 20);
  EXPECT_GT(totals.dropped, 0u);
  EXPECT_EQ(totals.sent, totals.delivered + totals.dropped);
  EXPECT_EQ(run.net.packets_in_use(), 0u);
  // The port counters agree: drops at the switch's port toward host 0, and
  // what hosts put on their links equals what the flows sent.
  uint64_t port_drops = 0, host_tx = 0;
  for (const Port& p : t.ports()) {
    port_drops += run.net.egress(p.id).counters().drop_payload_bytes;
    if (t.node(p.node).kind == NodeKind::kHost) host_tx += run.net.egress(p.id).counters().tx_payload_bytes;
  }
  EXPECT_EQ(port_drops, totals.dropped);
  EXPECT_EQ(host_tx, totals.sent);
  // Flows that lost packets never complete (no retransmission without a
  // transport); those that lost none do.
  for (const FlowState& f : run.net.flows()) EXPECT_EQ(f.done(), f.dropped_bytes == 0);
}

// Hosts 0-3 under leaf0, 4-7 under leaf1, 8 spines, 400G everywhere; fills
// `uplinks` with leaf0's ports to the spines.
Topology TwoLeavesEightSpines(std::vector<PortId>& uplinks) {
  Topology t;
  for (int i = 0; i < 8; ++i) t.AddHost(std::string("h").append(std::to_string(i)));
  const int spec = t.AddSwitchSpec(TestSwitch());
  const NodeId l0 = t.AddSwitch("leaf0", 1, spec), l1 = t.AddSwitch("leaf1", 1, spec);
  for (int i = 0; i < 4; ++i) t.AddLink(i, l0, DataRate::Gbps(400), Time::FromNs(500));
  for (int i = 4; i < 8; ++i) t.AddLink(i, l1, DataRate::Gbps(400), Time::FromNs(500));
  for (int s = 0; s < 8; ++s) {
    const NodeId sp = t.AddSwitch(std::string("spine").append(std::to_string(s)), 2, spec);
    uplinks.push_back(2 * t.AddLink(l0, sp, DataRate::Gbps(400), Time::FromNs(500)));
    t.AddLink(sp, l1, DataRate::Gbps(400), Time::FromNs(500));
  }
  return t;
}

TEST(PacketNetwork, EcmpSpreadsFlowsUniformlyOverEqualPaths) {
  // Two leaves, 8 spines: every leaf0 -> leaf1 flow has 8 equal paths. 10^4
  // one-packet flows with distinct source ports should land on the 8
  // uplinks uniformly: expected 1250 each. Pearson's chi-square with 7
  // degrees of freedom stays below 24.32 with probability 0.999.
  std::vector<PortId> uplinks;
  const Topology t = TwoLeavesEightSpines(uplinks);
  Harness run(t);
  const int flows = 10000;
  for (int i = 0; i < flows; ++i) {
    run.Start(i, i % 4, 4 + (i / 4) % 4, 1000, 3, static_cast<uint16_t>(1000 + i));
  }
  run.sim.Run();
  double chi2 = 0;
  const double expected = flows / 8.0;
  for (PortId up : uplinks) {
    const double got = static_cast<double>(run.net.egress(up).counters().tx_packets);
    chi2 += (got - expected) * (got - expected) / expected;
    EXPECT_NEAR(got, expected, 0.1 * expected);
  }
  EXPECT_LT(chi2, 24.32);
  EXPECT_EQ(run.finishes.at.size(), static_cast<size_t>(flows));
}

TEST(PacketNetwork, QueuePairsSpreadOneTransferOverEcmpPaths) {
  // One 1 MiB transfer (256 packets) from h0 to h4 across 8 equal spine
  // paths, carried by 8 queue pairs of 32 packets each with distinct source
  // ports: the observer hears of the transfer once, when its last queue
  // pair is done, and the leaf's uplinks carry the 256 packets in 32-packet
  // lots (one per queue pair, several possibly hashed onto the same uplink).
  std::vector<PortId> uplinks;
  const Topology t = TwoLeavesEightSpines(uplinks);
  PacketConfig config;
  config.qps_per_transfer = 8;
  Harness run(t, config);
  run.Start(42, 0, 4, 1 << 20);
  run.sim.Run();
  ASSERT_EQ(run.finishes.at.size(), 1u);
  EXPECT_EQ(run.finishes.at.count(42), 1u);
  EXPECT_EQ(run.net.flows().size(), 8u);
  int used = 0;
  uint64_t total = 0;
  for (PortId up : uplinks) {
    const uint64_t n = run.net.egress(up).counters().tx_packets;
    EXPECT_EQ(n % 32, 0u);
    used += n > 0;
    total += n;
  }
  EXPECT_EQ(total, 256u);
  // 8 QPs hashed onto 8 paths land on at most 2 of them with probability
  // (8 + C(8,2) (2^8 - 2)) / 8^8 = 4.2e-4.
  EXPECT_GE(used, 3);
}

TEST(PacketNetwork, StrictPriorityServesTheHighQueueFirst) {
  // Two senders share the switch's 100G link to host 0; sender 1's flow is
  // priority 6 (strict), sender 2's priority 3. Both are backlogged at the
  // switch, so the strict flow gets the link whenever it has a packet: it
  // finishes as if alone (its own ideal FCT), the other later.
  Topology t = Star(2, 64ull << 20);
  PacketConfig config;
  config.queues[6].strict = true;
  Harness run(t, config);
  run.Start(1, 1, 0, 1 << 20, 6);
  run.Start(2, 2, 0, 1 << 20, 3);
  run.sim.Run();
  TransferRequest r;
  r.id = 1; r.src = 1; r.dst = 0; r.bytes = 1 << 20; r.priority = 6;
  // Alone except for at most one low-priority packet already on the wire
  // when the first high one arrived (334,240 ps at 100G).
  EXPECT_LE(run.finishes.at[1].ps(), run.net.IdealFct(r).ps() + 334'240);
  EXPECT_LT(run.finishes.at[1], run.finishes.at[2]);
}

TEST(PacketNetwork, DwrrSharesTheLinkByWeight) {
  // Weights 1 (prio 1) and 3 (prio 2), both backlogged: while both are
  // active the heavier queue sends 3 packets per 1 of the lighter. With 4 MiB
  // each, the weight-3 flow finishes when 4 MiB of its and 4/3 MiB of the
  // other's have crossed: at ~ (4 + 4/3) / 8 = 2/3 of the total time.
  Topology t = Star(2, 64ull << 20);
  PacketConfig config;
  config.queues[1].dwrr_weight = 1;
  config.queues[2].dwrr_weight = 3;
  Harness run(t, config);
  run.Start(1, 1, 0, 4 << 20, 1);
  run.Start(2, 2, 0, 4 << 20, 2);
  run.sim.Run();
  const double heavy = run.finishes.at[2].seconds(), light = run.finishes.at[1].seconds();
  EXPECT_NEAR(heavy / light, 2.0 / 3.0, 0.01);
}

// A host NIC schedules its classes as a switch egress port does: host 0
// sends to hosts 1 and 2 through one switch, 100G everywhere, so its own
// link is the only one the two flows share.
TEST(HostNic, TwoClassesFromOneNicShareItsLinkByDwrrWeight) {
  // 8 MiB in priority 3 (weight 4) to host 1 and 8 MiB in priority 1
  // (weight 1) to host 2, both backlogged from 0: DWRR visits queue 1
  // first (one 4178 B packet per visit), then queue 3 (four), so while
  // both send the NIC's link carries 4 packets of the heavy class per 1 of
  // the light. The heavy flow's 2,048th packet is the link's 2,560th
  // (512 light ones went between), out of the NIC at 2,560 x 334,240 ps
  // and at host 1 a cable, the switch (400 ns), its serialization and a
  // cable later (500,000 + 400,000 + 334,240 + 500,000 = 1,734,240 ps):
  // 857,388,640 ps. The light flow then has the link alone and finishes
  // with the link's 4,096th packet: 1,370,781,280 ps.
  Topology t = Star(2, 64ull << 20);
  PacketConfig config;
  config.queues[3].dwrr_weight = 4;
  config.queues[1].dwrr_weight = 1;
  Harness run(t, config);
  run.Start(1, 0, 1, 8 << 20, 3);
  run.Start(2, 0, 2, 8 << 20, 1);
  // Halfway through the heavy flow: 4:1 by bytes, within 2% (at most a
  // DWRR round, 5 packets, off over the ~1,280 sent).
  run.sim.Run(Time::FromUs(428));
  const double heavy_sent = static_cast<double>(run.net.flow(0).sent_bytes);
  const double light_sent = static_cast<double>(run.net.flow(1).sent_bytes);
  EXPECT_NEAR(heavy_sent / light_sent, 4.0, 4.0 * 0.02) << heavy_sent << " " << light_sent;
  std::printf("at 428 us: %.0f B heavy, %.0f B light (x%.4f)\n", heavy_sent, light_sent, heavy_sent / light_sent);
  run.sim.Run();
  EXPECT_EQ(run.finishes.at[1].ps(), 857'388'640);
  EXPECT_EQ(run.finishes.at[2].ps(), 1'370'781'280);
}

TEST(HostNic, AStrictClassFromOneNicGoesFirstAndTheLowClassGetsWhatItLeaves) {
  // Host 0 sends eight 64 KiB messages to host 1 in strict priority 5, one
  // every 20 us from 0, beside 4 MiB to host 2 in priority 1 (DWRR)
  // started at 0. Each message leaves the NIC ahead of the bulk flow's
  // packets: it takes its alone FCT, plus at most the one bulk packet
  // already on the wire when it starts (334,240 ps). The bulk flow gets
  // the link in the gaps (each message holds it for 16 packets, 5.35 us, of
  // every 20 us) and never idles it, so it ends with the link's
  // (1,024 + 8 x 16)th packet: 1,152 x 334,240 + 1,734,240 (the last
  // packet's way to host 2) = 386,778,720 ps.
  Topology t = Star(2, 64ull << 20);
  PacketConfig config;
  config.queues[5].strict = true;
  Harness run(t, config);
  run.Start(100, 0, 1, 64 << 10, 5);  // first, so no bulk packet is on the wire before it
  run.Start(1, 0, 2, 4 << 20, 1);
  for (int k = 1; k < 8; ++k) {
    run.sim.ScheduleCallback(Time::FromUs(20 * k), [&run, k] { run.Start(100 + k, 0, 1, 64 << 10, 5); });
  }
  // While the first message sends (16 packets, 5.35 us) the bulk flow
  // has sent nothing.
  run.sim.Run(Time::FromUs(5));
  EXPECT_EQ(run.net.flow(1).sent_bytes, 0u);
  run.sim.Run();
  TransferRequest r;
  r.id = 100; r.src = 0; r.dst = 1; r.bytes = 64 << 10; r.priority = 5;
  const int64_t alone = run.net.IdealFct(r).ps();
  for (int k = 0; k < 8; ++k) {
    const int64_t fct = run.finishes.at[100 + k].ps() - Time::FromUs(20 * k).ps();
    EXPECT_GE(fct, alone) << k;
    EXPECT_LE(fct, alone + 334'240) << k;
  }
  EXPECT_EQ(run.finishes.at[1].ps(), 386'778'720);
}

PacketConfig InfiniBand() {
  PacketConfig c;
  c.kind = FabricKind::kIb;
  c.wire_overhead_bytes = kIbWireOverheadBytes;
  c.weighted_high = true;
  return c;
}

TEST(PacketNetwork, VlArbitrationLimitOfHighPriority) {
  // InfiniBand, two senders into host 0: 1 MiB on VL0 (high table) and
  // 1 MiB on VL3 (low table), both backlogged at the switch.
  // LimitOfHighPriority 0: after each high packet a waiting low packet goes,
  // so they alternate and finish within a packet time (327.76 ns of 4122 B
  // at 100G) of each other. Unbounded: the high VL goes first and finishes
  // near its lone FCT, the low one a full 256 packets later.
  Topology t = Star(2, 64ull << 20);
  for (uint64_t limit : {uint64_t{0}, kUnboundedHighPriority}) {
    PacketConfig config = InfiniBand();
    config.queues[0].strict = true;
    config.high_limit_bytes = limit;
    Harness run(t, config);
    run.Start(1, 1, 0, 1 << 20, 0);
    run.Start(2, 2, 0, 1 << 20, 3);
    run.sim.Run();
    const double high = run.finishes.at[1].us_f(), low = run.finishes.at[2].us_f();
    if (limit == 0) {
      EXPECT_LT(std::abs(high - low), 2 * 0.32776) << high << " " << low;
    } else {
      EXPECT_LT(high + 256 * 0.32776 * 0.9, low);
    }
  }
}

TEST(PacketNetwork, VlArbitrationWeightsTheHighTable) {
  // Two VLs in the high table with weights 1 and 3, both backlogged: as in
  // the DWRR test, the weight-3 VL's 4 MiB finish at ~2/3 of the total.
  Topology t = Star(2, 64ull << 20);
  PacketConfig config = InfiniBand();
  config.queues[0].strict = config.queues[1].strict = true;
  config.queues[0].dwrr_weight = 1;
  config.queues[1].dwrr_weight = 3;
  Harness run(t, config);
  run.Start(1, 1, 0, 4 << 20, 0);
  run.Start(2, 2, 0, 4 << 20, 1);
  run.sim.Run();
  EXPECT_NEAR(run.finishes.at[2].seconds() / run.finishes.at[1].seconds(), 2.0 / 3.0, 0.01);
}

TEST(PacketNetwork, TwoSimulationsInOneProcessDoNotInterfere) {
  // Two independent simulations stepped alternately in one process give the
  // same results as each run alone: no state is shared between them.
  Topology t = Star(4, 64ull << 20);
  auto start_all = [](Harness& run) {
    for (int i = 1; i <= 4; ++i) run.Start(i, i, 0, 256 << 10);
  };
  Harness alone(t);
  start_all(alone);
  alone.sim.Run();

  Harness a(t), b(t);
  start_all(a);
  start_all(b);
  for (int64_t us = 1; !(a.sim.pending_events() == 0 && b.sim.pending_events() == 0); ++us) {
    a.sim.Run(Time::FromUs(us));
    b.sim.Run(Time::FromUs(us));
  }
  EXPECT_EQ(a.finishes.at, alone.finishes.at);
  EXPECT_EQ(b.finishes.at, alone.finishes.at);
  EXPECT_EQ(a.sim.events_processed(), alone.sim.events_processed());
}

}  // namespace
}  // namespace aifabric
