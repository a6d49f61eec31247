#include "observe/observed_snapshot.h"

#include <gtest/gtest.h>

#include "observe/counter_observation.h"
#include "observe/observe_test_fabric.h"

namespace aifabric {
namespace {

using observe_testing::HostUp;
using observe_testing::SwitchDown;

// Three ports named by series, by hand (100 Gbps links, a 0.02 s clock span):
//   sw -> h0: 2.375e8 B -> 2.375e8 x 8 / (1e11 x 0.02) = 0.95; queue peak
//             64000 B -> 64000 x 8 / 1e11 s = 5.12 us; 7 drops, 30 marks;
//   h1 -> sw: 1e8 B -> 0.4; paused 5 ms of the window -> 5e6 ns;
//   h2 -> sw: seen, nothing sent -> 0.
// Ports no series named (the other three) are not in the snapshot.
FabricReading Reading(const Topology& t) {
  std::vector<PortWindow> w(t.ports().size());
  w[SwitchDown(0)] = PortWindow{true, 2.375e8, 0.02, 0.95e11, 7, 30, 0, 0, 64000};
  w[HostUp(1)] = PortWindow{true, 1e8, 0.02, 0.4e11, 0, 0, 0.005, 0, 0};
  w[HostUp(2)] = PortWindow{true, 0, 0.02, 0, 0, 0, 0, 0, 0};
  FabricReading r;
  r.windows = w;
  r.observation = ObservationFromWindows(t, w);
  return r;
}

TEST(ObservedSnapshot, HasTheLiveSnapshotsFieldsOverTheWindow) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  const nlohmann::ordered_json s =
      ObservedSnapshotJson(t, Reading(t), 3, Time::FromSeconds(30), Time::FromMs(2500));
  EXPECT_EQ(s["sim_time_ns"], 2500000000);
  EXPECT_EQ(s["transfers_completed"], 0);
  EXPECT_EQ(s["pass"], 3);
  EXPECT_DOUBLE_EQ(s["window_s"].get<double>(), 30.0);
  EXPECT_EQ(s["ports_total"], 3);
  EXPECT_NEAR(s["max_util"].get<double>(), 0.95, 1e-12);
  ASSERT_EQ(s["ports"].size(), 3u);
  // Busiest first.
  const auto& top = s["ports"][0];
  EXPECT_EQ(top["node"], "sw");
  EXPECT_EQ(top["port"], "h0");
  EXPECT_NEAR(top["util"].get<double>(), 0.95, 1e-12);
  EXPECT_DOUBLE_EQ(top["queue_bytes"].get<double>(), 64000.0);
  EXPECT_NEAR(top["queue_delay_ns"].get<double>(), 5120.0, 1e-9);
  EXPECT_DOUBLE_EQ(top["drops"].get<double>(), 7.0);
  EXPECT_DOUBLE_EQ(top["ecn_marks"].get<double>(), 30.0);
  EXPECT_DOUBLE_EQ(top["pfc_pause_ns"].get<double>(), 0.0);
  const auto& second = s["ports"][1];
  EXPECT_EQ(second["node"], "h1");
  EXPECT_EQ(second["port"], "sw");
  EXPECT_NEAR(second["util"].get<double>(), 0.4, 1e-12);
  EXPECT_DOUBLE_EQ(second["pfc_pause_ns"].get<double>(), 5e6);
  EXPECT_EQ(s["ports"][2]["node"], "h2");
  EXPECT_DOUBLE_EQ(s["ports"][2]["util"].get<double>(), 0.0);
}

TEST(ObservedSnapshot, KeepsTheBusiestPortsUpToTheCap) {
  const Topology t = observe_testing::ThreeHostsOneSwitch();
  const nlohmann::ordered_json s = ObservedSnapshotJson(t, Reading(t), 1, Time::FromSeconds(30), Time::Zero(), 1);
  EXPECT_EQ(s["ports_total"], 3);  // all counted
  ASSERT_EQ(s["ports"].size(), 1u);
  EXPECT_EQ(s["ports"][0]["port"], "h0");
}

}  // namespace
}  // namespace aifabric
