// The coflow form of a collective against its step DAG (the same bytes
// between the same ranks) and against NCCL's step counts worked by hand.
#include "workload/collective_coflow.h"

#include <gtest/gtest.h>

#include <numeric>

namespace aifabric {
namespace {

CollectiveOptions CoflowOptions(CollectiveOp op, CollectiveAlgorithm algorithm, int32_t ranks, int32_t per_server,
                          int32_t channels, bool pxn) {
  CollectiveOptions o;
  o.op = op;
  o.algorithm = algorithm;
  o.ranks = ranks;
  o.ranks_per_server = per_server;
  o.bytes = 3'000'007;  // not a multiple of anything, so slices differ by a byte
  o.channels = channels;
  o.pxn = pxn;
  return o;
}

TEST(CollectiveCoflow, EveryRankSendsWhatItsStepDagSends) {
  // One chunk per channel, so the DAG's slices are the coflow's; PXN on and
  // off; every op with a coflow form.
  const CollectiveOp ops[] = {CollectiveOp::kAllReduce, CollectiveOp::kAllGather, CollectiveOp::kReduceScatter,
                              CollectiveOp::kBroadcast, CollectiveOp::kReduce, CollectiveOp::kSendRecv};
  for (bool pxn : {false, true}) {
    for (CollectiveOp op : ops) {
      const CollectiveOptions o = CoflowOptions(op, CollectiveAlgorithm::kRing, 8, 4, 3, pxn);
      Result<CollectiveDag> dag = BuildCollective(o);
      Result<CollectiveCoflow> coflow = BuildCollectiveCoflow(o);
      ASSERT_TRUE(dag.ok() && coflow.ok());
      EXPECT_EQ(coflow->WireBytesSentPerRank(), dag->WireBytesSentPerRank()) << CollectiveOpName(op) << " pxn " << pxn;
    }
    const CollectiveOptions a2a = CoflowOptions(CollectiveOp::kAllToAll, CollectiveAlgorithm::kPairwise, 8, 4, 2, pxn);
    Result<CollectiveDag> a2a_dag = BuildCollective(a2a);
    Result<CollectiveCoflow> a2a_coflow = BuildCollectiveCoflow(a2a);
    ASSERT_TRUE(a2a_dag.ok() && a2a_coflow.ok());
    EXPECT_EQ(a2a_coflow->WireBytesSentPerRank(), a2a_dag->WireBytesSentPerRank()) << "alltoall pxn " << pxn;
    const CollectiveOptions tree = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kTree, 16, 4, 2, pxn);
    Result<CollectiveDag> dag = BuildCollective(tree);
    Result<CollectiveCoflow> coflow = BuildCollectiveCoflow(tree);
    ASSERT_TRUE(dag.ok() && coflow.ok());
    EXPECT_EQ(coflow->WireBytesSentPerRank(), dag->WireBytesSentPerRank()) << "tree pxn " << pxn;
  }
}

TEST(CollectiveCoflow, ARingAllReduceChainsNcclsTwoTimesNMinusOneSteps) {
  // One server of 4 GPUs, one channel, Simple: 2(n-1) = 6 NVLink steps of
  // 3.4 us on the chain (2(n-1)/n = 1.5 per edge), 8.4 us of base latency,
  // one step of fill. One chunk: the chain's transmission is one drain (K
  // = 6 steps x a sixth of an edge's bytes) and all of it the connections'
  // own work (F = 0).
  CollectiveOptions o = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 4, 4, 1, false);
  o.bytes = 4'000'000;
  Result<CollectiveCoflow> c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->edges.size(), 4u);
  double weights = 0;
  for (const CollectiveCoflowEdge& e : c->edges) {
    EXPECT_EQ(e.wire_bytes, 6'000'000u);  // 2(n-1)/n x S
    EXPECT_DOUBLE_EQ(e.latency_weight, 1.5);
    weights += e.latency_weight;
  }
  EXPECT_DOUBLE_EQ(weights, 6.0);
  const ProtocolSpec simple = GetProtocolSpec(CollectiveProtocol::kSimple);
  EXPECT_EQ(c->timing.chain, simple.step_latency * 6);
  EXPECT_EQ(c->timing.latency, simple.base_latency);
  EXPECT_EQ(c->timing.fill, simple.step_latency);
  EXPECT_NEAR(c->timing.depth, 1.0, 1e-12);
  EXPECT_NEAR(c->timing.fill_depth, 0.0, 1e-12);
  EXPECT_EQ(c->reduce_chain_bytes, 3 * 1'000'000u);  // n-1 reductions of a slice
  // Four chunks: the chain moves one of them, a quarter of the drain.
  o.chunk_bytes = 1'000'000;
  c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->timing.depth, 0.25, 1e-12);
  EXPECT_NEAR(c->timing.fill_depth, 0.0, 1e-12);
}

