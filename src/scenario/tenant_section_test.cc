// The tenant keys of workload items (scenario/tenant_section.h): what they
// set, when a scenario becomes a shared run, and the errors that name them.
#include "scenario/tenant_section.h"

#include <gtest/gtest.h>

#include <string>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

constexpr const char* kCluster =
    "cluster: {servers: 4, gpus_per_server: 8}\n"
    "fabric:\n  qos:\n    classes:\n      - {name: bulk, priority: 1, dscp: 10}\n";
constexpr const char* kJob = "training: {model: llama3-8b, tp: 8, dp: 2, global_batch: 16}";

Result<Scenario> LoadWorkload(const std::string& workload) {
  return LoadScenarioText(std::string(kCluster) + "workload:\n" + workload, "t.yaml", ".", {});
}

std::string WorkloadError(const std::string& workload) {
  Result<Scenario> s = LoadWorkload(workload);
  return s.ok() ? "" : s.error().message;
}

TEST(TenantSection, KeysBesideAnItemsKindMakeItATenant) {
  Result<Scenario> s = LoadWorkload(std::string("  - {name: a, placement: {servers: [2, 3]}, start: 2ms, steps: 3, class: bulk, ") +
                            kJob + "}\n  - {placement: topology, " + kJob + "}\n  - permutation: {size: 1MiB}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(s->shared_fabric);
  ASSERT_EQ(s->tenants.size(), 3u);
  const TenantSpec& a = s->tenants[0];
  EXPECT_EQ(a.name, "a");
  EXPECT_EQ(a.kind, TenantKind::kTraining);
  EXPECT_EQ(a.placement.servers, (std::vector<int>{2, 3}));
  EXPECT_EQ(a.start, Time::FromMs(2));
  EXPECT_EQ(a.steps, 3);
  EXPECT_EQ(a.priority, 1);  // the class's
  EXPECT_EQ(s->tenants[1].name, "training.1");  // kind and item index
  EXPECT_EQ(s->tenants[1].index, 1u);           // the second training entry
  EXPECT_EQ(s->tenants[1].placement.policy, "topology");
  EXPECT_EQ(s->tenants[2].kind, TenantKind::kFlows);
  EXPECT_EQ(s->tenants[2].kind_name, "permutation");
  EXPECT_EQ(s->tenants[2].index, 0u);
  EXPECT_EQ(s->tenants[2].priority, -1);  // the item's own
}

TEST(TenantSection, PlainJobItemsStillRunApartAndJobsBesideFlowsShare) {
  Result<Scenario> apart = LoadWorkload(std::string("  - ") + kJob + "\n  - " + kJob + "\n");
  ASSERT_TRUE(apart.ok()) << apart.error().message;
  EXPECT_FALSE(apart->shared_fabric);
  Result<Scenario> mixed = LoadWorkload(std::string("  - ") + kJob + "\n  - permutation: {size: 1MiB}\n");
  ASSERT_TRUE(mixed.ok()) << mixed.error().message;
  EXPECT_TRUE(mixed->shared_fabric);
}

TEST(TenantSection, BadKeysNameTheirField) {
  EXPECT_NE(WorkloadError("  - {placement: {servers: [0]}, permutation: {size: 1MiB}}\n").find("workload.0.placement: only for jobs"),
            std::string::npos);
  EXPECT_NE(WorkloadError(std::string("  - {placement: best, ") + kJob + "}\n").find("unknown placement policy 'best'"),
            std::string::npos);
  EXPECT_NE(WorkloadError(std::string("  - {placement: {servers: [0, 1], gpus: [3]}, ") + kJob + "}\n")
                .find("expected exactly one of servers, gpus or policy"),
            std::string::npos);
  EXPECT_NE(WorkloadError(std::string("  - {name: x, ") + kJob + "}\n  - {name: x, " + kJob + "}\n")
                .find("workload.1.name: 'x' names two workload items"),
            std::string::npos);
  EXPECT_NE(WorkloadError(std::string("  - {placement: {servers: [0, 1]}, ") + kJob + "}\n  - {placement: {gpus: [8]}, " +
                    kJob + "}\n")
                .find("workload.1.placement: GPU 8 is already another item's"),
            std::string::npos);
  EXPECT_NE(WorkloadError(std::string("  - {placement: {servers: [4]}, ") + kJob + "}\n").find("server 4 is not in the cluster"),
            std::string::npos);
  EXPECT_NE(WorkloadError(std::string("  - {class: gold, ") + kJob + "}\n").find("unknown class 'gold'"), std::string::npos);
  EXPECT_NE(WorkloadError("  - {name: a, permutation: {size: 1MiB}, incast: {senders: 2}}\n").find("exactly one of"),
            std::string::npos);
}

// A training job's checkpoint.every, with the steps it repeats.
std::string Every(const std::string& repeat, const std::string& every) {
  return "  - {" + repeat + "training: {model: llama3-8b, tp: 8, dp: 2, global_batch: 16, checkpoint: "
         "{storage_servers: 1" + every + "}}}\n";
}

TEST(TenantSection, CheckpointEveryCountsSteps) {
  Result<Scenario> s = LoadWorkload(Every("steps: 4, ", ", every: 2"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->trainings[0].checkpoint_every, 2);
  EXPECT_EQ(s->tenants[0].steps, 4);
  Result<Scenario> plain = LoadWorkload(Every("steps: 4, ", ""));
  ASSERT_TRUE(plain.ok()) << plain.error().message;
  EXPECT_EQ(plain->trainings[0].checkpoint_every, 1);  // during every step, as before
  // A duration runs as many steps as fit: any `every` may be reached.
  Result<Scenario> timed = LoadWorkload(Every("duration: 10ms, ", ", every: 50"));
  ASSERT_TRUE(timed.ok()) << timed.error().message;
  EXPECT_EQ(timed->trainings[0].checkpoint_every, 50);
  // As many steps as `every`: the last one writes it.
  EXPECT_TRUE(LoadWorkload(Every("steps: 3, ", ", every: 3")).ok());
}

TEST(TenantSection, BadCheckpointEveryNamesItsField) {
  EXPECT_NE(WorkloadError(Every("steps: 4, ", ", every: 0"))
                .find("workload.0.training.checkpoint.every: expected an integer >= 1, got '0'"),
            std::string::npos)
      << WorkloadError(Every("steps: 4, ", ", every: 0"));
  EXPECT_NE(WorkloadError(Every("steps: 4, ", ", every: 1.5"))
                .find("workload.0.training.checkpoint.every: expected an integer >= 1, got '1.5'"),
            std::string::npos)
      << WorkloadError(Every("steps: 4, ", ", every: 1.5"));
  // No step would write one: more than its steps, or one step alone (a
  // plain item, or steps: 1).
  const std::string past = WorkloadError(Every("steps: 2, ", ", every: 3"));
  EXPECT_NE(past.find("workload.0.training.checkpoint.every: 3 writes a checkpoint during steps 3, 6, ... but the "
                      "item runs 2 steps, so none would; give workload.0.steps >= 3 or a duration"),
            std::string::npos)
      << past;
  const std::string once = WorkloadError(Every("", ", every: 2"));
  EXPECT_NE(once.find("workload.0.training.checkpoint.every: 2 writes a checkpoint during steps 2, 4, ... but the "
                      "item runs 1 step, so none would"),
            std::string::npos)
      << once;
}

TEST(TenantSection, ACollectiveItemIsATenantEvenWithoutTenantKeys) {
  Result<Scenario> s = LoadWorkload(
      "  - collective: {op: all_gather, size: 256MiB, gpus: 16, algo: ring, proto: simple}\n"
      "  - {name: ar, steps: 3, collective: {op: all_reduce, size: 1MiB, gpus: 8}}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(s->shared_fabric);  // a collective has no run of its own
  ASSERT_EQ(s->collective_jobs.size(), 2u);
  const Scenario::CollectiveJob& a = s->collective_jobs[0];
  EXPECT_EQ(a.op, CollectiveOp::kAllGather);
  EXPECT_EQ(a.size, 256u << 20);
  EXPECT_EQ(a.gpus, 16);
  EXPECT_EQ(a.algorithm, CollectiveAlgorithm::kRing);
  EXPECT_EQ(a.protocol, CollectiveProtocol::kSimple);
  EXPECT_EQ(a.path, "workload.0.collective");
  EXPECT_FALSE(s->collective_jobs[1].algorithm);  // auto
  EXPECT_FALSE(s->collective_jobs[1].protocol);
  EXPECT_EQ(s->tenants[0].name, "collective.0");
  EXPECT_EQ(s->tenants[1].kind, TenantKind::kCollective);
  EXPECT_EQ(s->tenants[1].index, 1u);
  EXPECT_EQ(s->tenants[1].steps, 3);
  // Without gpus: the cluster's, as `aifabric collective`.
  Result<Scenario> all = LoadWorkload("  - collective: {op: broadcast, size: 4MiB}\n");
  ASSERT_TRUE(all.ok()) << all.error().message;
  EXPECT_EQ(all->collective_jobs[0].gpus, 32);
}

TEST(TenantSection, BadCollectiveItemsNameFileLineAndField) {
  const auto error = [](const std::string& item) { return WorkloadError("  - collective: " + item + "\n"); };
  // The workload list starts on line 6 of t.yaml.
  EXPECT_NE(error("{op: all_sum, size: 1MiB}").find("t.yaml:7:"), std::string::npos) << error("{op: all_sum, size: 1MiB}");
  EXPECT_NE(error("{op: all_sum, size: 1MiB}").find("workload.0.collective.op"), std::string::npos);
  EXPECT_NE(error("{op: all_reduce, size: 0}").find("workload.0.collective.size"), std::string::npos);
  EXPECT_NE(error("{op: all_reduce}").find("workload.0.collective.size: required"), std::string::npos);
  EXPECT_NE(error("{op: all_reduce, size: 1MiB, gpus: 64}").find("workload.0.collective.gpus: 64 GPUs, more than the cluster's 32"),
            std::string::npos) << error("{op: all_reduce, size: 1MiB, gpus: 64}");
  EXPECT_NE(error("{op: all_reduce, size: 1MiB, gpus: 12}").find("workload.0.collective.gpus: 12 GPUs do not fill whole servers"),
            std::string::npos);
  EXPECT_NE(error("{op: all_reduce, size: 1MiB, algo: fastest}").find("workload.0.collective.algo"), std::string::npos);
  EXPECT_NE(error("{op: all_reduce, size: 1MiB, proto: ll64}").find("workload.0.collective.proto"), std::string::npos);
  EXPECT_NE(error("{op: all_reduce, size: 1MiB, root: 1}").find("workload.0.collective.root"), std::string::npos);
}

TEST(TenantSection, DatasetReadsShareTheCheckpointsStorageServers) {
  const std::string training = "training: {model: llama3-8b, tp: 8, dp: 2, global_batch: 16, ";
  Result<Scenario> both = LoadWorkload("  - " + training +
                                       "checkpoint: {storage_servers: 2}, dataset: {bytes: 1MiB, priority: 2}}\n");
  ASSERT_TRUE(both.ok()) << both.error().message;
  const Scenario::Training& t = both->trainings[0];
  EXPECT_EQ(t.dataset_servers, 2);  // the checkpoint's by default
  EXPECT_EQ(t.dataset_bytes, 1u << 20);
  EXPECT_EQ(t.dataset_priority, 2);
  EXPECT_EQ(t.storage_reserved(), 2);
  Result<Scenario> reads = LoadWorkload("  - " + training + "dataset: {storage_servers: 1}}\n");
  ASSERT_TRUE(reads.ok()) << reads.error().message;
  EXPECT_EQ(reads->trainings[0].storage_servers, 0);
  EXPECT_EQ(reads->trainings[0].storage_reserved(), 1);
  EXPECT_NE(WorkloadError("  - " + training + "dataset: {bytes: 1MiB}}\n").find("workload.0.training.dataset.storage_servers: required"),
            std::string::npos);
  EXPECT_NE(WorkloadError("  - " + training + "dataset: {storage_servers: 1, every: 2}}\n").find("workload.0.training.dataset.every"),
            std::string::npos);
}

}  // namespace
}  // namespace aifabric
