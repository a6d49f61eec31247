#include "plan/plan_ranking.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aifabric {
namespace {

using ::testing::HasSubstr;

// A built design with a network cost, an effective utilization and a
// cluster cost of ownership of network + $1M of GPUs; useful GPU-hours per
// dollar = 100 GPUs x 8,766 h x util / cluster cost (1 year).
DesignOutcome Outcome(const std::string& name, double network_usd, double util) {
  DesignOutcome o;
  o.design.name = name;
  o.cost.network_capex_usd = network_usd;
  o.cost.network_tco_usd = network_usd;
  o.cost.gpu_capex_usd = 1e6;
  o.effective_gpu_utilization = util;
  o.useful_gpu_hours = 100 * kHoursPerYear * util;
  o.useful_gpu_hours_per_usd = o.useful_gpu_hours / o.cost.cluster_tco_usd();
  return o;
}

PlanRequirements OneYear() {
  PlanRequirements r;
  r.costs.years = 1;
  return r;
}

// Per dollar: a = 0.50 x 876,600 / 1.2M = 0.36525; b = 0.55 x 876,600 /
// 1.5M = 0.32142; c = 0.40 x 876,600 / 1.1M = 0.31876; d is dominated by a
// (dearer and slower). Order a, b, c, d; Pareto front a, b, c.
TEST(PlanRanking, OrderParetoAndWords) {
  std::vector<DesignOutcome> outcomes = {Outcome("c", 100e3, 0.40), Outcome("b", 500e3, 0.55),
                                         Outcome("a", 200e3, 0.50), Outcome("d", 300e3, 0.45)};
  const RankedPlan plan = RankDesigns(OneYear(), outcomes, {{"x-*", "no switch"}});
  ASSERT_EQ(plan.designs.size(), 4u);
  EXPECT_EQ(plan.designs[0].outcome.design.name, "a");
  EXPECT_EQ(plan.designs[1].outcome.design.name, "b");
  EXPECT_EQ(plan.designs[2].outcome.design.name, "c");
  EXPECT_EQ(plan.designs[3].outcome.design.name, "d");
  EXPECT_TRUE(plan.designs[0].pareto);
  EXPECT_TRUE(plan.designs[1].pareto);
  EXPECT_TRUE(plan.designs[2].pareto);
  EXPECT_FALSE(plan.designs[3].pareto);
  EXPECT_EQ(plan.rejected.size(), 1u);
  EXPECT_THAT(plan.recommendation, HasSubstr("Buy a: 0.365"));
  EXPECT_THAT(plan.recommendation, HasSubstr("the most of the 4 designs"));
  // b against a: 0.32142 / 0.36525 - 1 = -12.0%.
  EXPECT_THAT(plan.recommendation, HasSubstr("The runner-up, b, gives 12.0% fewer"));
  EXPECT_THAT(plan.recommendation, HasSubstr("The cheapest network, c, costs $100k less"));
  EXPECT_THAT(plan.recommendation, HasSubstr("The fastest, b (effective GPU utilization 55.0%), costs $300k more"));
}

TEST(PlanRanking, ConstraintsComeFirst) {
  PlanRequirements r = OneYear();
  r.constraints.budget_usd = 250e3;
  const RankedPlan plan = RankDesigns(r, {Outcome("a", 200e3, 0.50), Outcome("b", 500e3, 0.55)}, {});
  EXPECT_TRUE(plan.designs[0].within_constraints);
  EXPECT_FALSE(plan.designs[1].within_constraints);
  EXPECT_THAT(plan.designs[1].constraint_missed, HasSubstr("budget: the network costs $500k"));
  r.constraints.budget_usd = 1e3;
  const RankedPlan none = RankDesigns(r, {Outcome("a", 200e3, 0.50)}, {});
  EXPECT_THAT(none.recommendation, HasSubstr("No design meets the constraints"));
}

// An inference service below constraints.min_slo_attainment (default 0.99)
// puts its design outside the constraints, whatever its utilization.
TEST(PlanRanking, InferenceServicesAreHeldToTheirSlos) {
  DesignOutcome slow = Outcome("slow", 100e3, 0.60);
  WorkloadOutcome chat;
  chat.name = "chat";
  chat.kind = "inference";
  chat.slo_attainment = 0.985;
  slow.workloads.push_back(chat);
  DesignOutcome fast = Outcome("fast", 200e3, 0.50);
  chat.slo_attainment = 0.995;
  fast.workloads.push_back(chat);
  PlanRequirements r = OneYear();
  const RankedPlan plan = RankDesigns(r, {slow, fast}, {});
  ASSERT_EQ(plan.designs.size(), 2u);
  EXPECT_EQ(plan.designs[0].outcome.design.name, "fast");
  EXPECT_TRUE(plan.designs[0].within_constraints);
  EXPECT_FALSE(plan.designs[1].within_constraints);
  EXPECT_EQ(plan.designs[1].constraint_missed,
            "SLO: chat meets its TTFT and TPOT SLOs for 98.50% of its requests, below "
            "constraints.min_slo_attainment 99.00%");
  EXPECT_THAT(plan.recommendation, HasSubstr("Buy fast"));
  r.constraints.min_slo_attainment = 0.98;  // both meet it: utilization decides
  EXPECT_EQ(RankDesigns(r, {slow, fast}, {}).designs[0].outcome.design.name, "slow");
}

TEST(PlanRanking, RejectedOutcomesAreListed) {
  DesignOutcome bad = Outcome("z", 1, 1);
  bad.rejected = "a 128-port core can connect only 128";
  const RankedPlan plan = RankDesigns(OneYear(), {bad, Outcome("a", 1e5, 0.5)}, {});
  ASSERT_EQ(plan.designs.size(), 1u);
  ASSERT_EQ(plan.rejected.size(), 1u);
  EXPECT_EQ(plan.rejected[0].name, "z");
}

TEST(PlanRanking, Usd) {
  EXPECT_EQ(FormatUsd(1234567), "$1.23M");
  EXPECT_EQ(FormatUsd(45600), "$46k");
  EXPECT_EQ(FormatUsd(789), "$789");
}

}  // namespace
}  // namespace aifabric
