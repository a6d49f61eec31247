// End-to-end specs of training memory in the CLI: the warning when a plan
// does not fit (the run still proceeds), summary.json's `memory`,
// `parallelism: auto`, and the inputs refused with exit code 2.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_harness.h"

namespace aifabric::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// Two servers of 8 H100s (80 GB each) on a rail-optimized RoCE fabric,
// flow level; `training` is the workload entry's map.
std::string Scenario(const std::string& training) {
  return "name: memfit\n"
         "cluster: {servers: 2, gpus_per_server: 8, gpu: H100, nic: {model: CX7-400G, per_gpu: 1}}\n"
         "fabric: {kind: roce, topology: {type: rail_optimized}, switch: 64x400G}\n"
         "simulation: {model: flow, telemetry: {enabled: false}}\n"
         "workload:\n"
         "  - training: " + training + "\n";
}

nlohmann::json Summary(const TempDir& dir) { return nlohmann::json::parse(ReadFile(dir.path() + "/out/summary.json")); }

// GPT-3 175B on 16 GPUs: ~10.9B parameters per GPU at 18 bytes is ~196 GB
// of model states alone, more than 80 GB: warned, and the step still runs.
TEST(TrainingMemoryCli, APlanThatDoesNotFitIsWarnedAndStillRuns) {
  TempDir dir;
  const std::string file = dir.Write("s.yaml", Scenario("{model: gpt3-175b, tp: 8, pp: 2, dp: 1, global_batch: 2, "
                                                        "layers_per_node: 48}"));
  CommandResult v = RunAifabric("validate " + file);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  EXPECT_THAT(v.err, HasSubstr("aifabric: warning: workload.0.training: gpt3-175b needs "));
  EXPECT_THAT(v.err, HasSubstr("GiB per GPU on stage "));
  EXPECT_THAT(v.err, HasSubstr("more than the H100's 74.5 GiB (80 GB)"));
  CommandResult r = RunAifabric("run -q " + file + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("aifabric: warning: workload.0.training: gpt3-175b needs "));
  const auto m = Summary(dir)["training"][0]["memory"];
  EXPECT_EQ(m["fits"], false);
  EXPECT_EQ(m["hbm_bytes"].get<uint64_t>(), 80'000'000'000u);
  EXPECT_GT(m["weights_bytes"].get<uint64_t>() + m["gradients_bytes"].get<uint64_t>() +
                m["optimizer_bytes"].get<uint64_t>(),
            190'000'000'000u);
  // The total is its parts (no ZeRO-3 buffers in a run).
  EXPECT_EQ(m["total_bytes"].get<uint64_t>(), m["weights_bytes"].get<uint64_t>() + m["gradients_bytes"].get<uint64_t>() +
                                                  m["optimizer_bytes"].get<uint64_t>() +
                                                  m["activations_bytes"].get<uint64_t>());
}

// Llama 3 8B at TP 8 with full recompute and ZeRO-1 is far under 80 GB: no
// warning.
TEST(TrainingMemoryCli, APlanThatFitsIsQuiet) {
  TempDir dir;
  const std::string file = dir.Write("s.yaml", Scenario("{model: llama3-8b, tp: 8, dp: 2, global_batch: 4, zero: 1, "
                                                        "recompute: full, layers_per_node: 32}"));
  CommandResult r = RunAifabric("run -q " + file + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("warning")));
  const auto t = Summary(dir)["training"][0];
  EXPECT_EQ(t["memory"]["fits"], true);
  EXPECT_EQ(t["memory"]["stage"], 0);
  EXPECT_FALSE(t.contains("parallelism"));
}

TEST(TrainingMemoryCli, AutoRunsASplitThatFits) {
  TempDir dir;
  const std::string file = dir.Write("s.yaml", Scenario("{model: llama3-8b, parallelism: auto, global_batch: 16, "
                                                        "seq_len: 4096, zero: 1, recompute: selective, "
                                                        "sequence_parallel: true, layers_per_node: 32}"));
  CommandResult r = RunAifabric("run " + file + " --out " + dir.path() + "/out");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("  auto        the fastest estimate ("));
  const auto t = Summary(dir)["training"][0];
  EXPECT_EQ(t["tp"].get<int>() * t["pp"].get<int>() * t["dp"].get<int>(), 16);
  EXPECT_EQ(t["gpus"], 16);
  EXPECT_EQ(t["memory"]["fits"], true);
  EXPECT_LE(t["memory"]["total_bytes"].get<uint64_t>(), 80'000'000'000u);
  EXPECT_EQ(t["parallelism"]["search"], "auto");
  EXPECT_GE(t["parallelism"]["fitting_splits"].get<int>(), 1);
  // Deterministic: the same choice again.
  TempDir again;
  CommandResult r2 = RunAifabric("run -q " + file + " --out " + again.path() + "/out");
  ASSERT_EQ(r2.exit_code, 0) << r2.err;
  EXPECT_EQ(Summary(again)["training"][0]["tp"], t["tp"]);
  EXPECT_EQ(Summary(again)["training"][0]["pp"], t["pp"]);
}

TEST(TrainingMemoryCli, AutoWithNothingThatFitsNamesTheClosestMiss) {
  TempDir dir;
  const std::string file = dir.Write("s.yaml", Scenario("{model: gpt3-175b, parallelism: auto, global_batch: 16}"));
  for (const std::string& command : {"validate " + file, "run -q " + file + " --out " + dir.path() + "/out"}) {
    CommandResult r = RunAifabric(command);
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_THAT(r.err, HasSubstr("workload.0.training: parallelism: no split of 16 GPUs fits gpt3-175b"));
    EXPECT_THAT(r.err, HasSubstr("the closest, TP 8 x PP 2 x DP 1, needs "));
  }
}

TEST(TrainingMemoryCli, ZeroThreeIsSizedButNotRun) {
  TempDir dir;
  const std::string file = dir.Write("s.yaml", Scenario("{model: llama3-8b, tp: 8, dp: 2, global_batch: 4, zero: 3}"));
  CommandResult v = RunAifabric("validate " + file);
  EXPECT_EQ(v.exit_code, 0) << v.err;
  CommandResult r = RunAifabric("run -q " + file + " --out " + dir.path() + "/out");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("workload.0.training.zero: 3 (ZeRO-3 / FSDP) is not simulated"));
}

