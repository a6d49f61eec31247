// RoCEv2 incast with and without PFC, and PFC's congestion spreading with
// and without DCQCN: the behaviours a lossless-fabric architect relies on.
#include <gtest/gtest.h>

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
