#include "plan/packet_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <vector>

#include "plan/plan_test_util.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

using ::testing::HasSubstr;

using plan_testing::ReadRequirements;

// The outcome of a design whose training workloads ran with these splits.
DesignOutcome Ran(const PlanRequirements& r, std::vector<std::array<int, 3>> splits) {
  DesignOutcome o;
  o.design.name = "roce-400g-rail_optimized-1to1-64x400G";
  o.design.kind = FabricKind::kRoce;
  o.design.topology = TopologyType::kRailOptimized;
  o.design.switch_name = "64x400G";
  o.design.nic_name = "CX7-400G";
  for (size_t i = 0; i < r.workloads.size(); ++i) {
    WorkloadOutcome w;
    w.name = r.workloads[i].name;
    w.kind = "training";
    w.tp = splits[i][0];
    w.pp = splits[i][1];
    w.ep = splits[i][2];
    o.workloads.push_back(w);
  }
  return o;
}

// Two replicas of each split, on whole 8-GPU servers, by hand.
TEST(PacketCheck, ServersHoldTwoReplicasOfEverySplit) {
  const PlanRequirements one = ReadRequirements(R"(
cluster: {gpus: 1024, gpu: H100}
workloads:
  - training: {model: llama3-70b, tp: 8, pp: 4, global_batch: 512}
)");
  // 2 x 8 x 4 = 64 GPUs = 8 servers.
  EXPECT_EQ(*PacketCheckServers(one, Ran(one, {{8, 4, 1}})), 8);
  const PlanRequirements two = ReadRequirements(R"(
cluster: {gpus: 1024, gpu: H100}
workloads:
  - training: {model: llama3-70b, tp: 8, pp: 4, global_batch: 512}
  - training: {model: gpt3-175b, tp: 8, pp: 8, global_batch: 256}
)");
  // 2 x 8 x 8 = 128 GPUs = 16 servers, which hold 4 replicas of the first.
  EXPECT_EQ(*PacketCheckServers(two, Ran(two, {{8, 4, 1}, {8, 8, 1}})), 16);
  // Expert parallelism 8 over tp 1, pp 1: 8 replicas, one server.
  EXPECT_EQ(*PacketCheckServers(one, Ran(one, {{1, 1, 8}})), 1);
  // tp 8 x pp 3 = 24 GPUs a replica: 48 GPUs = 6 servers.
  EXPECT_EQ(*PacketCheckServers(one, Ran(one, {{8, 3, 1}})), 6);
}

TEST(PacketCheck, GivenServersMustHoldTheSplit) {
  const PlanRequirements r = ReadRequirements(R"(
cluster: {gpus: 1024, gpu: H100}
workloads:
  - training: {model: llama3-70b, tp: 8, pp: 2, global_batch: 512}
packet_check: {servers: 3}
)");
  Result<int> servers = PacketCheckServers(r, Ran(r, {{8, 2, 1}}));
  ASSERT_FALSE(servers.ok());
  EXPECT_THAT(servers.error().message,
              HasSubstr("packet_check.servers: 3 servers: 24 GPUs are not a multiple of llama3-70b's tp x pp = 16"));
}

// A cluster of one server cannot hold two tp 8 replicas: the copy is the
// design itself.
TEST(PacketCheck, ASmallClusterIsItsOwnCopy) {
  const PlanRequirements r = ReadRequirements(R"(
cluster: {gpus: 8, gpu: H100}
workloads:
  - training: {model: llama3-8b, tp: 8, global_batch: 8}
)");
  EXPECT_EQ(*PacketCheckServers(r, Ran(r, {{8, 1, 1}})), 1);
}

// The copy's scenario: the design's fabric on 8 servers, the split it ran
// with, dp filling the copy (64 / 32 = 2), pp micro-batches per replica
// (global batch 2 x 1 x 4 = 8) and one layer a stage (4 layers of 80, the
// vocabulary 128,256 x 4 / 80 = 6,412.8 -> 6,413).
TEST(PacketCheck, TheCopyKeepsTheSplitAndShrinksTheModel) {
  const PlanRequirements r = ReadRequirements(R"(
name: big
cluster: {gpus: 1024, gpu: H100}
workloads:
  - training: {model: llama3-70b, tp: 8, pp: 4, global_batch: 512, micro_batch: 1, zero: 1, layers_per_node: 4}
)");
  Result<std::string> yaml = PacketCheckScenarioYaml(r, Ran(r, {{8, 4, 1}}), Catalog::BuiltIn());
  ASSERT_TRUE(yaml.ok()) << yaml.error().message;
  Result<Scenario> s = LoadScenarioText(*yaml, "copy.yaml", ".", {});
  ASSERT_TRUE(s.ok()) << s.error().message << "\n" << *yaml;
  EXPECT_EQ(s->topology.servers, 8);
  EXPECT_THAT(*yaml, HasSubstr("kind: roce"));
  ASSERT_EQ(s->trainings.size(), 1u);
  const Scenario::Training& t = s->trainings[0];
  EXPECT_EQ(t.parallelism.tp, 8);
  EXPECT_EQ(t.parallelism.pp, 4);
  EXPECT_EQ(t.parallelism.dp, 2);
  EXPECT_EQ(t.training.global_batch, 8);
  EXPECT_EQ(t.model.layers, 4);
  EXPECT_EQ(t.model.vocab, 6413);
  EXPECT_EQ(t.model.hidden, 8192);  // Llama 3 70B's, unchanged
  EXPECT_EQ(t.parallelism.layers_per_node, 1);
  EXPECT_EQ(t.memory.zero_stage, 1);
}

// A design whose replicas have fewer micro-batches than stages: GPT-3 as
// tp8 pp16 on 16,384 GPUs is dp 128, so 1,536 / 128 = 12 micro-batches a
// replica, and the copy's two replicas get 12 each (global batch 24), not
// pp = 16.
TEST(PacketCheck, TheCopyKeepsTheDesignsMicroBatchesWhenFewerThanItsStages) {
  const PlanRequirements r = ReadRequirements(R"(
name: big
cluster: {gpus: 16384, gpu: H100}
workloads:
  - training: {model: gpt3-175b, tp: 8, pp: 16, global_batch: 1536, micro_batch: 1}
)");
  DesignOutcome o = Ran(r, {{8, 16, 1}});
  o.workloads[0].dp = 128;
  Result<std::string> yaml = PacketCheckScenarioYaml(r, o, Catalog::BuiltIn());
  ASSERT_TRUE(yaml.ok()) << yaml.error().message;
  Result<Scenario> s = LoadScenarioText(*yaml, "copy.yaml", ".", {});
  ASSERT_TRUE(s.ok()) << s.error().message << "\n" << *yaml;
  ASSERT_EQ(s->trainings.size(), 1u);
  EXPECT_EQ(s->trainings[0].parallelism.dp, 2);
  EXPECT_EQ(s->trainings[0].training.global_batch, 24);
}

}  // namespace
}  // namespace aifabric
