// QoS: a strict-priority class keeps its latency while a bulk class
// saturates the same link.
#include <gtest/gtest.h>

#include <cstdio>

#include "transport/transport_test_fabric.h"

namespace aifabric {
namespace {

using transport_testing::Harness;
using transport_testing::Star;

// Two bulk senders (priority 3, lossless) saturate host 0's 100G link with
// long flows and no congestion control, so its switch queue runs deep
// (until PFC pauses the senders). A third host sends ten 16 KiB messages to
// host 0, one every 100 us from t = 200 us, on `latency_priority`.
// Returns the messages' mean FCT over their idle-fabric FCT.
double MessageSlowdown(uint8_t latency_priority, bool strict) {
  const Topology t = Star(4, DataRate::Gbps(100), 16'000'000);
  PacketConfig packet;
  packet.pfc.enabled = true;
  packet.queues[5].strict = strict;
  TransportConfig transport;
  Harness run(t, packet, transport);
  run.Start(0, 1, 0, 64 << 20, 3);
  run.Start(1, 2, 0, 64 << 20, 3);
  for (int i = 0; i < 10; ++i) run.StartAt(Time::FromUs(200 + 100 * i), 2 + i, 3, 0, 16 << 10, latency_priority);
  run.sim.Run(Time::FromUs(1100));  // all messages started
  // Until the last message is in (the bulk flows go on).
  for (int64_t us = 1500; !run.net.flows()[11].done() && us < 20000; us += 500) run.sim.Run(Time::FromUs(us));
  double sum = 0;
  for (int i = 0; i < 10; ++i) {
    const FlowState& f = run.net.flows()[static_cast<size_t>(2 + i)];
    EXPECT_TRUE(f.done()) << i;
    sum += static_cast<double>((f.finish - f.start).ps()) / static_cast<double>(run.net.IdealFct(f.request).ps());
  }
  return sum / 10;
}

TEST(Qos, StrictPriorityKeepsLatencyUnderASaturatingBulkClass) {
  // In its own strict class the messages only wait for the bulk packet on
  // the wire at each hop (one 334 ns packet time against an ideal FCT of
  // about 3.6 us): slowdown under 1.3. Sharing the bulk class, they queue
  // behind the bulk backlog (megabytes at 100G: hundreds of microseconds).
  const double own_class = MessageSlowdown(5, /*strict=*/true);
  const double shared = MessageSlowdown(3, /*strict=*/false);
  std::printf("message slowdown: own strict class %.3f, shared with bulk %.3f\n", own_class, shared);
  EXPECT_LT(own_class, 1.3);
  EXPECT_GT(shared, 10 * own_class);
}

}  // namespace
}  // namespace aifabric
