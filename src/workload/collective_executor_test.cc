#include "workload/collective_executor.h"

#include <gtest/gtest.h>

#include <set>
#include <vector>

#include "workload/alpha_beta_network.h"
#include "workload/collective_algorithms.h"

namespace aifabric {
namespace {

using testing::AlphaBetaNetwork;

using testing::kAlpha;
using testing::kRate;
constexpr uint64_t kOneMiB = 1 << 20;

struct RunResult {
  Time duration;
  size_t network_transfers = 0;
};

// Runs `o` with rank r on node r (or all on node 0 when `one_node`).
RunResult Execute(const CollectiveOptions& o, DataRate reduce_rate = DataRate(), bool one_node = false,
            DataRate local_rate = DataRate::Gbps(800), Time local_latency = Time::Zero()) {
  Result<CollectiveDag> dag = BuildCollective(o);
  EXPECT_TRUE(dag.ok()) << dag.error().message;
  Simulator sim(1);
  AlphaBetaNetwork network(sim, kAlpha, kRate);
  FixedRateLocalTransfers local(sim, local_rate, local_latency);
  std::vector<NodeId> nodes;
  for (int32_t r = 0; r < dag->num_ranks(); ++r) nodes.push_back(one_node ? 0 : r);
  CollectiveExecutorOptions options;
  options.reduce_rate = reduce_rate;
  options.first_flow_id = 1000;
  CollectiveExecutor executor(sim, network, local, *dag, nodes, options);
  network.SetObserver(&executor);
  local.SetObserver(&executor);
  EXPECT_TRUE(executor.Start().ok());
  sim.Run();
  EXPECT_TRUE(executor.done());
  for (DagNodeIndex i = 0; i < dag->size(); ++i) {
    EXPECT_LE(executor.node_start()[i], executor.node_finish()[i]);
    for (DagNodeIndex s : dag->successors(i)) EXPECT_LE(executor.node_finish()[i], executor.node_start()[s]);
  }
  return {executor.duration(), network.ids.size()};
}

CollectiveOptions ExecutorOptions(CollectiveOp op, int32_t n, CollectiveAlgorithm algorithm = CollectiveAlgorithm::kDefault) {
  CollectiveOptions o;
  o.op = op;
  o.algorithm = algorithm;
  o.ranks = n;
  o.bytes = kOneMiB;
  // No protocol latencies: the closed forms below are the network's own.
  o.step_latency = o.net_step_latency = o.base_latency = Time::Zero();
  return o;
}

Time Beta(uint64_t bytes) { return kRate.TransmitTime(bytes); }

// Ring AllReduce: 2(n-1) steps of alpha + S/(nB).
TEST(CollectiveExecutorTest, RingAllReduceTakesTheAlphaBetaTime) {
  for (int32_t n : {2, 4, 8}) {
    const RunResult run = Execute(ExecutorOptions(CollectiveOp::kAllReduce, n));
    EXPECT_EQ(run.duration, (kAlpha + Beta(kOneMiB / n)) * (2 * (n - 1))) << n;
    EXPECT_EQ(run.network_transfers, static_cast<size_t>(2 * n * (n - 1)));
  }
  // A per-step latency lambda adds to every step: 2(n-1)(alpha + lambda +
  // S/(nB)). One rank per server: every step is a NET step.
  CollectiveOptions o = ExecutorOptions(CollectiveOp::kAllReduce, 4);
  o.net_step_latency = Time::FromNs(500);
  EXPECT_EQ(Execute(o).duration, (kAlpha + Time::FromNs(500) + Beta(kOneMiB / 4)) * 6);
}

// K chunks, one transfer at a time per connection: every link is busy in
// every step already, so pipelining cannot overlap anything in a ring; it
// pays alpha per chunk-step: 2(n-1) * (K alpha + S/(nB)).
TEST(CollectiveExecutorTest, ChunkedRingAllReducePaysAlphaPerChunk) {
  CollectiveOptions o = ExecutorOptions(CollectiveOp::kAllReduce, 4);
  o.chunk_bytes = kOneMiB / 8;
  o.connection_window = 1;
  EXPECT_EQ(Execute(o).duration, (kAlpha * 8 + Beta(kOneMiB / 4)) * 6);
}

// With a window as deep as a connection's whole issue (8 chunks x 6 steps)
// the chunks overlap their latencies; in this network without contention
// each chunk then runs its own 2(n-1) steps alone:
// 2(n-1) * (alpha + S/(nKB)).
TEST(CollectiveExecutorTest, AConnectionWindowOverlapsTheChunks) {
  CollectiveOptions o = ExecutorOptions(CollectiveOp::kAllReduce, 4);
  o.chunk_bytes = kOneMiB / 8;
  o.connection_window = 48;
  EXPECT_EQ(Execute(o).duration, (kAlpha + Beta(kOneMiB / 32)) * 6);
}

// Recursive halving-doubling: 2 log2(n) alpha + 2(n-1)/n * S/B.
TEST(CollectiveExecutorTest, HalvingDoublingTakesTheAlphaBetaTime) {
  const RunResult run = Execute(ExecutorOptions(CollectiveOp::kAllReduce, 8, CollectiveAlgorithm::kHalvingDoubling));
  EXPECT_EQ(run.duration, kAlpha * 6 + (Beta(kOneMiB / 2) + Beta(kOneMiB / 4) + Beta(kOneMiB / 8)) * 2);  // halves, then back
  EXPECT_EQ(run.duration, kAlpha * 6 + Beta(2 * 7 * kOneMiB / 8));
}

// Pipelined chain broadcast, K chunks of S/K: the last chunk leaves the
// root after K-1 chunk times and needs n-1 hops:
// (n-1 + K-1) * (alpha + S/(KB)).
TEST(CollectiveExecutorTest, PipelinedBroadcastTakesNPlusKMinus2Steps) {
  CollectiveOptions o = ExecutorOptions(CollectiveOp::kBroadcast, 5);
  o.root = 3;
  o.chunk_bytes = kOneMiB / 16;
  o.connection_window = 1;
  EXPECT_EQ(Execute(o).duration, (kAlpha + Beta(kOneMiB / 16)) * (4 + 15));
}

// Past the DAG's node limit, k chunks move as one (CollectiveOptions::
// max_dag_nodes): the same closed forms with K/k chunks of S/K. Ring
// AllReduce, n = 4, 8 chunks of S/8, a window of 1: 36 nodes a chunk, so a
// limit of 72 leaves 2 chunks (k = 4): 2(n-1)(2 alpha + S/(nB)) instead of
// 2(n-1)(8 alpha + S/(nB)). The broadcast over 5 ranks, 16 chunks of S/16
// (4 nodes each) under a limit of 32: 8 chunks of S/8, (n-1 + 8-1)(alpha +
// S/(8B)).
TEST(CollectiveExecutorTest, AggregatedChunksTakeTheClosedFormOfFewerChunks) {
  CollectiveOptions o = ExecutorOptions(CollectiveOp::kAllReduce, 4);
  o.chunk_bytes = kOneMiB / 8;
  o.connection_window = 1;
  o.max_dag_nodes = 72;
  EXPECT_EQ(Execute(o).duration, (kAlpha * 2 + Beta(kOneMiB / 4)) * 6);
  o = ExecutorOptions(CollectiveOp::kBroadcast, 5);
  o.root = 3;
  o.chunk_bytes = kOneMiB / 16;
  o.connection_window = 1;
  o.max_dag_nodes = 32;
  const RunResult run = Execute(o);
  EXPECT_EQ(run.duration, (kAlpha + Beta(kOneMiB / 8)) * (4 + 7));
  EXPECT_EQ(run.network_transfers, 4u * 8);
}

// Double binary tree over 4 ranks: each tree is 2 levels deep (tree 0:
// 1, 3 -> 2 -> 0), carries S/2 and runs beside the other tree (another
// channel): 2 hops up + 2 down of alpha + S/(2B).
TEST(CollectiveExecutorTest, DoubleBinaryTreeTakesTwiceTheDepth) {
  EXPECT_EQ(Execute(ExecutorOptions(CollectiveOp::kAllReduce, 4, CollectiveAlgorithm::kTree)).duration,
            (kAlpha + Beta(kOneMiB / 2)) * 4);
}

// Reductions at rate R: each reduce-scatter step is transfer then reduce:
// (n-1)(alpha + S/(nB) + S/(nR)).
TEST(CollectiveExecutorTest, ReductionsTakeBytesOverTheReduceRate) {
  const DataRate reduce = DataRate::Gbps(400);
  EXPECT_EQ(Execute(ExecutorOptions(CollectiveOp::kReduceScatter, 4), reduce).duration,
            (kAlpha + Beta(kOneMiB / 4) + reduce.TransmitTime(kOneMiB / 4)) * 3);
}

// Ranks on one node use the local-transfer model, never the network:
// sendrecv = latency + S / local rate.
TEST(CollectiveExecutorTest, SameNodeTransfersGoThroughTheLocalModel) {
  const DataRate nvlink = DataRate::Gbps(3600);
  const Time latency = Time::FromNs(700);
  const RunResult run = Execute(ExecutorOptions(CollectiveOp::kSendRecv, 2), DataRate(), true, nvlink, latency);
  EXPECT_EQ(run.duration, latency + nvlink.TransmitTime(kOneMiB));
  EXPECT_EQ(run.network_transfers, 0u);
  // NVLS on one server of L = 4 (GPUs and the switch on node 0): upload S,
  // the reduced S/L slice back, the slice up again, then the L-1 other
  // slices multicast into each GPU, one after another on its connection
  // from the switch (a window of 1): 3 + (L-1) steps, S + (2 + L-1) * S/L
  // bytes.
  CollectiveOptions o = ExecutorOptions(CollectiveOp::kAllReduce, 4, CollectiveAlgorithm::kNvls);
  o.ranks_per_server = 4;
  o.connection_window = 1;
  EXPECT_EQ(Execute(o, DataRate(), true, nvlink, latency).duration,
            latency * 6 + nvlink.TransmitTime(kOneMiB) + nvlink.TransmitTime(kOneMiB / 4) * 5);
}

TEST(CollectiveExecutorTest, EmptyDagIsDoneAtOnceAndBadMappingsAreErrors) {
  EXPECT_EQ(Execute(ExecutorOptions(CollectiveOp::kAllReduce, 1)).duration, Time::Zero());
  Result<CollectiveDag> dag = BuildCollective(ExecutorOptions(CollectiveOp::kAllReduce, 4));
  ASSERT_TRUE(dag.ok());
  Simulator sim(1);
  AlphaBetaNetwork network(sim, kAlpha, kRate);
  FixedRateLocalTransfers local(sim, kRate, Time::Zero());
  CollectiveExecutor executor(sim, network, local, *dag, {0, 1, 2}, {});
  Status status = executor.Start();
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message, "collective: 4 ranks need a node each, got 3");
}

}  // namespace
}  // namespace aifabric
