// ComputeRankWaits on node times written by hand: who the others waited
// on at a collective, at a pipeline edge and at the job's end.
#include "workload/rank_waits.h"

#include <gtest/gtest.h>

#include "workload/workload_test_util.h"

namespace aifabric {
namespace {

using workload_testing::Us;

TEST(RankWaits, TheLastInputOfACollectiveAndOfTheEndHoldsTheOthers) {
  // Three GPUs compute, all-reduce, compute again. GPU 2 is slow:
  //   compute  GPU 0 [0, 10]  GPU 1 [0, 10]  GPU 2 [0, 30]
  //   all-reduce [30, 40]
  //   compute  GPU 0 [40, 50] GPU 1 [40, 50] GPU 2 [40, 60]
  // The all-reduce waits 20 us for GPU 2 (held 30 - 10; waited 20 + 20),
  // the end 10 us (held 60 - 50; waited 10 + 10): held 30, waited 60,
  // last at 2 points. Its compute 50; its peers' 20 each.
  JobGraphBuilder b;
  const uint32_t g = b.AddGroup({0, 1, 2});
  JobNodeIndex first[3], second[3];
  for (GpuId i = 0; i < 3; ++i) first[i] = b.AddCompute(i, Us(10), 1, 0);
  const JobNodeIndex ar = b.AddCollective(CollectiveOp::kAllReduce, g, 1 << 20, CommDimension::kData, 0);
  for (GpuId i = 0; i < 3; ++i) {
    second[i] = b.AddCompute(i, Us(10), 1, 0);
    b.AddEdge(first[i], ar);
    b.AddEdge(ar, second[i]);
  }
  const JobGraph graph = std::move(b).Build().value();
  std::vector<Time> start(graph.size()), finish(graph.size());
  const int64_t first_end[3] = {10, 10, 30}, second_end[3] = {50, 50, 60};
  for (int i = 0; i < 3; ++i) {
    start[first[i]] = Us(0);
    finish[first[i]] = Us(first_end[i]);
    start[second[i]] = Us(40);
    finish[second[i]] = Us(second_end[i]);
  }
  start[ar] = Us(30);
  finish[ar] = Us(40);
  const std::vector<RankWait> w = ComputeRankWaits(graph, start, finish);
  ASSERT_EQ(w.size(), 3u);
  EXPECT_EQ(w[2].held, Us(30));
  EXPECT_EQ(w[2].waited_on, Us(60));
  EXPECT_EQ(w[2].last_at, 2u);
  EXPECT_EQ(w[2].compute, Us(50));
  EXPECT_EQ(w[2].peer_compute, Us(20));
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(w[i].held, Time::Zero());
    EXPECT_EQ(w[i].last_at, 0u);
    EXPECT_EQ(w[i].compute, Us(20));
  }
}

TEST(RankWaits, APipelineSenderHoldsItsReceiverAndTiesHoldNothing) {
  // GPU 1 computes [0, 5] then waits for GPU 0's activation: GPU 0
  // computes [0, 20], sends [20, 25], GPU 1 computes [25, 35]. The edge
  // into GPU 1's second kernel has inputs GPU 1 at 5 and GPU 0 at 20 (the
  // send's start): GPU 0 held it 15 us. The end has GPU 0 at 20 and GPU 1
  // at 35: GPU 1 held it 15 us. GPU 2 and 3 compute [0, 8] each, into a
  // transfer 2 -> 3 beside: a tie at the node after it holds nothing.
  JobGraphBuilder b;
  const JobNodeIndex a = b.AddCompute(0, Us(20), 1, 0);
  const JobNodeIndex send = b.AddTransfer(0, 1, 1 << 20, CommDimension::kPipeline, 0);
  const JobNodeIndex k1 = b.AddCompute(1, Us(5), 1, 0);
  const JobNodeIndex k2 = b.AddCompute(1, Us(10), 1, 0);
  b.AddEdge(a, send);
  b.AddEdge(send, k2);
  b.AddEdge(k1, k2);
  const JobGraph graph = std::move(b).Build().value();
  std::vector<Time> start(graph.size()), finish(graph.size());
  start[a] = Us(0), finish[a] = Us(20);
  start[send] = Us(20), finish[send] = Us(25);
  start[k1] = Us(0), finish[k1] = Us(5);
  start[k2] = Us(25), finish[k2] = Us(35);
  const std::vector<RankWait> w = ComputeRankWaits(graph, start, finish);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0].held, Us(15));
  EXPECT_EQ(w[0].waited_on, Us(15));
  EXPECT_EQ(w[0].peer_compute, Us(15));  // GPU 1's 5 + 10
  EXPECT_EQ(w[1].held, Us(15));
  EXPECT_EQ(w[1].peer_compute, Us(20));

  JobGraphBuilder tie;
  const JobNodeIndex c2 = tie.AddCompute(0, Us(8), 1, 0);
  const JobNodeIndex c3 = tie.AddCompute(1, Us(8), 1, 0);
  const JobNodeIndex t = tie.AddTransfer(0, 1, 1 << 20, CommDimension::kData, 0);
  tie.AddEdge(c2, t);
  tie.AddEdge(c3, t);
  const JobGraph tied = std::move(tie).Build().value();
  const std::vector<Time> s2{Us(0), Us(0), Us(8)}, f2{Us(8), Us(8), Us(9)};
  for (const RankWait& r : ComputeRankWaits(tied, s2, f2)) {
    EXPECT_EQ(r.held, Time::Zero());
    EXPECT_EQ(r.last_at, 0u);
  }
}

}  // namespace
}  // namespace aifabric
