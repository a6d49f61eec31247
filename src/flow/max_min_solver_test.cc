// Max-min fairness worked by hand: one bottleneck, a parking lot, two
// bottlenecks of different capacity, weights.
#include "flow/max_min_solver.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

TEST(MaxMinSolver, FlowsOnOneBottleneckShareItEqually) {
  MaxMinSolver s;
  const int link = s.AddResource(100.0);
  std::vector<int> flows;
  for (int i = 0; i < 4; ++i) flows.push_back(s.AddFlow(std::vector<int>{link}));
  s.Solve();
  for (int f : flows) EXPECT_DOUBLE_EQ(s.rate(f), 25.0);
  EXPECT_DOUBLE_EQ(s.load(link), 100.0);
  // One leaves: the other three take its share.
  s.RemoveFlow(flows[0]);
  s.Solve();
  EXPECT_NEAR(s.rate(flows[1]), 100.0 / 3, 1e-9);
}

TEST(MaxMinSolver, ParkingLotGivesTheLongFlowTheSameShareAsEachShortOne) {
  // Three unit links in a row; a long flow crosses all three and one short
  // flow crosses each. Every link carries two flows, so all get 1/2 (the
  // max-min answer; proportional fairness would give the long flow 1/4).
  MaxMinSolver s;
  const int a = s.AddResource(1), b = s.AddResource(1), c = s.AddResource(1);
  const int long_flow = s.AddFlow(std::vector<int>{a, b, c});
  const int sa = s.AddFlow(std::vector<int>{a}), sb = s.AddFlow(std::vector<int>{b}), sc = s.AddFlow(std::vector<int>{c});
  s.Solve();
  for (int f : {long_flow, sa, sb, sc}) EXPECT_DOUBLE_EQ(s.rate(f), 0.5);
}

TEST(MaxMinSolver, TheTightestLinkFreezesItsFlowsFirstAndTheRestTakeWhatIsLeft) {
  // A (10) carries f1 and f2; B (4) carries f2 and f3. B fills first at
  // level 2: f2 = f3 = 2. Then A has 10 - 2 = 8 for f1 alone.
  MaxMinSolver s;
  const int a = s.AddResource(10), b = s.AddResource(4);
  const int f1 = s.AddFlow(std::vector<int>{a}), f2 = s.AddFlow(std::vector<int>{a, b}),
            f3 = s.AddFlow(std::vector<int>{b});
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(f2), 2);
  EXPECT_DOUBLE_EQ(s.rate(f3), 2);
  EXPECT_DOUBLE_EQ(s.rate(f1), 8);
}

TEST(MaxMinSolver, WeightsShareInProportion) {
  // Weights 1 and 3 on a link of 4: rates 1 and 3. With a third flow of
  // weight 1 capped by a private link of 0.5, the others split 3.5 as 1:3.
  MaxMinSolver s;
  const int link = s.AddResource(4);
  const int light = s.AddFlow(std::vector<int>{link}, 1), heavy = s.AddFlow(std::vector<int>{link}, 3);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(light), 1);
  EXPECT_DOUBLE_EQ(s.rate(heavy), 3);
  const int cap = s.AddResource(0.5);
  const int capped = s.AddFlow(std::vector<int>{link, cap}, 1);
  s.Solve();
  EXPECT_DOUBLE_EQ(s.rate(capped), 0.5);
  EXPECT_DOUBLE_EQ(s.rate(light), 3.5 / 4);
  EXPECT_DOUBLE_EQ(s.rate(heavy), 3.5 * 3 / 4);
}

TEST(MaxMinSolver, RemovedIdsAreReused) {
  MaxMinSolver s;
  const int link = s.AddResource(1);
  const int f = s.AddFlow(std::vector<int>{link});
  s.RemoveFlow(f);
  EXPECT_EQ(s.active_flows(), 0u);
  EXPECT_EQ(s.AddFlow(std::vector<int>{link}), f);
}

}  // namespace
}  // namespace aifabric