TEST(CollectiveCoflow, ARingOfOneChunkPerChannelPaysItsStepsAndItsDrain) {
  // One server of 8 A100s (240 GB/s of NVLink each way), 16 MiB, 8
  // channels of 2 MiB: NCCL's ring chunk is 8 x 2 MiB a channel, so each
  // channel moves one chunk and every step waits for the one before it.
  // The channels share every NVLink edge (each channel's ring visits the
  // GPUs in the same cyclic order), so a step of 2 MiB / 8 goes at an
  // eighth of the link: the chain's 14 steps take 14 x 3.4 us plus all of
  // D = 2 x 7/8 x 16 MiB / 240 GB/s = 122.333 us, with the 8.4 us base:
  // 178.333 us, NCCL's tuner's latency + bytes / bandwidth. (A chain whose
  // steps had the whole link would hide the latencies behind D: 134.1 us.)
  CollectiveOptions o = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 8, 8, 8, false);
  o.bytes = 16 << 20;
  o.chunk_bytes = NcclChunkBytes(o.op, o.algorithm, o.ranks);
  Result<CollectiveCoflow> c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->timing.depth, 1.0, 1e-12);
  EXPECT_NEAR(c->timing.fill_depth, 0.0, 1e-12);
  const double drain_us = 2 * 7.0 / 8 * (16 << 20) / 240e3;
  const Time t = EstimateCoflowTime(*c, 8, DataRate::Gbps(1920), DataRate::Gbps(100), DataRate());
  EXPECT_NEAR(t.us_f(), 8.4 + 14 * 3.4 + drain_us, 1e-3);
  // 1 GiB: 8 chunks of 16 MiB a channel, the chain one of them; the drain
  // and one step bound it: 8.4 + 3.4 us + D.
  o.bytes = 1ull << 30;
  c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->timing.depth, 1.0 / 8, 1e-12);
  EXPECT_NEAR(EstimateCoflowTime(*c, 8, DataRate::Gbps(1920), DataRate::Gbps(100), DataRate()).us_f(),
              8.4 + 3.4 + 2 * 7.0 / 8 * (1 << 30) / 240e3, 1e-3);
}

TEST(CollectiveCoflow, ARingAcrossServersKeepsTheWholeEdgePerStep) {
  // 2 servers x 4 GPUs, 4 channels, 16 MiB, one chunk a channel, no PXN:
  // channel c's ring crosses from GPU c-1 of a server to GPU c of the
  // other, so each network edge carries one channel's 7 MiB and each
  // NVLink edge three channels' 21 MiB. Its chain mixes NVLink and network
  // steps, whose channels run out of step (each held at its own network
  // crossing): a step has the whole edge's rate, an eighth of each edge's
  // slice: K = 2/8 (network) + 6/24 (NVLink) = 0.5, with or without rates.
  // The drain then bounds it: 8.4 us + D (7 MiB at 100G) + one 14 us step.
  CollectiveOptions o = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 8, 4, 4, false);
  o.bytes = 16 << 20;
  o.chunk_bytes = NcclChunkBytes(o.op, o.algorithm, o.ranks);
  const CoflowLinkRates rates{DataRate::Gbps(3600), DataRate::Gbps(100)};
  Result<CollectiveCoflow> c = BuildCollectiveCoflow(o, rates);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->timing.depth, 0.5, 1e-9);
  const double drain_us = 7.0 * (1 << 20) * 8 / 100e3;
  EXPECT_NEAR(EstimateCoflowTime(*c, 4, rates.nvlink, rates.network, DataRate()).us_f(), 8.4 + drain_us + 14, 1e-3);
  // Four servers of one GPU: every edge a network one, all four channels
  // on each in lockstep: each chain step at a quarter of the edge, K = 1.
  o = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 4, 1, 4, false);
  o.bytes = 16 << 20;
  o.chunk_bytes = NcclChunkBytes(o.op, o.algorithm, o.ranks);
  c = BuildCollectiveCoflow(o, rates);
  ASSERT_TRUE(c.ok());
  EXPECT_NEAR(c->timing.depth, 1.0, 1e-9);
}

