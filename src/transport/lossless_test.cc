// RoCEv2 incast with and without PFC, and PFC's congestion spreading with
// and without DCQCN: the behaviours a lossless-fabric architect relies on.
#include <gtest/gtest.h>

#include <cstdio>

#include <algorithm>

#include "transport/transport_test_fabric.h"

namespace aifabric {
namespace {

using transport_testing::Harness;
using transport_testing::Name;
using transport_testing::Star;

PacketConfig Roce(bool pfc) {
  PacketConfig c;
  c.pfc.enabled = pfc;
  return c;
}

TransportConfig Rc(CongestionControl cc = CongestionControl::kNone) {
  TransportConfig t;
  t.cc = cc;
  return t;
}

// 16 senders x 1 MiB into host 0, 400G everywhere, one switch with 8 MB.
struct Incast {
  explicit Incast(bool pfc) : topology(Star(17, DataRate::Gbps(400), 8'000'000)), run(topology, Roce(pfc), Rc()) {
    for (int i = 1; i <= 16; ++i) run.Start(i - 1, i, 0, 1 << 20);
    run.sim.Run();
  }
  Time LastFinish() const {
    Time last;
    for (const auto& [id, at] : run.finishes.at) last = Max(last, at);
    return last;
  }
  Topology topology;
  Harness run;
};

TEST(Lossless, IncastWithPfcDropsNothingAndKeepsTheReceiverLinkBusy) {
  Incast incast(/*pfc=*/true);
  ASSERT_EQ(incast.run.finishes.at.size(), 16u);  // every byte delivered
  EXPECT_EQ(incast.run.Sum(&PortCounters::drop_packets), 0u);
  EXPECT_EQ(incast.run.net.totals().retransmitted, 0u);
  // The switch paused the senders: PFC frames arrived at the hosts' ports.
  uint64_t host_frames = 0, host_pause_ps = 0;
  for (int h = 1; h <= 16; ++h) {
    const EgressPort& nic = incast.run.net.egress(incast.topology.node(h).ports[0]);
    host_frames += nic.counters().pfc_frames_rx;
    host_pause_ps += nic.counters().pfc_pause_ps;
  }
  std::printf("incast with PFC: last byte %.2f us, %lu PFC frames at the senders, %lu drops\n",
              incast.LastFinish().us_f(), host_frames, incast.run.Sum(&PortCounters::drop_packets));
  EXPECT_GT(host_frames, 16u);
  EXPECT_GT(host_pause_ps, 0u);
  // Lossless and never idle: the last byte lands when the receiver's link
  // has carried all 16 x 256 packets of 4178 B at 400G — 342.26 us — after
  // the first packet reached the switch egress (83.56 ns + 500 ns cable +
  // 400 ns switch = 983.56 ns), plus the last cable (500 ns): 343.74 us.
  const double expected_us = 16 * 256 * 4178 * 8 / 400e3 + 0.98356 + 0.5;
  EXPECT_NEAR(incast.LastFinish().us_f(), expected_us, expected_us * 0.005);
}

TEST(Lossless, IncastWithoutPfcDropsRetransmitsAndStillDelivers) {
  Incast lossy(/*pfc=*/false);
  Incast lossless(/*pfc=*/true);
  ASSERT_EQ(lossy.run.finishes.at.size(), 16u);  // go-back-N recovers every byte
  uint64_t timeouts = 0;
  for (const FlowState& f : lossy.run.net.flows()) timeouts += f.transport.timeouts;
  std::printf("incast without PFC: %lu drops, %lu bytes resent, %lu timeouts, last byte %.2f us (%.1fx)\n",
              lossy.run.Sum(&PortCounters::drop_packets), lossy.run.net.totals().retransmitted, timeouts,
              lossy.LastFinish().us_f(), lossy.LastFinish().us_f() / lossless.LastFinish().us_f());
  EXPECT_GT(lossy.run.Sum(&PortCounters::drop_packets), 0u);
  EXPECT_GT(lossy.run.net.totals().retransmitted, 0u);
  EXPECT_EQ(lossy.run.Sum(&PortCounters::pfc_frames_rx), 0u);
  // Conservation: every payload byte sent was delivered once, dropped, or
  // discarded by a receiver as out of order.
  const PayloadTotals t = lossy.run.net.totals();
  EXPECT_EQ(t.sent, t.delivered + t.dropped + t.discarded);
  EXPECT_EQ(t.delivered, 16ull << 20);
  // Losses cost time: the incast takes longer than the lossless one.
  EXPECT_GT(lossy.LastFinish().us_f(), 1.2 * lossless.LastFinish().us_f());
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

using transport_testing::Harness;
using transport_testing::Name;

// Congestion spreading (the classic PFC pathology): three 100G senders
// incast into R1 behind switch s2, while a victim on the same switch s1
// sends to R2, an idle port of s2. s1 -> s2 is 400G, so the victim's path
// has room; but when s2 pauses s1's port to it (for the incast), the
// victim's packets wait in the same paused queue.
struct PfcSpreading {
  explicit PfcSpreading(bool dcqcn) {
    for (int i = 0; i < 6; ++i) topology.AddHost(Name("h", i));
    const int spec = topology.AddSwitchSpec(transport_testing::Switch(2'000'000));
    const NodeId s1 = topology.AddSwitch("s1", 1, spec), s2 = topology.AddSwitch("s2", 1, spec);
    for (int i = 0; i < 4; ++i) topology.AddLink(i, s1, DataRate::Gbps(100), Time::FromNs(500));
    core = 2 * topology.AddLink(s1, s2, DataRate::Gbps(400), Time::FromNs(500));
    for (int i = 4; i < 6; ++i) topology.AddLink(s2, i, DataRate::Gbps(100), Time::FromNs(500));
    PacketConfig packet;
    packet.pfc.enabled = true;
    packet.ecn.enabled = dcqcn;
    TransportConfig transport;
    transport.cc = dcqcn ? CongestionControl::kDcqcn : CongestionControl::kNone;
    run = std::make_unique<Harness>(topology, packet, transport);
    for (int i = 0; i < 3; ++i) run->Start(i, i, 4, 8 << 20);  // incast into h4
    run->StartAt(Time::FromUs(200), 3, 3, 5, 2 << 20);         // victim h3 -> h5
    run->sim.Run();
  }
  Topology topology;
  PortId core = kNoPort;  // s1's port toward s2
  std::unique_ptr<Harness> run;
};

TEST(Lossless, PfcSpreadsCongestionToAVictimAndDcqcnContainsIt) {
  // Alone, the victim's 2 MiB take 512 packets x 4178 B at 100G = 171 us.
  // With PFC alone, s2 pauses s1 -> s2 for a large share of the run and the
  // victim crawls behind the incast's packets; with DCQCN the incast
  // senders slow down before s2's ingress reaches XOFF, pauses are rare,
  // and the victim runs near its own line rate. Measured (docs/models.md):
  // 587.5 us vs 173.9 us, 1434 us vs 64 us of pause on s1 -> s2.
  PfcSpreading pfc_only(/*dcqcn=*/false);
  PfcSpreading with_dcqcn(/*dcqcn=*/true);
  const double alone_us = 512 * 4178 * 8 / 100e3;
  const double victim_pfc = pfc_only.run->Fct(3).us_f();
  const double victim_dcqcn = with_dcqcn.run->Fct(3).us_f();
  EXPECT_GT(victim_pfc, 2 * alone_us);
  EXPECT_LT(victim_dcqcn, 1.2 * alone_us);
  EXPECT_GT(victim_pfc, 2 * victim_dcqcn);
  const PortCounters& paused_pfc = pfc_only.run->net.egress(pfc_only.core).counters();
  const PortCounters& paused_dcqcn = with_dcqcn.run->net.egress(with_dcqcn.core).counters();
  std::printf("victim FCT %.1f us with PFC alone (%.0f us paused), %.1f us with DCQCN (%.0f us paused)\n",
              victim_pfc, static_cast<double>(paused_pfc.pfc_pause_ps) / 1e6, victim_dcqcn,
              static_cast<double>(paused_dcqcn.pfc_pause_ps) / 1e6);
  EXPECT_GT(paused_pfc.pfc_pause_ps, 5 * paused_dcqcn.pfc_pause_ps);
  // Lossless in both.
  EXPECT_EQ(pfc_only.run->Sum(&PortCounters::drop_packets), 0u);
  EXPECT_EQ(with_dcqcn.run->Sum(&PortCounters::drop_packets), 0u);
}

}  // namespace
}  // namespace aifabric
