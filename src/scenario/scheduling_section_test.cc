// The scenario's scheduling: section: defaults (from cluster.gpu where the
// docs say so), every field read, and each error with its line and field.
#include "scenario/scheduling_section.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "scenario/scenario_loader.h"

namespace aifabric {
namespace {

// A cluster with no workload, as `aifabric schedule --cluster` takes it;
// `extra` is appended (line 4 on).
Result<Scenario> LoadScheduling(const std::string& extra, const std::vector<std::string>& sets = {}) {
  const std::string text =
      "name: sched\n"                                                      // 1
      "cluster: {servers: 4, gpus_per_server: 8, gpu: B200}\n"             // 2
      "fabric: {topology: {type: leaf_spine, hosts_per_leaf: 16}}\n" +     // 3
      extra;
  return LoadScenarioText(text, "s.yaml", ".", sets);
}

std::string SchedulingError(const std::string& extra, const std::vector<std::string>& sets = {}) {
  Result<Scenario> r = LoadScheduling(extra, sets);
  EXPECT_FALSE(r.ok()) << "expected an error for:\n" << extra;
  return r.ok() ? "" : r.error().message;
}

TEST(SchedulingSection, AbsentGivesTheDefaultsWithTheClusterGpusFigures) {
  Result<Scenario> s = LoadScheduling("");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_TRUE(s->workload.empty());
  const Scenario::Scheduling& sched = s->scheduling;
  EXPECT_EQ(sched.policy, (PolicySpec{"first_fit", false, false}));
  EXPECT_EQ(sched.storage_servers, 0);
  EXPECT_EQ(sched.max_phases_per_job, 256);
  EXPECT_EQ(sched.load_window_s, 60.0);
  const JobModelOptions& jobs = sched.jobs;
  EXPECT_EQ(jobs.tokens_per_gpu, 0u);
  // B200 in data/catalog.yaml: 2,250 TF BF16 dense, 192GB HBM (decimal
  // GB, here in GiB), NVLink 900GB/s per direction.
  EXPECT_EQ(jobs.gpu_peak_tflops, 2250.0);
  EXPECT_DOUBLE_EQ(jobs.gpu_memory_gib, 192e9 / (1024.0 * 1024 * 1024));
  EXPECT_EQ(jobs.nvlink_gbps_per_dir, 900.0);
  EXPECT_EQ(jobs.compute_efficiency, 0.0);
  EXPECT_EQ(jobs.grad_bytes, 4);
  EXPECT_EQ(jobs.overlap_fraction, 0.5);
  EXPECT_EQ(jobs.checkpoint_interval_s, 0.0);
}

TEST(SchedulingSection, ReadsEveryField) {
  Result<Scenario> s = LoadScheduling(
      "scheduling:\n"
      "  policy: topology+cassini+crux\n"
      "  storage_servers: 2\n"
      "  max_phases_per_job: 32\n"
      "  load_window: 1500ms\n"
      "  jobs:\n"
      "    tokens_per_gpu: 8192\n"
      "    gpu_peak_tflops: 500\n"
      "    compute_efficiency: 0.4\n"
      "    gpu_memory_gib: 40\n"
      "    grad_bytes: 2\n"
      "    overlap_fraction: 0.25\n"
      "    nvlink_gbps_per_dir: 300\n"
      "    checkpoint_interval: 1800s\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  const Scenario::Scheduling& sched = s->scheduling;
  EXPECT_EQ(sched.policy, (PolicySpec{"topology", true, true}));
  EXPECT_EQ(sched.storage_servers, 2);
  EXPECT_EQ(sched.max_phases_per_job, 32);
  EXPECT_EQ(sched.load_window_s, 1.5);
  const JobModelOptions& jobs = sched.jobs;
  EXPECT_EQ(jobs.tokens_per_gpu, 8192u);
  EXPECT_EQ(jobs.gpu_peak_tflops, 500.0);
  EXPECT_EQ(jobs.compute_efficiency, 0.4);
  EXPECT_EQ(jobs.gpu_memory_gib, 40.0);
  EXPECT_EQ(jobs.grad_bytes, 2);
  EXPECT_EQ(jobs.overlap_fraction, 0.25);
  EXPECT_EQ(jobs.nvlink_gbps_per_dir, 300.0);
  EXPECT_EQ(jobs.checkpoint_interval_s, 1800.0);
}

TEST(SchedulingSection, SetOverridesReachTheSection) {
  Result<Scenario> s = LoadScheduling("", {"scheduling.policy=random+crux", "scheduling.jobs.checkpoint_interval=10s",
                                 "scheduling.storage_servers=1"});
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->scheduling.policy, (PolicySpec{"random", true, false}));
  EXPECT_EQ(s->scheduling.jobs.checkpoint_interval_s, 10.0);
  EXPECT_EQ(SchedulingError("", {"scheduling.policy=fastest"}).rfind("--set scheduling.policy: unknown policy 'fastest'", 0), 0u)
      << SchedulingError("", {"scheduling.policy=fastest"});
}

TEST(SchedulingSection, ErrorsNameTheLineAndField) {
  EXPECT_EQ(SchedulingError("scheduling:\n  polcy: random\n").rfind("s.yaml:5:3: scheduling.polcy: unknown key; expected one of "
                                                            "policy, storage_servers, max_phases_per_job, load_window, jobs",
                                                            0),
            0u);
  EXPECT_EQ(SchedulingError("scheduling:\n  policy: best_fit\n").rfind("s.yaml:5:11: scheduling.policy: unknown policy 'best_fit'", 0),
            0u);
  EXPECT_EQ(SchedulingError("scheduling:\n  policy: topology+fast\n"),
            "s.yaml:5:11: scheduling.policy: unknown option '+fast' in 'topology+fast' (expected +crux or +cassini)");
  EXPECT_EQ(SchedulingError("scheduling:\n  max_phases_per_job: 0\n"),
            "s.yaml:5:23: scheduling.max_phases_per_job: expected an integer in 1..1000000, got '0'");
  EXPECT_EQ(SchedulingError("scheduling:\n  load_window: 0\n"), "s.yaml:5:16: scheduling.load_window: expected a time > 0, got 0");
  EXPECT_EQ(SchedulingError("scheduling:\n  load_window: 60\n").rfind("s.yaml:5:16: scheduling.load_window: ", 0), 0u);
  EXPECT_EQ(SchedulingError("scheduling:\n  jobs: {grad_bytes: two}\n"),
            "s.yaml:5:22: scheduling.jobs.grad_bytes: expected an integer >= 0, got 'two'");
  EXPECT_EQ(SchedulingError("scheduling:\n  jobs:\n    tokens: 4\n").rfind("s.yaml:6:5: scheduling.jobs.tokens: unknown key", 0), 0u);
  EXPECT_EQ(SchedulingError("scheduling: [first_fit]\n").rfind("s.yaml:4:13: scheduling: ", 0), 0u)
      << SchedulingError("scheduling: [first_fit]\n");
}

TEST(SchedulingSection, TheJobModelsRangesAreCheckedAtTheirField) {
  EXPECT_EQ(SchedulingError("scheduling:\n  jobs:\n    compute_efficiency: 1.5\n")
                .rfind("s.yaml:6:25: scheduling.jobs.compute_efficiency: expected 0 (calibrated) or a fraction in (0, 1]", 0),
            0u)
      << SchedulingError("scheduling:\n  jobs:\n    compute_efficiency: 1.5\n");
  EXPECT_EQ(SchedulingError("scheduling:\n  jobs:\n    grad_bytes: 3\n"),
            "s.yaml:6:17: scheduling.jobs.grad_bytes: expected 1, 2, 4 or 8, got 3");
  EXPECT_EQ(SchedulingError("scheduling:\n  jobs: {gpu_memory_gib: 0}\n").rfind("s.yaml:5:26: scheduling.jobs.gpu_memory_gib: ", 0),
            0u);
  EXPECT_EQ(SchedulingError("scheduling:\n  max_phases_per_job: 1000001\n").rfind("s.yaml:5:23: scheduling.max_phases_per_job: ", 0),
            0u);
  // A checkpoint needs storage servers to go to.
  EXPECT_EQ(SchedulingError("scheduling:\n  jobs: {checkpoint_interval: 30s}\n"),
            "s.yaml:5:31: scheduling.jobs.checkpoint_interval: checkpoints need storage servers "
            "(scheduling.storage_servers >= 1)");
}

TEST(SchedulingSection, StorageServersMustLeaveAServerForJobs) {
  // cluster.servers is 4: 3 storage servers leave one, 4 leave none.
  Result<Scenario> three = LoadScheduling("scheduling: {storage_servers: 3}\n");
  ASSERT_TRUE(three.ok()) << three.error().message;
  EXPECT_EQ(three->scheduling.storage_servers, 3);
  EXPECT_EQ(SchedulingError("scheduling: {storage_servers: 4}\n"),
            "s.yaml:4:31: scheduling.storage_servers: expected fewer than cluster.servers (4) so that a server is left "
            "for jobs, got 4");
}

}  // namespace
}  // namespace aifabric