TEST(TrainingMemoryCli, BadMemoryFieldsNameTheField) {
  struct Bad {
    const char* training;
    const char* expect;
  };
  for (const Bad& bad : {Bad{"{model: llama3-8b, tp: 8, global_batch: 4, recompute: sometimes}", "recompute: expected none"},
                         Bad{"{model: llama3-8b, tp: 8, global_batch: 4, zero: 4}", "zero"},
                         Bad{"{model: llama3-8b, tp: 8, global_batch: 4, zero: 0, distributed_optimizer: true}",
                             "contradicts distributed_optimizer"},
                         Bad{"{model: llama3-8b, parallelism: auto, tp: 8, global_batch: 4}",
                             "tp: not with parallelism: auto"},
                         Bad{"{model: llama3-8b, parallelism: manual, global_batch: 4}", "parallelism: expected auto"},
                         Bad{"{model: llama3-8b, tp: 8, gpus: 8, global_batch: 4}", "gpus: only with parallelism: auto"}}) {
    TempDir dir;
    CommandResult r = RunAifabric("validate " + dir.Write("s.yaml", Scenario(bad.training)));
    EXPECT_EQ(r.exit_code, 2) << bad.training;
    EXPECT_THAT(r.err, HasSubstr(bad.expect)) << bad.training;
    EXPECT_THAT(r.err, HasSubstr("s.yaml:6:")) << bad.training;
  }
}

}  // namespace
}  // namespace aifabric::testing
