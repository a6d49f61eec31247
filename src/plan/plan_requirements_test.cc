#include "plan/plan_requirements.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace aifabric {
namespace {

using ::testing::HasSubstr;

Result<PlanRequirements> TryRead(const std::string& text) { return ReadPlanRequirements(text, "req.yaml", "."); }

std::string Err(const std::string& text) {
  Result<PlanRequirements> r = TryRead(text);
  return r.ok() ? "(read)" : r.error().message;
}

constexpr const char* kMinimal = R"(
cluster: {gpus: 64, gpu: H100}
workloads:
  - training: {model: llama3-8b, tp: 8, pp: 2, global_batch: 32}
)";

TEST(PlanRequirements, MinimalFillsDefaults) {
  Result<PlanRequirements> r = TryRead(kMinimal);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->name, "req");
  EXPECT_EQ(r->gpus, 64);
  EXPECT_EQ(r->gpus_per_server, 8);
  EXPECT_EQ(r->servers(), 8);
  ASSERT_EQ(r->workloads.size(), 1u);
  EXPECT_EQ(r->workloads[0].name, "llama3-8b");
  EXPECT_EQ(r->workloads[0].kind, "training");
  // Without dp the job fills the cluster: 64 / (8 x 2) = 4.
  EXPECT_THAT(r->workloads[0].entry_yaml, HasSubstr("dp: 4"));
  EXPECT_THAT(r->workloads[0].entry_yaml, HasSubstr("model: llama3-8b"));
  EXPECT_EQ(r->costs.years, 5);
  EXPECT_DOUBLE_EQ(r->costs.energy_usd_per_kwh, 0.0806);
  EXPECT_DOUBLE_EQ(r->costs.pue, 1.3);
  EXPECT_EQ(r->space.fabric_kinds.size(), 2u);
  EXPECT_EQ(r->space.ib_load_balancing, std::vector<LoadBalancing>{LoadBalancing::kAdaptive});
  EXPECT_EQ(r->space.roce_load_balancing, std::vector<LoadBalancing>{LoadBalancing::kEcmp});
}

// out/<name>-plan is the default output folder: a name may not climb out of out/.
TEST(PlanRequirements, ANameThatWouldLeaveTheOutputFolderIsRefused) {
  for (const std::string name : {"../../x", "a/b", ".."}) {
    Result<PlanRequirements> r = TryRead("name: " + name + "\ncluster: {gpus: 16, gpu: H100, gpus_per_server: 8}\n");
    ASSERT_FALSE(r.ok()) << name;
    EXPECT_NE(r.error().message.find("req.yaml:1"), std::string::npos) << r.error().message;
    EXPECT_NE(r.error().message.find("name"), std::string::npos) << r.error().message;
  }
}

TEST(PlanRequirements, DesignSpaceListsAndScalars) {
  Result<PlanRequirements> r = TryRead(std::string(kMinimal) + R"(
design_space:
  fabric_kind: roce
  link_gbps: [400, 800]
  topology: [fat_tree]
  oversubscription: [1, 2, 3]
  load_balancing: {roce: [ecmp, spray]}
constraints: {budget_usd: 5e6, ecosystem: roce, max_oversubscription: 2, min_slo_attainment: 0.9}
costs: {years: 3, energy_usd_per_kwh: 0.2, pue: 1.1, cable_m: {spine: 400}}
)");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->space.fabric_kinds, std::vector<FabricKind>{FabricKind::kRoce});
  EXPECT_EQ(r->space.link_gbps, (std::vector<int>{400, 800}));
  EXPECT_EQ(r->space.oversubscription, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(r->space.roce_load_balancing.size(), 2u);
  EXPECT_DOUBLE_EQ(*r->constraints.budget_usd, 5e6);
  EXPECT_EQ(*r->constraints.ecosystem, FabricKind::kRoce);
  EXPECT_DOUBLE_EQ(r->constraints.max_oversubscription, 2);
  EXPECT_DOUBLE_EQ(r->constraints.min_slo_attainment, 0.9);
  EXPECT_EQ(r->costs.years, 3);
  EXPECT_DOUBLE_EQ(r->costs.cable.spine_m, 400);
  EXPECT_DOUBLE_EQ(r->costs.cable.host_m, 3);
}

TEST(PlanRequirements, ErrorsNameTheField) {
  EXPECT_THAT(Err("workloads: []\n"), HasSubstr("req.yaml"));
  EXPECT_THAT(Err("cluster: {gpu: H100}\nworkloads: [{training: {model: llama3-8b, global_batch: 8}}]\n"),
              HasSubstr("cluster.gpus: required, missing"));
  EXPECT_THAT(Err("cluster: {gpus: 12}\nworkloads: [{training: {model: llama3-8b, global_batch: 8}}]\n"),
              HasSubstr("cluster.gpus: must be a multiple of gpus_per_server (8), got 12"));
  EXPECT_THAT(Err("cluster: {gpus: 8, gpu: X1}\nworkloads: []\n"), HasSubstr("cluster.gpu: unknown GPU 'X1'"));
  EXPECT_THAT(Err("cluster: {gpus: 8}\n"), HasSubstr("workloads: required, missing"));
  EXPECT_THAT(Err("cluster: {gpus: 8}\nworkloads: [{training: {model: llama3-8b, global_batch: 8}, inference: {}}]\n"),
              HasSubstr("workloads.0.training: expected exactly one of training or inference"));
  EXPECT_THAT(Err(std::string(kMinimal) + "design_space: {fabric_kind: [ib, ethernet]}\n"),
              HasSubstr("design_space.fabric_kind.1: expected one of ib, roce, got 'ethernet'"));
  EXPECT_THAT(Err(std::string(kMinimal) + "design_space: {oversubscription: [0.5]}\n"),
              HasSubstr("design_space.oversubscription.0: expected a number >= 1"));
  EXPECT_THAT(Err(std::string(kMinimal) + "constraints: {min_slo_attainment: 99}\n"),
              HasSubstr("constraints.min_slo_attainment: expected a share from 0 to 1"));
  EXPECT_THAT(Err(std::string(kMinimal) + "costs: {prices: nowhere.yaml}\n"),
              HasSubstr("costs.prices: no such file: ./nowhere.yaml"));
  EXPECT_THAT(Err(std::string(kMinimal) + "colour: blue\n"), HasSubstr("colour"));
  EXPECT_THAT(Err("cluster: {gpus: 8}\nworkloads: [{name: 'a,b', training: {model: llama3-8b, global_batch: 8}}]\n"),
              HasSubstr("workloads.0.name: 'a,b': use letters, digits"));
  // tp x pp must divide the cluster when dp is left to the planner.
  EXPECT_THAT(Err("cluster: {gpus: 24}\nworkloads: [{training: {model: llama3-8b, tp: 8, pp: 2, global_batch: 8}}]\n"),
              HasSubstr("workloads.0.training.dp: without dp the job fills the cluster"));
  // Errors carry the line: kMinimal opens with an empty line, so the appended
  // design_space is line 5.
  EXPECT_THAT(Err(std::string(kMinimal) + "design_space: {fabric_kind: [ib, ethernet]}\n"), HasSubstr("req.yaml:5:"));
}

}  // namespace
}  // namespace aifabric
