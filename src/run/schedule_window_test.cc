#include "run/schedule_window.h"

#include <gtest/gtest.h>

#include <variant>

namespace aifabric {
namespace {

TEST(PacketWindowTest, ParsesStartAndDuration) {
  Result<PacketWindow> w = ParsePacketWindow("3600s,2ms");
  ASSERT_TRUE(w.ok()) << w.error().message;
  EXPECT_EQ(w->start, Time::FromSeconds(3600));
  EXPECT_EQ(w->duration, Time::FromMs(2));
  EXPECT_TRUE(ParsePacketWindow("0s,100ms").ok());
}

TEST(PacketWindowTest, ErrorsNameTheFlagAndThePart) {
  EXPECT_EQ(ParsePacketWindow("5s").error().message,
            "--packet-window: expected START,DURATION (e.g. 36000s,2ms), got '5s'");
  EXPECT_EQ(ParsePacketWindow("x,1ms").error().message.rfind("--packet-window: start: ", 0), 0u);
  EXPECT_EQ(ParsePacketWindow("1s,y").error().message.rfind("--packet-window: duration: ", 0), 0u);
  EXPECT_EQ(ParsePacketWindow("1s,101ms").error().message.rfind("--packet-window: duration: expected more than 0", 0),
            0u);
  EXPECT_FALSE(ParsePacketWindow("1s,0s").ok());
}

// The window's scenario: the cluster at packet level for the window's
// length, the flows as a list (bytes rounded, at least 1; starts kept),
// jobs dropped.
TEST(PacketWindowTest, ScenarioRunsTheFlowsAtPacketLevelForTheWindow) {
  Scenario cluster;
  cluster.name = "c";
  cluster.model = ModelKind::kFlow;
  cluster.trainings.resize(1);
  ReplayResult replay;
  replay.window_flows = {{"a", "gradient", 0, 5, 1e9 + 0.4, 0},
                         {"b", "checkpoint", 2, 7, 0.2, 0.0005}};
  const PacketWindow window{Time::FromSeconds(10), Time::FromMs(1)};
  Result<Scenario> s = PacketWindowScenario(cluster, replay, window);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->name, "c-packet-window");
  EXPECT_EQ(s->model, ModelKind::kPacket);
  EXPECT_EQ(s->until, Time::FromMs(1));
  EXPECT_TRUE(s->trainings.empty());
  ASSERT_EQ(s->workload.size(), 1u);
  const auto& list = std::get<FlowListSpec>(s->workload[0]);
  ASSERT_EQ(list.flows.size(), 2u);
  EXPECT_EQ(list.flows[0].src, 0);
  EXPECT_EQ(list.flows[0].dst, 5);
  EXPECT_EQ(list.flows[0].bytes, 1'000'000'000u);
  EXPECT_EQ(list.flows[0].start, Time::Zero());
  EXPECT_EQ(list.flows[1].bytes, 1u);
  EXPECT_EQ(list.flows[1].start, Time::FromUs(500));
}

}  // namespace
}  // namespace aifabric