namespace aifabric {
namespace {

// scheduling.link_failures: the two switches by name, the time it fails
// and for how long (0 = to the end; absent = 0).
TEST(SchedulingSection, LinkFailuresAreReadByName) {
  Result<Scenario> s = LoadScheduling(
      "scheduling:\n"
      "  link_failures:\n"
      "    - {between: [leaf0, spine1], at: 3600s, for: 600s}\n"
      "    - {between: [leaf1, spine0], at: 30s}\n");
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto& f = s->scheduling.link_failures;
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].a, "leaf0");
  EXPECT_EQ(f[0].b, "spine1");
  EXPECT_EQ(f[0].at_s, 3600);
  EXPECT_EQ(f[0].for_s, 600);
  EXPECT_EQ(f[0].path, "scheduling.link_failures.0");
  EXPECT_EQ(f[1].for_s, 0);
  EXPECT_EQ(SchedulingError("scheduling:\n  link_failures: {between: [a, b]}\n")
                .rfind("s.yaml:5:18: scheduling.link_failures: expected a list of {between: [SWITCH, SWITCH], at, for}", 0),
            0u);
  EXPECT_NE(SchedulingError("scheduling:\n  link_failures:\n    - {at: 1s}\n").find("scheduling.link_failures.0.between: missing"),
            std::string::npos);
  EXPECT_NE(SchedulingError("scheduling:\n  link_failures:\n    - {between: [leaf0], at: 1s}\n")
                .find("scheduling.link_failures.0.between: expected two switch names"),
            std::string::npos);
  EXPECT_NE(SchedulingError("scheduling:\n  link_failures:\n    - {between: [leaf0, spine0]}\n")
                .find("scheduling.link_failures.0.at: missing"),
            std::string::npos);
}

}  // namespace
}  // namespace aifabric
