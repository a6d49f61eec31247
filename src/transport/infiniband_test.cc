// InfiniBand's credit-based link-level flow control under incast: lossless
// without PFC, and the receiver's link never idles.
#include <gtest/gtest.h>

#include <cstdio>

#include "transport/transport_test_fabric.h"

namespace aifabric {
namespace {

using transport_testing::Harness;
using transport_testing::Star;

PacketConfig Ib() {
  PacketConfig c;
  c.kind = FabricKind::kIb;
  c.wire_overhead_bytes = kIbWireOverheadBytes;
  return c;
}

TransportConfig IbRc() {
  TransportConfig t;
  t.fabric = FabricKind::kIb;
  return t;
}

TEST(InfiniBand, IncastWithCreditsIsLosslessAtLineRate) {
  // 16 senders x 1 MiB into host 0 at 400G through one switch whose shared
  // buffer (1 MB) could not hold the incast: credits, not the buffer, stop
  // the senders, so nothing is dropped and no PFC frame exists.
  const Topology t = Star(17, DataRate::Gbps(400), 1'000'000);
  Harness run(t, Ib(), IbRc());
  for (int i = 1; i <= 16; ++i) run.Start(i - 1, i, 0, 1 << 20);
  run.sim.Run();
  ASSERT_EQ(run.finishes.at.size(), 16u);
  EXPECT_EQ(run.Sum(&PortCounters::drop_packets), 0u);
  EXPECT_EQ(run.Sum(&PortCounters::pfc_frames_rx), 0u);
  EXPECT_EQ(run.net.totals().retransmitted, 0u);
  // Receiver at line rate from the first packet on: 16 x 256 packets of
  // 4096 + 26 B at 400G = 337.67 us, after the first packet reached the
  // switch egress (82.44 ns + 500 ns + 400 ns) and before the last cable
  // (500 ns): 339.15 us.
  Time last;
  for (const auto& [id, at] : run.finishes.at) last = Max(last, at);
  const double expected_us = 16 * 256 * 4122 * 8 / 400e3 + 0.08244 + 0.9 + 0.5;
  std::printf("IB incast: last byte %.2f us (closed form %.2f us)\n", last.us_f(), expected_us);
  EXPECT_NEAR(last.us_f(), expected_us, expected_us * 0.005);
  // The switch never held more than the credits it advertised: per input
  // port and VL one credit loop plus two frames (here ~72 KB), and only
  // the 16 sender ports carry data.
  const NodeId sw = 17;
  const uint64_t per_port = run.net.VlBufferBytes(t.port(t.node(1).ports[0]));
  EXPECT_LE(run.net.buffer_peak_bytes(sw), 16 * per_port);
  EXPECT_GT(run.net.buffer_peak_bytes(sw), 8 * per_port);  // and it did fill them
}

TEST(InfiniBand, VlBuffersAreTheSwitchShareOrAtLeastOneCreditLoop) {
  // 400G, 500 ns cables, 4122 B frames.
  // Into a switch (400 ns latency): loop = 2 x 500 + 400 + 82.44 ns =
  // 1482.44 ns -> 74,122 B at 400G, + 2 x 4122 = 82,366 B. The switch's
  // share per input port and VL is buffer / (ports x 2 VLs):
  //   2 ports, 1 MB: 250,000 B (larger; 3907 blocks = 250,048 B);
  //   8 ports, 1 MB: 62,500 B (smaller than the loop: 1287 blocks = 82,368 B).
  // Into a host (no latency, no buffer share): 1082.44 ns -> 54,122 B +
  // 8,244 = 62,366 B -> 975 blocks = 62,400 B.
  const Topology two = Star(2, DataRate::Gbps(400), 1'000'000);
  Harness run(two, Ib(), IbRc());
  const Node& h0 = two.node(0);
  EXPECT_EQ(run.net.VlBufferBytes(two.port(h0.ports[0])), 250'048u);
  EXPECT_EQ(run.net.VlBufferBytes(two.port(two.port(h0.ports[0]).reverse())), 62'400u);
  const Topology eight = Star(8, DataRate::Gbps(400), 1'000'000);
  Harness run8(eight, Ib(), IbRc());
  EXPECT_EQ(run8.net.VlBufferBytes(eight.port(eight.node(0).ports[0])), 82'368u);
}

}  // namespace
}  // namespace aifabric
