// A plan's cost bound before it starts, and the cancel a plan or schedule
// run hears (the server's DELETE).
#include "server/serve_limits.h"

#include <atomic>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "plan/plan_run.h"
#include "run/fabric_setup.h"
#include "run/schedule_run.h"
#include "sched/cluster_replay.h"
#include "sched/job_trace.h"
#include "workload/model_catalog.h"
#include "scenario/scenario_loader.h"
#include "test_paths.h"

namespace aifabric {
namespace {

TEST(ServeLimits, PlanWorkIsDesignsTimesHostsByHand) {
  PlanRequirements r;
  r.gpus = 32;
  r.nics_per_gpu = 0.5;  // 16 hosts
  ServeLimits limits;
  limits.max_plan_work = 160;
  EXPECT_TRUE(CheckPlanLimits(r, 10, limits).ok());  // 10 x 16 = 160
  const Status over = CheckPlanLimits(r, 11, limits);  // 176
  ASSERT_FALSE(over.ok());
  EXPECT_NE(over.error().message.find("11 designs x 16 hosts = 176"), std::string::npos) << over.error().message;
  EXPECT_NE(over.error().message.find("--max-plan-work 160"), std::string::npos) << over.error().message;
  limits.max_plan_work = 0;  // no limit
  EXPECT_TRUE(CheckPlanLimits(r, 1'000'000, limits).ok());
  limits.max_hosts = 15;
  const Status hosts = CheckPlanLimits(r, 1, limits);
  ASSERT_FALSE(hosts.ok());
  EXPECT_NE(hosts.error().message.find("16 hosts, more than the server's --max-hosts 15"), std::string::npos);
}

TEST(ServeLimits, ACancelledPlanEvaluatesNoDesign) {
  Result<PlanRequirements> r =
      ReadPlanRequirementsFile(std::string(AIFABRIC_SOURCE_DIR) + "/examples/plan/cluster_32gpu.yaml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  Result<Catalog> catalog = PlanCatalog(*r);
  ASSERT_TRUE(catalog.ok());
  const std::atomic<bool> cancel{true};
  size_t evaluated = 0;
  PlanRunOptions options;
  options.cancel = &cancel;
  options.progress = [&evaluated](size_t, size_t, const DesignOutcome&) { ++evaluated; };
  Result<RankedPlan> plan = RunPlan(*r, *catalog, options);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error().message, "cancelled");
  EXPECT_EQ(evaluated, 0u);
}

TEST(ServeLimits, ACancelledScheduleStopsBeforeItsReplay) {
  const std::string dir = std::string(AIFABRIC_SOURCE_DIR) + "/examples/scheduling/";
  Result<Scenario> scenario = LoadScenarioFile(dir + "cluster.yaml", {});
  ASSERT_TRUE(scenario.ok()) << scenario.error().message;
  const std::vector<PolicySpec> specs{PolicySpec{}};
  std::atomic<bool> cancel{true};
  Result<ScheduleRun> run = RunSchedule(*scenario, dir + "trace.csv", specs, nullptr, &cancel);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().message, "cancelled");
  // Not cancelled: the same call runs to the end.
  cancel = false;
  EXPECT_TRUE(RunSchedule(*scenario, dir + "trace.csv", specs, nullptr, &cancel).ok());
}

TEST(ServeLimits, ACancelledReplayStopsAtItsFirstEvent) {
  const std::string dir = std::string(AIFABRIC_SOURCE_DIR) + "/examples/scheduling/";
  Result<Scenario> scenario = LoadScenarioFile(dir + "cluster.yaml", {});
  ASSERT_TRUE(scenario.ok()) << scenario.error().message;
  Result<BuiltFabric> fabric = BuildFabric(*scenario);
  ASSERT_TRUE(fabric.ok());
  std::vector<std::string> models;
  for (const ModelSpec& m : BuiltInModels()) models.push_back(m.name);
  Result<std::vector<TraceJob>> jobs = ReadJobTrace(dir + "trace.csv", models);
  ASSERT_TRUE(jobs.ok());
  Result<ReplayOptions> options = ReplayOptionsFor(*scenario, fabric->layout.servers(), PolicySpec{});
  ASSERT_TRUE(options.ok());
  const std::atomic<bool> cancel{true};
  options->cancel = &cancel;
  Result<ReplayResult> result = ReplayJobTrace(fabric->topology, fabric->routes, fabric->layout, *jobs, *options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message, "cancelled");
}

}  // namespace
}  // namespace aifabric