TEST(CollectiveCoflow, ATreeChainsUpAndDownItsDeepestBranch) {
  // 4 servers x 2 GPUs, one channel: tree 0 over servers is 0 - 1 - {2, 3}
  // (depth 2 for server 3: NCCL's binary tree), each server a chain of 2.
  // The deepest rank is server 3's second GPU: up 1 NVLink + 2 network
  // steps, and down again: 2 x (3.4 + 2 x 14) us, Simple.
  CollectiveOptions o = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kTree, 8, 2, 1, false);
  o.bytes = 8'000'000;
  Result<CollectiveCoflow> c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  const ProtocolSpec simple = GetProtocolSpec(CollectiveProtocol::kSimple);
  EXPECT_EQ(c->timing.chain, (simple.step_latency + simple.net_step_latency * 2) * 2);
  EXPECT_EQ(c->timing.fill, simple.net_step_latency);
  // A chunk takes 6 steps on the chain but one on any connection: fill.
  EXPECT_GT(c->timing.fill_depth, 0.0);
  EXPECT_LT(c->timing.fill_depth, c->timing.depth);
}

TEST(CollectiveCoflow, OnlyRingsAndTreesHaveTheForm) {
  EXPECT_TRUE(HasCoflowForm(CollectiveOp::kAllGather, CollectiveAlgorithm::kDefault));
  EXPECT_TRUE(HasCoflowForm(CollectiveOp::kAllReduce, CollectiveAlgorithm::kTree));
  EXPECT_FALSE(HasCoflowForm(CollectiveOp::kAllReduce, CollectiveAlgorithm::kNvls));
  EXPECT_TRUE(HasCoflowForm(CollectiveOp::kAllToAll, CollectiveAlgorithm::kDefault));
  EXPECT_FALSE(HasCoflowForm(CollectiveOp::kAllReduce, CollectiveAlgorithm::kHierarchical));
  Result<CollectiveCoflow> c =
      BuildCollectiveCoflow(CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 8, 4, 1, false));
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("halving_doubling has no coflow form"), std::string::npos);
}

TEST(CollectiveCoflow, SixteenThousandRanksAreSixteenThousandEdgesPerChannel) {
  CollectiveOptions o = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 16384, 8, 1, false);
  o.bytes = 1ull << 30;
  Result<CollectiveCoflow> c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->edges.size(), 16384u);
  const double weights = std::accumulate(c->edges.begin(), c->edges.end(), 0.0,
                                         [](double a, const CollectiveCoflowEdge& e) { return a + e.latency_weight; });
  EXPECT_NEAR(weights, 2.0 * 16383, 1e-6);
}

TEST(CollectiveCoflow, TheEstimateIsTheLongerOfChainAndDrain) {
  // Ring AllReduce of 4 MB over 4 servers, one GPU each, one channel,
  // Simple, 100G: every edge moves 2 x 3/4 x 4 MB = 6 MB, D = 480 us; one
  // chunk (8 MiB per channel), so the chain's 6 NET steps of 14 us carry
  // one drain's worth of transmission (K = 1): 84 + 480 = 564 us against
  // D + one step = 494 us; plus 8.4 us of base latency. Reductions free.
  CollectiveOptions o = CoflowOptions(CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 4, 1, 1, false);
  o.bytes = 4'000'000;
  o.chunk_bytes = NcclChunkBytes(o.op, o.algorithm, o.ranks);
  Result<CollectiveCoflow> c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  const Time t = EstimateCoflowTime(*c, 1, DataRate::Gbps(3600), DataRate::Gbps(100), DataRate());
  EXPECT_EQ(t, Time::FromNs(564'000 + 8'400));
  // At 4 KB the chain dominates either way: 6 x 14 + 0.48 + 8.4 us.
  o.bytes = 4'000;
  c = BuildCollectiveCoflow(o);
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(EstimateCoflowTime(*c, 1, DataRate::Gbps(3600), DataRate::Gbps(100), DataRate()),
            Time::FromNs(84'000 + 480 + 8'400));
}

}  // namespace
}  // namespace aifabric
