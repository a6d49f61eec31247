#include "sched/replay_metrics.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

ReplayJobResult JobResult(int gpus, double submit, double start, double end, double compute) {
  ReplayJobResult j;
  j.gpus = gpus;
  j.submit_s = submit;
  j.start_s = start;
  j.end_s = end;
  j.compute_s = compute;
  j.run_idle_s = end - start;
  return j;
}

TEST(ReplayMetricsTest, NearestRankQuantile) {
  EXPECT_EQ(NearestRankQuantile({5, 1, 4, 2, 3}, 0.95), 5);  // ceil(4.75) = 5th
  EXPECT_EQ(NearestRankQuantile({5, 1, 4, 2, 3}, 0.5), 3);   // ceil(2.5) = 3rd
  EXPECT_EQ(NearestRankQuantile({7}, 0.95), 7);
}

// Two jobs on 8 GPUs. A: 4 GPUs, submitted 0, runs 0-100, computes 50 s.
// B: 8 GPUs, submitted 40, waits until 100, runs 100-200, computes 100 s.
// JCT 100 and 160 (mean 130, p95 160); queue 0 and 60 (mean 30).
// The window is the arrival period, 0-40: A holds 4 GPUs for all 40 s of
// it (computing half the time), B nothing: alloc 160/320 = 0.5, effective
// 80/320 = 0.25.
TEST(ReplayMetricsTest, HandWorkedTwoJobs) {
  const std::vector<ReplayJobResult> jobs = {JobResult(4, 0, 0, 100, 50), JobResult(8, 40, 100, 200, 100)};
  const ReplayMetrics m = ComputeReplayMetrics(jobs, 8);
  EXPECT_EQ(m.jobs, 2u);
  EXPECT_DOUBLE_EQ(m.jct_mean_s, 130);
  EXPECT_DOUBLE_EQ(m.jct_p95_s, 160);
  EXPECT_DOUBLE_EQ(m.queue_mean_s, 30);
  EXPECT_DOUBLE_EQ(m.queue_p95_s, 60);
  EXPECT_DOUBLE_EQ(m.makespan_s, 200);
  EXPECT_DOUBLE_EQ(m.util_window_s, 40);
  EXPECT_DOUBLE_EQ(m.gpu_util_alloc, 0.5);
  EXPECT_DOUBLE_EQ(m.gpu_util_effective, 0.25);
  EXPECT_DOUBLE_EQ(m.run_slowdown_mean, 1.0);
  EXPECT_DOUBLE_EQ(m.comm_slowdown_mean, 1.0);  // no job communicated
}

// All jobs arrive at once: the window is the makespan. A 4 GPUs 0-100
// (compute 60), B 4 GPUs 0-50 (compute 50) on 8 GPUs over 100 s:
// alloc (400 + 200) / 800, effective (240 + 200) / 800.
TEST(ReplayMetricsTest, SimultaneousArrivalsUseTheMakespan) {
  std::vector<ReplayJobResult> jobs = {JobResult(4, 0, 0, 100, 60), JobResult(4, 0, 0, 50, 50)};
  jobs[0].comm_s = 30;
  jobs[0].comm_idle_s = 10;
  jobs[0].run_idle_s = 50;
  const ReplayMetrics m = ComputeReplayMetrics(jobs, 8);
  EXPECT_DOUBLE_EQ(m.util_window_s, 100);
  EXPECT_DOUBLE_EQ(m.gpu_util_alloc, 0.75);
  EXPECT_DOUBLE_EQ(m.gpu_util_effective, 0.55);
  EXPECT_DOUBLE_EQ(m.comm_slowdown_mean, 3.0);  // over the one job that communicated
  EXPECT_DOUBLE_EQ(m.run_slowdown_mean, (2.0 + 1.0) / 2);
}

TEST(ReplayMetricsTest, NoJobsIsAllZero) {
  const ReplayMetrics m = ComputeReplayMetrics({}, 8);
  EXPECT_EQ(m.jobs, 0u);
  EXPECT_EQ(m.gpu_util_alloc, 0);
}

}  // namespace
}  // namespace aifabric
