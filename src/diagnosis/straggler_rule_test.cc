// The straggler rule on hand-made rank observations: the slow rank the
// others waited on is named by its NIC with its figures; a rank that came
// last at the same speed as its peers is not.
#include <gtest/gtest.h>

#include "diagnosis/diagnosis.h"
#include "fabric/fabric_test_util.h"

namespace aifabric {
namespace {

FabricObservation WithRanks(const Topology& t, std::vector<RankObservation> ranks) {
  FabricObservation o;
  for (const Port& p : t.ports()) {
    PortObservation port;
    port.port = p.id;
    o.ports.push_back(port);
  }
  o.ranks = std::move(ranks);
  return o;
}

TEST(StragglerRule, TheSlowRankTheOthersWaitedOnIsNamed) {
  const Topology t = fabric_testing::TwoHostsOnASwitch();
  // GPU 1 (on h1) computed 200 us where its peers computed 100 us (speed
  // 0.5), came last at 2 points and held them 100 us in a 400 us job:
  // severity 0.5 + 0.5 x 100/400 = 0.625.
  const Time us = Time::FromUs(1);
  const FabricObservation o =
      WithRanks(t, {{0, 0, us * 100, Time::Zero(), Time::Zero(), Time::Zero(), 0, us * 400, "job"},
                    {1, 1, us * 200, us * 100, us * 100, us * 700, 2, us * 400, "job"}});
  const std::vector<Finding> f = Diagnose(t, o);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, "straggler");
  EXPECT_EQ(t.node(f[0].node).name, "h1");
  EXPECT_EQ(f[0].port_peer, kNoNode);
  EXPECT_DOUBLE_EQ(f[0].severity, 0.625);
  EXPECT_EQ(f[0].evidence["gpu"].get<int>(), 1);
  EXPECT_EQ(f[0].evidence["compute_speed"].get<double>(), 0.5);
  EXPECT_EQ(f[0].evidence["step_cost_ns"].get<double>(), 100000.0);
  EXPECT_EQ(f[0].evidence["others_waited_ns"].get<double>(), 700000.0);
  EXPECT_EQ(f[0].evidence["sync_points"].get<uint32_t>(), 2u);
  EXPECT_EQ(f[0].owners, std::vector<std::string>{"job"});
  // diagnosis.json shows no port peer.
  EXPECT_TRUE(FindingsJson(t, f)["findings"][0]["port_peer"].is_null());
  Result<std::string> table = FormatFindings(FindingsJson(t, f));
  ASSERT_TRUE(table.ok()) << table.error().message;
  EXPECT_NE(table->find("straggler"), std::string::npos);
}

TEST(StragglerRule, ARankLastAtItsPeersSpeedIsNoStraggler) {
  const Topology t = fabric_testing::TwoHostsOnASwitch();
  // GPU 1 came last (its transfer was late, say) but computed 105 us
  // against its peers' 100 us: speed 0.95 > 0.9.
  const Time us = Time::FromUs(1);
  const FabricObservation o =
      WithRanks(t, {{1, 1, us * 105, us * 100, us * 5, us * 5, 1, us * 400, "job"}});
  EXPECT_TRUE(Diagnose(t, o).empty());
}

}  // namespace
}  // namespace aifabric
