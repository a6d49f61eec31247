// Straggler faults resolved against the cluster, at every model level,
// and refused by the runs that have no compute kernel to slow.
#include "run/straggler_plan.h"

#include <gtest/gtest.h>

#include <string>

#include "run/collective_run.h"
#include "run/fabric_setup.h"
#include "run/scenario_run.h"
#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

Scenario LoadWithStragglers(const std::string& rest, const std::string& model = "flow") {
  Result<Scenario> s = LoadScenarioText(
      "cluster: {servers: 2, gpus_per_server: 8, gpu: H100, nic: {rate: 400Gbps, per_gpu: 1}}\n"
      "fabric: {kind: roce, topology: {type: leaf_spine, hosts_per_leaf: 8, spines: 2}, switch: 64x400G}\n"
      "simulation: {model: " + model + "}\n" + rest,
      "s.yaml", ".", {});
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

TEST(ResolveStragglers, EachBecomesItsGpusWindowAtEveryLevel) {
  for (const char* model : {"packet", "flow", "analytic"}) {
    const Scenario s = LoadWithStragglers(
        "faults:\n"
        "  - {kind: straggler, gpu: 3, at: 10us, until: 2ms, factor: 0.5}\n"
        "  - {kind: straggler, gpu: 15, at: 0, factor: 0.25}\n",
        model);
    Result<BuiltFabric> fabric = BuildFabric(s);
    ASSERT_TRUE(fabric.ok()) << model << ": " << fabric.error().message;
    const std::vector<SlowWindow>& w = fabric->stragglers.windows();
    ASSERT_EQ(w.size(), 2u);
    EXPECT_EQ(w[0].gpu, 3);
    EXPECT_EQ(w[0].at, Time::FromUs(10));
    EXPECT_EQ(w[0].until, Time::FromMs(2));
    EXPECT_EQ(w[0].factor, 0.5);
    EXPECT_EQ(w[1].gpu, 15);
    EXPECT_TRUE(w[1].until.IsInfinite());
  }
}

TEST(ResolveStragglers, AGpuBeyondTheClusterIsAnErrorNamingTheField) {
  Result<BuiltFabric> fabric = BuildFabric(LoadWithStragglers("faults: [{kind: straggler, gpu: 16, at: 0, factor: 0.5}]\n"));
  ASSERT_FALSE(fabric.ok());
  EXPECT_EQ(fabric.error().message, "faults.0.gpu: GPU 16 is beyond the cluster's 16 GPUs (0..15)");
}

TEST(RefuseStragglers, RunsWithoutComputeRefuseOne) {
  // A collective computes nothing, nor do flows: a straggler there would
  // change nothing, so the run says so rather than ignore it.
  const Scenario s = LoadWithStragglers(
      "faults: [{kind: straggler, gpu: 2, at: 0, factor: 0.5}]\n"
      "workload: [{permutation: {size: 1MiB}}]\n");
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::Prepare(s);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.error().message,
            "faults.0.kind: a straggler slows a GPU's compute kernels and a flows run has none; give it a "
            "training or chakra job");
  CollectiveRequest request;
  request.sizes = {1 << 20};
  Result<CollectiveSweepResult> sweep = RunCollectiveSweep(s, request);
  ASSERT_FALSE(sweep.ok());
  EXPECT_EQ(sweep.error().message,
            "faults.0.kind: a straggler slows a GPU's compute kernels and a collective sweep has none; give it a "
            "training or chakra job");
}

}  // namespace
}  // namespace aifabric
