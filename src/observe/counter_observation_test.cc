#include "observe/counter_observation.h"

#include <gtest/gtest.h>

#include "diagnosis/diagnosis.h"
#include "observe/observe_test_fabric.h"

namespace aifabric {
namespace {

using observe_testing::HostUp;
using observe_testing::SwitchDown;

std::vector<PortWindow> Idle(const Topology& t) { return std::vector<PortWindow>(t.ports().size()); }

TEST(CounterObservation, UtilizationIsBytesOverLineRateTimesSpan) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  std::vector<PortWindow> w = Idle(t);
  // sw -> h0: 2.5e9 B in 0.25 s at 100 Gbps: 2.5e9 x 8 / (1e11 x 0.25) = 0.8.
  w[SwitchDown(0)] = PortWindow{.seen = true, .tx_bytes = 2.5e9, .seconds = 0.25, .peak_bps = 9.5e10};
  // h1 -> sw: 5e8 B in 0.2 s: 4e9 / 2e10 = 0.2; its peak over an interval
  // exceeds the line rate (a packet counted early), so it is held at 1.
  w[HostUp(1)] = PortWindow{.seen = true, .tx_bytes = 5e8, .seconds = 0.2, .peak_bps = 2e11, .drop_packets = 7};
  const FabricObservation o = ObservationFromWindows(t, w);
  EXPECT_EQ(o.active_time, Time::FromMs(250));  // the longest span
  ASSERT_EQ(o.ports.size(), t.ports().size());
  EXPECT_DOUBLE_EQ(o.ports[SwitchDown(0)].utilization, 0.8);
  EXPECT_DOUBLE_EQ(o.ports[SwitchDown(0)].peak_utilization, 0.95);
  EXPECT_EQ(o.ports[SwitchDown(0)].tx_bytes, 2500000000u);
  EXPECT_DOUBLE_EQ(o.ports[HostUp(1)].utilization, 0.2);
  EXPECT_DOUBLE_EQ(o.ports[HostUp(1)].peak_utilization, 1.0);
  EXPECT_EQ(o.ports[HostUp(1)].drop_packets, 7u);
  EXPECT_EQ(o.ports[HostUp(0)].utilization, 0);
  EXPECT_TRUE(o.transfers.empty());  // counters know no transfers
  EXPECT_TRUE(o.pause_causes.empty());
}

// sw paused h1 and h2 (it sent them PFC frames) while its egress to h0
// held the deepest queue: both pauses are put down to sw -> h0.
TEST(CounterObservation, PausesAreInferredToComeFromTheSendersDeepestQueue) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  std::vector<PortWindow> w = Idle(t);
  w[SwitchDown(0)] = PortWindow{.seen = true, .tx_bytes = 3.125e9, .seconds = 0.25, .max_queue_bytes = 300000};
  w[SwitchDown(1)] = PortWindow{.seen = true, .tx_bytes = 1e6, .seconds = 0.25, .pfc_frames_tx = 40,
                                .max_queue_bytes = 1000};
  w[SwitchDown(2)] = PortWindow{.seen = true, .tx_bytes = 1e6, .seconds = 0.25, .pfc_frames_tx = 10};
  w[HostUp(1)] = PortWindow{.seen = true, .tx_bytes = 1.5e9, .seconds = 0.25, .pause_seconds = 0.1};
  w[HostUp(2)] = PortWindow{.seen = true, .tx_bytes = 1.5e9, .seconds = 0.25, .pause_seconds = 0.05};
  const FabricObservation o = ObservationFromWindows(t, w);
  ASSERT_EQ(o.pause_causes.size(), 2u);
  EXPECT_EQ(o.pause_causes[0].paused, HostUp(1));
  EXPECT_EQ(o.pause_causes[0].cause, SwitchDown(0));
  EXPECT_EQ(o.pause_causes[0].frames, 40u);
  EXPECT_EQ(o.pause_causes[1].paused, HostUp(2));
  EXPECT_EQ(o.pause_causes[1].cause, SwitchDown(0));
  EXPECT_EQ(o.pause_causes[1].frames, 10u);
  EXPECT_EQ(o.ports[HostUp(1)].pause_time, Time::FromMs(100));

  // The diagnosis reads it as a run's: the pause tree's root is sw -> h0,
  // severity 0.5 + 0.5 x min(1, phi(root) + phi(h1) + phi(h2))
  // = 0.5 + 0.5 x (0 + 0.1/0.25 + 0.05/0.25) = 0.8.
  const std::vector<Finding> findings = Diagnose(t, o);
  ASSERT_FALSE(findings.empty());
  EXPECT_EQ(findings[0].kind, kPfcPauseRoot);
  EXPECT_EQ(findings[0].port, SwitchDown(0));
  EXPECT_NEAR(findings[0].severity, 0.8, 1e-9);
}

TEST(CounterObservation, WithoutQueueFiguresTheBusiestEgressIsTheCause) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  std::vector<PortWindow> w = Idle(t);
  w[SwitchDown(0)] = PortWindow{.seen = true, .tx_bytes = 1e9, .seconds = 0.1};
  w[SwitchDown(2)] = PortWindow{.seen = true, .tx_bytes = 1.2e9, .seconds = 0.1};
  w[SwitchDown(1)] = PortWindow{.seen = true, .seconds = 0.1, .pfc_frames_tx = 3};
  const FabricObservation o = ObservationFromWindows(t, w);
  ASSERT_EQ(o.pause_causes.size(), 1u);
  EXPECT_EQ(o.pause_causes[0].paused, HostUp(1));
  EXPECT_EQ(o.pause_causes[0].cause, SwitchDown(2));
  // A node that paused its peer with no busy egress left: no cause.
  std::vector<PortWindow> alone = Idle(t);
  alone[SwitchDown(1)] = PortWindow{.seen = true, .seconds = 0.1, .pfc_frames_tx = 3};
  EXPECT_TRUE(ObservationFromWindows(t, alone).pause_causes.empty());
}

}  // namespace
}  // namespace aifabric
