// Specs of ComputeJobMetrics on node times given by hand (no executor).
#include "workload/job_metrics.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace aifabric {
namespace {

TEST(JobMetrics, OverlapsOnOneGpuWorkedByHand) {
  // GPU 0, in microseconds: compute [0, 4) (useful), a data-parallel
  // transfer to GPU 1 [2, 7), a pipeline transfer [6, 9), compute [10, 12)
  // without FLOPs. Listed out of time order (node order is not time order).
  // Makespan 12. GPU 0: compute 4 + 2 = 6 (useful 4); data in flight 5,
  // exposed [4, 6) alone (2) and half of [6, 7) beside pipeline (0.5);
  // pipeline in flight 3, exposed 0.5 + [7, 9) alone (2) = 2.5; idle
  // [9, 10) = 1. GPU 1 (the transfers' peer) computes nothing: data
  // exposed [2, 6) alone (4) + 0.5 = 4.5, pipeline 0.5 + 2 = 2.5, idle
  // [0, 2) and [9, 12) = 5.
  JobGraphBuilder b;
  const uint32_t label = b.AddLabel("x");
  const JobNodeIndex late_compute = b.AddCompute(0, Time::FromUs(2), 0, label);
  const JobNodeIndex pipe = b.AddTransfer(0, 1, 1000, CommDimension::kPipeline, label);
  const JobNodeIndex compute = b.AddCompute(0, Time::FromUs(4), 1e12, label);
  const JobNodeIndex data = b.AddTransfer(0, 1, 1000, CommDimension::kData, label);
  Result<JobGraph> g = std::move(b).Build();
  ASSERT_TRUE(g.ok());
  std::vector<Time> start(4), finish(4);
  auto at = [&](JobNodeIndex i, int64_t from_us, int64_t to_us) {
    start[i] = Time::FromUs(from_us);
    finish[i] = Time::FromUs(to_us);
  };
  at(late_compute, 10, 12);
  at(pipe, 6, 9);
  at(compute, 0, 4);
  at(data, 2, 7);
  const JobMetrics m = ComputeJobMetrics(*g, start, finish);
  EXPECT_EQ(m.makespan, Time::FromUs(12));
  EXPECT_EQ(m.gpus, 2);
  const double us = 1e-6;
  // Means over the two GPUs.
  EXPECT_NEAR(m.compute_s, (6 + 0) / 2.0 * us, 1e-15);
  EXPECT_NEAR(m.useful_compute_s, 4 / 2.0 * us, 1e-15);
  const size_t d = static_cast<size_t>(CommDimension::kData), p = static_cast<size_t>(CommDimension::kPipeline);
  EXPECT_NEAR(m.comm_s[d], (5 + 5) / 2.0 * us, 1e-15);
  EXPECT_NEAR(m.comm_s[p], (3 + 3) / 2.0 * us, 1e-15);
  EXPECT_NEAR(m.exposed_s[d], (2.5 + 4.5) / 2.0 * us, 1e-15);
  EXPECT_NEAR(m.exposed_s[p], (2.5 + 2.5) / 2.0 * us, 1e-15);
  EXPECT_NEAR(m.idle_s, (1 + 5) / 2.0 * us, 1e-15);
  EXPECT_DOUBLE_EQ(m.flops, 1e12);
}

TEST(JobMetrics, ManyOutOfOrderNodesAgreeWithAPicosecondTally) {
  // 400 nodes on one GPU at seeded random times, mostly in time order with
  // some far out of it (as a step's nodes are: the sweep's input has many
  // short ascending runs): every figure equals a tally that walks every
  // distinct boundary time and asks each node whether it covers the
  // interval after it.
  std::mt19937_64 rng(7);
  JobGraphBuilder b;
  const uint32_t label = b.AddLabel("x");
  const int n = 400;
  std::vector<Time> start, finish;
  std::vector<bool> is_compute;
  int64_t clock = 0;
  for (int i = 0; i < n; ++i) {
    const bool compute = rng() % 2 == 0;
    is_compute.push_back(compute);
    if (compute) {
      b.AddCompute(0, Time::Zero(), 1, label);
    } else {
      b.AddTransfer(0, 1, 1, rng() % 2 == 0 ? CommDimension::kData : CommDimension::kTensor, label);
    }
    clock += static_cast<int64_t>(rng() % 1000);
    const int64_t from = rng() % 10 == 0 ? static_cast<int64_t>(rng() % static_cast<uint64_t>(clock + 1)) : clock;
    start.push_back(Time::FromPs(from));
    finish.push_back(Time::FromPs(from + static_cast<int64_t>(rng() % 3000)));
  }
  Result<JobGraph> g = std::move(b).Build();
  ASSERT_TRUE(g.ok());
  const JobMetrics m = ComputeJobMetrics(*g, start, finish, /*gpus=*/1);

  std::vector<int64_t> times;
  for (int i = 0; i < n; ++i) {
    times.push_back(start[i].ps());
    times.push_back(finish[i].ps());
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  double compute_s = 0, idle_s = 0, data_s = 0, exposed_data_s = 0;
  const size_t d = static_cast<size_t>(CommDimension::kData), t = static_cast<size_t>(CommDimension::kTensor);
  for (size_t k = 0; k + 1 < times.size(); ++k) {
    const double seconds = static_cast<double>(times[k + 1] - times[k]) * 1e-12;
    bool computing = false, data = false, tensor = false;
    for (int i = 0; i < n; ++i) {
      if (start[i].ps() > times[k] || finish[i].ps() <= times[k]) continue;
      if (is_compute[i]) {
        computing = true;
      } else if (g->node(static_cast<JobNodeIndex>(i)).dimension == CommDimension::kData) {
        data = true;
      } else {
        tensor = true;
      }
    }
    if (data) data_s += seconds;
    if (computing) {
      compute_s += seconds;
    } else if (data || tensor) {
      if (data) exposed_data_s += seconds / (data && tensor ? 2 : 1);
    } else {
      idle_s += seconds;
    }
  }
  EXPECT_EQ(m.gpus, 1);
  EXPECT_NEAR(m.compute_s, compute_s, 1e-18);
  EXPECT_NEAR(m.idle_s, idle_s, 1e-18);
  EXPECT_NEAR(m.comm_s[d], data_s, 1e-18);
  EXPECT_NEAR(m.exposed_s[d], exposed_data_s, 1e-18);
  EXPECT_GT(m.comm_s[t], 0);
  EXPECT_GT(compute_s, 0);
  EXPECT_GT(exposed_data_s, 0);
}

}  // namespace
}  // namespace aifabric
