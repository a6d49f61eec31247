// JobExecutor and JobMetrics on a network without contention (every
// transfer takes alpha + bytes / B): one kernel at a time per GPU,
// communication beside compute, collectives as their closed forms, and the
// breakdown of compute, exposed communication and idle time.
#include "workload/job_executor.h"

#include <gtest/gtest.h>

#include <string>

#include "workload/alpha_beta_network.h"
#include "workload/test_topology.h"
#include "workload/job_metrics.h"

namespace aifabric {
namespace {

using testing::AlphaBetaNetwork;

using testing::kAlpha;
using testing::kRate;

struct JobRun {
  explicit JobRun(JobGraph g, JobExecutorOptions options = {}) : graph(std::move(g)) {
    executor = std::make_unique<JobExecutor>(sim, net, layout, graph, options);
    net.SetObserver(executor.get());
    status = executor->Start();
    sim.Run();
  }
  Time finish(JobNodeIndex i) const { return executor->node_finish()[i]; }
  Time begin(JobNodeIndex i) const { return executor->node_start()[i]; }
  JobMetrics metrics() const { return ComputeJobMetrics(graph, executor->node_start(), executor->node_finish()); }
  Simulator sim{1};
  AlphaBetaNetwork net{sim, kAlpha, kRate};
  ClusterLayout layout = testing_topology::GpuServers(2, 4);
  JobGraph graph;
  std::unique_ptr<JobExecutor> executor;
  Status status;
};

// One channel, so a collective is one ring (the closed forms below).
JobExecutorOptions OneChannel() {
  JobExecutorOptions o;
  o.channels = 1;
  return o;
}

TEST(JobExecutor, AGpuRunsOneKernelAtATime) {
  // Two 10 us kernels on GPU 0, both ready at t = 0: the second waits.
  // One on GPU 1 runs beside them.
  JobGraphBuilder b;
  const JobNodeIndex a = b.AddCompute(0, Time::FromUs(10), 1, 0);
  const JobNodeIndex c = b.AddCompute(0, Time::FromUs(10), 1, 0);
  const JobNodeIndex d = b.AddCompute(1, Time::FromUs(10), 1, 0);
  JobRun run(std::move(b).Build().value());
  ASSERT_TRUE(run.status.ok());
  EXPECT_EQ(run.finish(a), Time::FromUs(10));
  EXPECT_EQ(run.begin(c), Time::FromUs(10));
  EXPECT_EQ(run.finish(c), Time::FromUs(20));
  EXPECT_EQ(run.finish(d), Time::FromUs(10));
  EXPECT_EQ(run.executor->finish_time(), Time::FromUs(20));
}

TEST(JobExecutor, AStragglerStretchesItsKernelsInsideItsWindow) {
  // GPU 1 at half speed from 15 us on. GPU 0 and 1 each run two 10 us
  // kernels in a row. GPU 0: 10, 20. GPU 1: the first ends at 10 (before
  // the window); the second does 5 us of work by 15, the other 5 at half
  // speed take 10: ends at 25. The next kernel of GPU 0 is not slowed.
  JobGraphBuilder b;
  const JobNodeIndex a0 = b.AddCompute(0, Time::FromUs(10), 1, 0);
  const JobNodeIndex a1 = b.AddCompute(0, Time::FromUs(10), 1, 0);
  const JobNodeIndex b0 = b.AddCompute(1, Time::FromUs(10), 1, 0);
  const JobNodeIndex b1 = b.AddCompute(1, Time::FromUs(10), 1, 0);
  JobExecutorOptions o;
  o.slowdowns = ComputeSlowdowns({{1, Time::FromUs(15), Time::Infinite(), 0.5}});
  JobRun run(std::move(b).Build().value(), o);
  ASSERT_TRUE(run.status.ok());
  EXPECT_EQ(run.finish(a0), Time::FromUs(10));
  EXPECT_EQ(run.finish(a1), Time::FromUs(20));
  EXPECT_EQ(run.finish(b0), Time::FromUs(10));
  EXPECT_EQ(run.begin(b1), Time::FromUs(10));
  EXPECT_EQ(run.finish(b1), Time::FromUs(25));
}

TEST(JobExecutor, CommunicationRunsBesideComputeAndChainsAddUp) {
  // GPU 0: a 100 us kernel. Meanwhile a transfer 4 -> 5 of 1 MB (1 us +
  // 80 us). Then, after the kernel, a transfer 0 -> 4 of 1 MB, then a
  // 20 us kernel on 4: 100 + 81 + 20 = 201 us.
  JobGraphBuilder b;
  const JobNodeIndex k0 = b.AddCompute(0, Time::FromUs(100), 1e9, 0);
  const JobNodeIndex side = b.AddTransfer(4, 5, 1'000'000, CommDimension::kData, 0);
  const JobNodeIndex send = b.AddTransfer(0, 4, 1'000'000, CommDimension::kPipeline, 0);
  const JobNodeIndex k4 = b.AddCompute(4, Time::FromUs(20), 1e9, 0);
  b.AddEdge(k0, send);
  b.AddEdge(send, k4);
  JobRun run(std::move(b).Build().value());
  ASSERT_TRUE(run.status.ok());
  EXPECT_EQ(run.finish(side), Time::FromUs(81));
  EXPECT_EQ(run.finish(k4), Time::FromUs(201));
  // GPU 0: computes 100 us, then its send is exposed for 81 us, then idle
  // 20 us. GPU 4: the side transfer 81 us (exposed: nothing computes),
  // idle 19, the send 81 exposed, computes 20. GPU 5: 81 exposed, idle
  // 120. Means over 3 GPUs: compute (100 + 20) / 3; pipeline exposed
  // (81 + 81) / 3; data exposed (81 + 81) / 3; idle (20 + 19 + 120) / 3.
  const JobMetrics m = run.metrics();
  EXPECT_EQ(m.gpus, 3);
  EXPECT_EQ(m.makespan, Time::FromUs(201));
  EXPECT_NEAR(m.compute_s * 1e6, 120.0 / 3, 1e-6);
  EXPECT_NEAR(m.exposed_s[static_cast<size_t>(CommDimension::kPipeline)] * 1e6, 162.0 / 3, 1e-6);
  EXPECT_NEAR(m.exposed_s[static_cast<size_t>(CommDimension::kData)] * 1e6, 162.0 / 3, 1e-6);
  EXPECT_NEAR(m.idle_s * 1e6, 159.0 / 3, 1e-6);
  EXPECT_NEAR(m.effective_utilization, (120.0 / 3) / 201, 1e-9);
  EXPECT_DOUBLE_EQ(m.flops, 2e9);
}

TEST(JobExecutor, ACollectiveOverAGroupTakesItsClosedForm) {
  // Ring all-reduce of S = 4 MiB over GPUs 0, 1, 4, 5 (two per server),
  // one channel, Simple, no reduce cost, PXN off (every hop one transfer).
  // The ring 0 -> 1 -> 4 -> 5 -> 0 alternates NVLink steps (3.4 us of step
  // latency) and NET steps (14 us); each step waits for the previous one's
  // arrival from the ring neighbour, so any chain of the 2(n-1) = 6 steps
  // has 3 of each. After the Simple base latency (8.4 us):
  // 8.4 + 3 (alpha + 3.4 + S/(nB)) + 3 (alpha + 14 + S/(nB)) us.
  JobGraphBuilder b;
  const uint32_t g = b.AddGroup({0, 1, 4, 5});
  const uint64_t s = 4 << 20;
  const JobNodeIndex ar = b.AddCollective(CollectiveOp::kAllReduce, g, s, CommDimension::kData, 0);
  JobExecutorOptions o = OneChannel();
  o.pxn = false;
  JobRun run(std::move(b).Build().value(), o);
  ASSERT_TRUE(run.status.ok());
  const Time beta = kRate.TransmitTime(s / 4);
  const Time expected = Time::FromNs(8400) + (kAlpha + Time::FromNs(3400) + beta) * 3 +
                        (kAlpha + Time::FromUs(14) + beta) * 3;
  EXPECT_EQ(run.finish(ar), expected);
  // While it runs every GPU of the group is exposed to data-parallel
  // communication and computes nothing.
  const JobMetrics m = run.metrics();
  EXPECT_EQ(m.gpus, 4);
  EXPECT_NEAR(m.exposed_s[static_cast<size_t>(CommDimension::kData)], expected.us_f() * 1e-6, 1e-12);
  EXPECT_EQ(m.effective_utilization, 0);
}

TEST(JobExecutor, OverlappedCommunicationIsNotExposed) {
  // A 1 ms kernel on each of GPUs 0 and 1 beside an all-gather of 64 KiB
  // among them: the collective ends long before the kernels, so nothing is
  // exposed and utilization is 1 for GPUs that compute useful FLOPs.
  JobGraphBuilder b;
  const uint32_t g = b.AddGroup({0, 1});
  b.AddCompute(0, Time::FromMs(1), 1e12, 0);
  b.AddCompute(1, Time::FromMs(1), 1e12, 0);
  b.AddCollective(CollectiveOp::kAllGather, g, 64 << 10, CommDimension::kTensor, 0);
  JobRun run(std::move(b).Build().value(), OneChannel());
  const JobMetrics m = run.metrics();
  EXPECT_EQ(m.makespan, Time::FromMs(1));
  EXPECT_EQ(m.exposed_total_s(), 0);
  EXPECT_GT(m.comm_s[static_cast<size_t>(CommDimension::kTensor)], 0);
  EXPECT_DOUBLE_EQ(m.effective_utilization, 1.0);
}

TEST(JobExecutor, EmptyCollectivesAndZeroByteTransfersFinishAtOnce) {
  // A chain of 10,000 zero-time nodes costs no stack and no time.
  JobGraphBuilder b;
  const uint32_t solo = b.AddGroup({3});
  JobNodeIndex previous = kNoJobNode;
  for (int i = 0; i < 10000; ++i) {
    const JobNodeIndex n = i % 2 == 0 ? b.AddCollective(CollectiveOp::kAllReduce, solo, 1024, CommDimension::kTensor, 0)
                                      : b.AddTransfer(2, 3, 0, CommDimension::kPipeline, 0);
    b.AddEdge(previous, n);
    previous = n;
  }
  JobRun run(std::move(b).Build().value());
  ASSERT_TRUE(run.status.ok());
  EXPECT_TRUE(run.executor->done());
  EXPECT_EQ(run.executor->finish_time(), Time::Zero());
}

TEST(JobExecutor, ANodeLimitLeavesTheBackgroundNodesOut) {
  // A 100 us kernel on GPU 0, then a 1 MB send 0 -> 4 (81 us); a
  // background write 1 -> 5 of 2 MB (161 us) after them, with no edges.
  // All of it: done at 161 us. With node_limit 2: the write never starts,
  // the run is done when the send is (181 us), and the metrics, timed on
  // the first two nodes, count nothing of it.
  const auto graph = [] {
    JobGraphBuilder b;
    const JobNodeIndex k = b.AddCompute(0, Time::FromUs(100), 1e9, 0);
    const JobNodeIndex send = b.AddTransfer(0, 4, 1'000'000, CommDimension::kPipeline, 0);
    b.AddEdge(k, send);
    b.AddTransfer(1, 5, 2'000'000, CommDimension::kStorage, 0);
    return std::move(b).Build().value();
  };
  JobRun all(graph());
  ASSERT_TRUE(all.status.ok());
  EXPECT_EQ(all.finish(2), Time::FromUs(161));
  EXPECT_EQ(all.executor->finish_time(), Time::FromUs(181));
  JobExecutorOptions o;
  o.node_limit = 2;
  JobRun step(graph(), o);
  ASSERT_TRUE(step.status.ok());
  EXPECT_TRUE(step.executor->done());
  EXPECT_EQ(step.executor->run_nodes(), 2u);
  EXPECT_EQ(step.executor->finished(), 2u);
  EXPECT_EQ(step.finish(1), Time::FromUs(181));
  EXPECT_TRUE(step.begin(2).IsInfinite());
  EXPECT_EQ(step.executor->flow_ids_used(), 1u);  // the send's only
  const JobMetrics m = ComputeJobMetrics(step.graph, step.executor->node_start(), step.executor->node_finish(), 0, 2);
  EXPECT_EQ(m.makespan, Time::FromUs(181));
  EXPECT_EQ(m.gpus, 2);  // GPUs 0 and 4
  EXPECT_EQ(m.comm_s[static_cast<size_t>(CommDimension::kStorage)], 0);
  // With the write (timed on the same two nodes), GPUs 1 and 5 count its
  // 161 us of storage traffic within the 181: 2 x 161 / 4 GPUs per GPU.
  const JobMetrics with = ComputeJobMetrics(all.graph, all.executor->node_start(), all.executor->node_finish(), 0, 2);
  EXPECT_EQ(with.makespan, Time::FromUs(181));
  EXPECT_EQ(with.gpus, 4);
  EXPECT_NEAR(with.comm_s[static_cast<size_t>(CommDimension::kStorage)] * 1e6, 2 * 161.0 / 4, 1e-6);
}

TEST(JobExecutor, ANodeLimitRefusesANodeThatWaitsOnOneLeftOut) {
  // Node 0 depends on node 1, past a limit of 1: it could never start.
  JobGraphBuilder b;
  const JobNodeIndex k = b.AddCompute(0, Time::FromUs(10), 0, b.AddLabel("kernel"));
  const JobNodeIndex late = b.AddTransfer(1, 5, 1000, CommDimension::kStorage, 0);
  b.AddEdge(late, k);
  JobExecutorOptions o;
  o.node_limit = 1;
  JobRun run(std::move(b).Build().value(), o);
  ASSERT_FALSE(run.status.ok());
  EXPECT_NE(run.status.error().message.find("job node 0 (kernel): depends on node 1, past the executor's 1 nodes"),
            std::string::npos)
      << run.status.error().message;
}

TEST(JobExecutor, GroupsMustFitTheCluster) {
  JobGraphBuilder b;
  b.AddCollective(CollectiveOp::kAllReduce, b.AddGroup({0, 1, 4}), 1024, CommDimension::kData, 0);
  JobRun uneven(std::move(b).Build().value());
  ASSERT_FALSE(uneven.status.ok());
  EXPECT_NE(uneven.status.error().message.find("uneven"), std::string::npos);
  JobGraphBuilder c;
  c.AddCompute(8, Time::FromUs(1), 0, c.AddLabel("too far"));
  JobRun beyond(std::move(c).Build().value());
  ASSERT_FALSE(beyond.status.ok());
  EXPECT_NE(beyond.status.error().message.find("too far"), std::string::npos);
}

TEST(JobExecutor, ACollectiveTooLargeToRunStepByStepStopsTheRunWithAnError) {
  // A ring of 8 takes 3 x 8 x 7 = 168 nodes a chunk: under a limit of 100
  // not one chunk fits, for the algorithm and for the ring fallback alike
  // (finer chunks are aggregated; fewer than one cannot be).
  JobGraphBuilder b;
  b.AddCollective(CollectiveOp::kAllReduce, b.AddGroup({0, 1, 2, 3, 4, 5, 6, 7}), 1ull << 30, CommDimension::kData,
                  b.AddLabel("huge bucket"));
  JobExecutorOptions o = OneChannel();
  o.chunk_bytes = 64;
  o.max_dag_nodes = 100;
  JobRun run(std::move(b).Build().value(), o);
  ASSERT_TRUE(run.status.ok());
  EXPECT_FALSE(run.executor->done());
  ASSERT_TRUE(run.executor->error().has_value());
  const std::string& m = run.executor->error()->message;
  EXPECT_NE(m.find("huge bucket"), std::string::npos) << m;
  EXPECT_NE(m.find("step by step"), std::string::npos) << m;
}

}  // namespace
}  // namespace aifabric
