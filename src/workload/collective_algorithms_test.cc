#include "workload/collective_algorithms.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "workload/collective_topology.h"

namespace aifabric {
namespace {

CollectiveOptions Options(CollectiveOp op, int32_t n, uint64_t bytes,
                          CollectiveAlgorithm algorithm = CollectiveAlgorithm::kDefault) {
  CollectiveOptions o;
  o.op = op;
  o.algorithm = algorithm;
  o.ranks = n;
  o.bytes = bytes;
  return o;
}

CollectiveDag Build(const CollectiveOptions& o) {
  Result<CollectiveDag> dag = BuildCollective(o);
  EXPECT_TRUE(dag.ok()) << dag.error().message;
  return dag.ok() ? std::move(dag).value() : CollectiveDag();
}

// Every GPU rank sends exactly `expected` payload bytes.
void ExpectEveryGpuSends(const CollectiveDag& dag, uint64_t expected) {
  const std::vector<uint64_t> sent = dag.BytesSentPerRank();
  for (int32_t r = 0; r < dag.num_gpu_ranks(); ++r) EXPECT_EQ(sent[static_cast<size_t>(r)], expected) << "rank " << r;
}

uint64_t SentInPhase(const CollectiveDag& dag, CollectiveRank rank, DagPhase phase) {
  uint64_t sum = 0;
  for (const DagNode& n : dag.nodes()) {
    if (n.is_transfer() && n.src == rank && n.phase == phase) sum += n.bytes;
  }
  return sum;
}

constexpr uint64_t kS = 3 * 1024 * 1024;  // divisible by 2..8 ranks x 4 channels x 4 chunks

// Ring AllReduce: reduce-scatter then all-gather, each n-1 steps of S/n:
// 2(n-1)/n * S per rank, 2(n-1) sequential steps per chunk.
TEST(CollectiveAlgorithmsTest, RingAllReduceSendsTwoNMinusOneOverNPerRankIn2NMinus1Steps) {
  for (int32_t n : {2, 3, 4, 8}) {
    const CollectiveDag dag = Build(Options(CollectiveOp::kAllReduce, n, kS));
    ExpectEveryGpuSends(dag, 2 * (n - 1) * kS / n);
    EXPECT_EQ(dag.LongestTransferChain(), 2u * (n - 1)) << n;
    EXPECT_EQ(dag.CountTransfers(), 2u * n * (n - 1));
  }
  // Channels and chunks split the bytes, not the per-rank total; with K
  // chunks per channel the connection carries 2(n-1) steps per chunk, one
  // after another when it holds one transfer at a time.
  CollectiveOptions o = Options(CollectiveOp::kAllReduce, 4, kS);
  o.channels = 4;
  o.chunk_bytes = kS / 16;  // 4 chunks per channel
  o.ranks_per_server = 2;
  o.connection_window = 1;
  const CollectiveDag dag = Build(o);
  ExpectEveryGpuSends(dag, 2 * 3 * kS / 4);
  EXPECT_EQ(dag.LongestTransferChain(), 2u * 3 * 4);
  // With room for every chunk at once, only the data order remains: each
  // chunk's 2(n-1) steps.
  o.connection_window = 4 * 6;
  EXPECT_EQ(Build(o).LongestTransferChain(), 2u * 3);
}

TEST(CollectiveAlgorithmsTest, NcclChunksAreTwoMebibytesPerRankSliceInRingsElse512KiB) {
  // Ring AllReduce on 16 ranks: 16 x 2 MiB per channel chunk; the tree and
  // a broadcast move 512 KiB steps.
  EXPECT_EQ(NcclChunkBytes(CollectiveOp::kAllReduce, CollectiveAlgorithm::kDefault, 16), 32u << 20);
  EXPECT_EQ(NcclChunkBytes(CollectiveOp::kAllGather, CollectiveAlgorithm::kRing, 4), 8u << 20);
  EXPECT_EQ(NcclChunkBytes(CollectiveOp::kAllReduce, CollectiveAlgorithm::kTree, 16), 512u << 10);
  EXPECT_EQ(NcclChunkBytes(CollectiveOp::kBroadcast, CollectiveAlgorithm::kDefault, 16), 512u << 10);
}

// AllGather and ReduceScatter rings: n-1 steps of S/n: (n-1)/n * S.
TEST(CollectiveAlgorithmsTest, AllGatherAndReduceScatterSendNMinusOneOverN) {
  for (CollectiveOp op : {CollectiveOp::kAllGather, CollectiveOp::kReduceScatter}) {
    const CollectiveDag dag = Build(Options(op, 8, kS));
    ExpectEveryGpuSends(dag, 7 * kS / 8);
    EXPECT_EQ(dag.LongestTransferChain(), 7u);
  }
}

// AllToAll: S/n to each of the n-1 others, all at once: (n-1)/n * S sent
// and received per rank, n(n-1) transfers, one step.
TEST(CollectiveAlgorithmsTest, AllToAllSendsSOverNToEveryPeer) {
  const CollectiveDag dag = Build(Options(CollectiveOp::kAllToAll, 6, kS));
  ExpectEveryGpuSends(dag, 5 * kS / 6);
  for (uint64_t received : dag.BytesReceivedPerRank()) EXPECT_EQ(received, 5 * kS / 6);
  EXPECT_EQ(dag.CountTransfers(), 30u);
  EXPECT_EQ(dag.LongestTransferChain(), 1u);
}

TEST(CollectiveAlgorithmsTest, BinaryTreesAreNcclsDoubleBinaryTree) {
  // n=8: 0 is the root with child 4; 4 -> 2, 6; 2 -> 1, 3; 6 -> 5, 7.
  EXPECT_EQ(BinaryTreeParents(8), (std::vector<int32_t>{-1, 2, 4, 2, 0, 6, 4, 6}));
  // Even count: the second tree is the mirror (i <-> 7 - i).
  EXPECT_EQ(DoubleBinaryTreeParents(8, 1), (std::vector<int32_t>{1, 3, 1, 7, 5, 3, 5, -1}));
  // n=5: 4's parent would be 8, out of range, so 0. Odd count: the second
  // tree shifts every node by one (i -> i+1 mod 5).
  EXPECT_EQ(BinaryTreeParents(5), (std::vector<int32_t>{-1, 2, 4, 2, 0}));
  EXPECT_EQ(DoubleBinaryTreeParents(5, 1), (std::vector<int32_t>{1, -1, 3, 0, 3}));
}

// Tree AllReduce, n=8, one GPU per server: each tree carries S/2; a rank
// sends S/2 up (unless root) and S/2 to each child. In units of S/2:
//   tree 0 (root 0):  rank 0:1  1:1  2:3  3:1  4:3  5:1  6:3  7:1
//   tree 1 (mirror):  rank 0:1  1:3  2:1  3:3  4:1  5:3  6:1  7:1
// so ranks 0 and 7 send S, the others 2S; in total 2(n-1)S = 14S, the
// 2(n-1)/n*S per rank on average that busbw assumes.
TEST(CollectiveAlgorithmsTest, DoubleBinaryTreeBytesPerRank) {
  const CollectiveDag dag = Build(Options(CollectiveOp::kAllReduce, 8, kS, CollectiveAlgorithm::kTree));
  const std::vector<uint64_t> sent = dag.BytesSentPerRank();
  EXPECT_EQ(sent, (std::vector<uint64_t>{kS, 2 * kS, 2 * kS, 2 * kS, 2 * kS, 2 * kS, 2 * kS, kS}));
  // Depth 3 (0 <- 4 <- 2 <- 1): 3 hops up, 3 down.
  EXPECT_EQ(dag.LongestTransferChain(), 6u);
}

// Recursive halving-doubling: S/2 + S/4 + ... + S/n twice = 2(n-1)/n * S
// per rank, in 2 log2(n) steps; other counts are refused.
TEST(CollectiveAlgorithmsTest, HalvingDoublingBytesAndSteps) {
  const CollectiveDag dag =
      Build(Options(CollectiveOp::kAllReduce, 8, kS, CollectiveAlgorithm::kHalvingDoubling));
  ExpectEveryGpuSends(dag, 2 * 7 * kS / 8);
  EXPECT_EQ(dag.LongestTransferChain(), 6u);
  Result<CollectiveDag> bad =
      BuildCollective(Options(CollectiveOp::kAllReduce, 6, kS, CollectiveAlgorithm::kHalvingDoubling));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "algorithm: halving_doubling needs a power-of-two rank count, got 6");
}

// Hierarchical, L GPUs per server, M servers: intra-server reduce-scatter
// and all-gather send 2(L-1)/L * S, the inter-server ring AllReduce of the
// S/L slice sends 2(M-1)/M * S/L; together 2(n-1)/n * S.
TEST(CollectiveAlgorithmsTest, HierarchicalBytesPerPhase) {
  for (int32_t L : {2, 4}) {
    CollectiveOptions o = Options(CollectiveOp::kAllReduce, 8, kS, CollectiveAlgorithm::kHierarchical);
    o.ranks_per_server = L;
    const int32_t M = 8 / L;
    const CollectiveDag dag = Build(o);
    for (CollectiveRank r = 0; r < 8; ++r) {
      EXPECT_EQ(SentInPhase(dag, r, DagPhase::kReduceScatter) + SentInPhase(dag, r, DagPhase::kAllGather),
                2 * (L - 1) * kS / L);
      EXPECT_EQ(SentInPhase(dag, r, DagPhase::kInterServer), 2 * (M - 1) * kS / (M * L));
    }
    ExpectEveryGpuSends(dag, 2 * 7 * kS / 8);
    // Inter-server transfers only join GPUs of the same local rank.
    for (const DagNode& n : dag.nodes()) {
      if (n.is_transfer() && n.phase == DagPhase::kInterServer) {
        EXPECT_EQ(n.src % L, n.dst % L);
      }
    }
  }
}

// NVLS on one server of L GPUs (switch = rank L): each GPU uploads S and
// later its reduced S/L slice; the switch returns each slice to its owner
// (S in all) and multicasts every slice to the L-1 others (L(L-1) * S/L).
// Across M servers the owners also ring-allreduce their slice: + 2(M-1)/M*S/L.
TEST(CollectiveAlgorithmsTest, NvlsBytesThroughTheSwitch) {
  CollectiveOptions o = Options(CollectiveOp::kAllReduce, 8, kS, CollectiveAlgorithm::kNvls);
  o.ranks_per_server = 8;
  CollectiveDag dag = Build(o);
  ASSERT_EQ(dag.num_switch_ranks(), 1);
  ExpectEveryGpuSends(dag, kS + kS / 8);
  EXPECT_EQ(dag.BytesSentPerRank()[8], kS + 7 * kS);
  for (int32_t r = 0; r < 8; ++r) EXPECT_EQ(dag.BytesReceivedPerRank()[static_cast<size_t>(r)], kS);

  o.ranks_per_server = 4;  // two servers, switches 8 and 9
  dag = Build(o);
  ASSERT_EQ(dag.num_switch_ranks(), 2);
  ExpectEveryGpuSends(dag, kS + kS / 4 + kS / 4);
  o.ranks_per_server = 1;
  EXPECT_FALSE(BuildCollective(o).ok());
}

// NVLS across servers (NCCL's NVLSTree) puts 1 / nvls_tree_efficiency of
// each transfer's bytes on the wire, on top of the protocol's efficiency;
// on one server it is NVLS and the factor does not apply. Simple's line
// format is 1:1, so with efficiencies 0.8 and 0.5 a transfer of b bytes
// puts ceil(b / 0.4) on the wire across servers and ceil(b / 0.8) on one.
TEST(CollectiveAlgorithmsTest, NvlsAcrossServersTakesTheNvlsTreeEfficiency) {
  CollectiveOptions o = Options(CollectiveOp::kAllReduce, 8, kS, CollectiveAlgorithm::kNvls);
  o.bus_efficiency = 0.8;
  o.nvls_tree_efficiency = 0.5;
  for (int32_t per_server : {8, 4}) {
    o.ranks_per_server = per_server;
    const double efficiency = per_server == 8 ? 0.8 : 0.8 * 0.5;
    const CollectiveDag dag = Build(o);
    size_t transfers = 0;
    for (const DagNode& n : dag.nodes()) {
      if (!n.is_transfer()) continue;
      ++transfers;
      EXPECT_EQ(n.wire_bytes, static_cast<uint64_t>(std::ceil(static_cast<double>(n.bytes) / efficiency)))
          << per_server << " per server, " << n.src << " -> " << n.dst;
    }
    EXPECT_GT(transfers, 0u);
  }
  // A ring across the same servers keeps the protocol's efficiency alone.
  o.algorithm = CollectiveAlgorithm::kRing;
  const CollectiveDag ring = Build(o);
  for (const DagNode& n : ring.nodes()) {
    if (!n.is_transfer()) continue;
    EXPECT_EQ(n.wire_bytes, static_cast<uint64_t>(std::ceil(static_cast<double>(n.bytes) / 0.8)));
  }
}

// PXN: 4 ranks, 2 per server, sendrecv i -> i+1. 1 -> 2 crosses servers
// from local rank 1 to local rank 0, so it hops 1 -> 0 (NVLink) then
// 0 -> 2 (rail 0); 3 -> 0 likewise via 2.
TEST(CollectiveAlgorithmsTest, PxnRelaysThroughTheSameRailGpu) {
  CollectiveOptions o = Options(CollectiveOp::kSendRecv, 4, 1000);
  o.ranks_per_server = 2;
  o.pxn = true;
  const CollectiveDag dag = Build(o);
  std::vector<std::pair<CollectiveRank, CollectiveRank>> hops;
  for (const DagNode& n : dag.nodes()) hops.emplace_back(n.src, n.dst);
  const std::vector<std::pair<CollectiveRank, CollectiveRank>> expected = {
      {0, 1}, {1, 0}, {0, 2}, {2, 3}, {3, 2}, {2, 0}};
  EXPECT_EQ(hops, expected);
  EXPECT_EQ(dag.LongestTransferChain(), 2u);
  // In a PXN ring AllReduce every inter-server hop stays on one rail.
  o = Options(CollectiveOp::kAllReduce, 8, kS);
  o.ranks_per_server = 4;
  o.channels = 4;
  o.pxn = true;
  const CollectiveDag ring = Build(o);
  for (const DagNode& n : ring.nodes()) {
    if (n.is_transfer() && n.src / 4 != n.dst / 4) {
      EXPECT_EQ(n.src % 4, n.dst % 4);
    }
  }
}

// Channel c's ring enters each server at local rank c and leaves from c-1.
TEST(CollectiveAlgorithmsTest, ChannelRingsRotateInsideServers) {
  EXPECT_EQ(ChannelRingOrder(8, 4, 1), (std::vector<CollectiveRank>{1, 2, 3, 0, 5, 6, 7, 4}));
  EXPECT_EQ(ChannelRingOrder(4, 1, 3), (std::vector<CollectiveRank>{0, 1, 2, 3}));
}

// LL carries 8 payload bytes per 16-byte line, LL128 120 per 128.
TEST(CollectiveAlgorithmsTest, ProtocolsGrowWireBytes) {
  EXPECT_EQ(WireBytes(CollectiveProtocol::kLl, 8000), 16000u);
  EXPECT_EQ(WireBytes(CollectiveProtocol::kLl, 1), 16u);
  EXPECT_EQ(WireBytes(CollectiveProtocol::kLl128, 1200), 1280u);
  EXPECT_EQ(WireBytes(CollectiveProtocol::kSimple, 1234), 1234u);
  CollectiveOptions o = Options(CollectiveOp::kAllReduce, 4, kS);
  o.protocol = CollectiveProtocol::kLl;
  const CollectiveDag dag = Build(o);
  ExpectEveryGpuSends(dag, 3 * kS / 2);                                // payload unchanged
  EXPECT_EQ(dag.WireBytesSentPerRank()[0], 2 * (3 * kS / 2));          // twice on the wire
  // One rank per server: every step crosses servers and takes LL's NET
  // step latency (2.7 us); LL's base latency (6.6 us) comes once.
  EXPECT_EQ(dag.node(0).latency, GetProtocolSpec(CollectiveProtocol::kLl).net_step_latency);
  EXPECT_EQ(dag.base_latency(), Time::FromNs(6600));
  o.net_step_latency = Time::FromNs(7);
  EXPECT_EQ(Build(o).node(0).latency, Time::FromNs(7));
  // Two ranks per server: the ring's hop 0 -> 1 stays inside server 0 and
  // takes the NVLink step latency (LL: 0.6 us).
  o.ranks_per_server = 2;
  o.step_latency = Time::FromNs(5);
  const CollectiveDag paired = Build(o);
  for (DagNodeIndex i = 0; i < paired.size(); ++i) {
    const DagNode& n = paired.node(i);
    if (!n.is_transfer()) continue;
    EXPECT_EQ(n.latency, Time::FromNs(n.src / 2 == n.dst / 2 ? 5 : 7)) << i;
  }
}

// Broadcast from root 2 down the chain 2 -> 3 -> 0 -> 1: every rank but the
// last sends S; with K chunks the pipeline is (n-1) + (K-1) transfers deep.
// Reduce runs the chain the other way round into the root.
TEST(CollectiveAlgorithmsTest, BroadcastAndReduceChainsFromTheRoot) {
  CollectiveOptions o = Options(CollectiveOp::kBroadcast, 4, kS);
  o.root = 2;
  o.chunk_bytes = kS / 8;
  o.connection_window = 1;  // one chunk at a time per link
  CollectiveDag dag = Build(o);
  EXPECT_EQ(dag.BytesSentPerRank(), (std::vector<uint64_t>{kS, 0, kS, kS}));
  EXPECT_EQ(dag.BytesReceivedPerRank()[2], 0u);
  EXPECT_EQ(dag.LongestTransferChain(), 3u + 7u);
  o.op = CollectiveOp::kReduce;
  dag = Build(o);
  EXPECT_EQ(dag.BytesSentPerRank(), (std::vector<uint64_t>{kS, kS, 0, kS}));
}

// SendRecv: rank i sends S to i+1 mod n.
TEST(CollectiveAlgorithmsTest, SendRecvSendsToTheNextRank) {
  const CollectiveDag dag = Build(Options(CollectiveOp::kSendRecv, 3, 500));
  ExpectEveryGpuSends(dag, 500);
  ASSERT_EQ(dag.size(), 3u);
  EXPECT_EQ(dag.node(2).src, 2);
  EXPECT_EQ(dag.node(2).dst, 0);
}

TEST(CollectiveAlgorithmsTest, ErrorsNameTheOption) {
  CollectiveOptions o = Options(CollectiveOp::kAllReduce, 8, kS);
  o.ranks_per_server = 3;
  EXPECT_EQ(BuildCollective(o).error().message, "ranks_per_server: 3 does not divide ranks 8");
  EXPECT_EQ(BuildCollective(Options(CollectiveOp::kAllGather, 8, kS, CollectiveAlgorithm::kTree)).error().message,
            "algorithm: tree does not implement all_gather");
  o = Options(CollectiveOp::kBroadcast, 4, kS);
  o.root = 4;
  EXPECT_EQ(BuildCollective(o).error().message, "root: must be a rank 0..3, got 4");
  // A ring of 4 takes 3 x 4 x 3 = 36 nodes a chunk: under a limit of 35
  // even one chunk does not fit.
  o = Options(CollectiveOp::kAllReduce, 4, kS);
  o.max_dag_nodes = 35;
  EXPECT_EQ(BuildCollective(o).error().message,
            "ranks: 4 ranks take 36 DAG nodes with one chunk per channel, over the limit of 35; run it as a coflow "
            "(flow model)");
  // Nothing to move: an empty DAG.
  EXPECT_EQ(Build(Options(CollectiveOp::kAllReduce, 4, 0)).size(), 0u);
  EXPECT_EQ(Build(Options(CollectiveOp::kAllReduce, 1, kS)).size(), 0u);
}

// The node count CutCollective bounds is the one BuildCollective builds,
// counted by hand per chunk and lane (a channel; a tree of a channel):
// ring AllReduce 3n(n-1) (n-1 steps of n sends and n reductions, then n-1
// of n sends), tree 3(n-1), halving-doubling 3n log2 n, hierarchical
// M x 3L(L-1) + L x 3M(M-1), NVLS M(3L + L^2) + L x 3M(M-1), all-gather
// n(n-1), reduce-scatter 2n(n-1), alltoall n(n-1), broadcast n-1, reduce
// 2(n-1), sendrecv n. n = 8 ranks, L = 4, M = 2, 2 channels of 3 chunks.
TEST(CollectiveAlgorithmsTest, TheNodeBoundIsTheDagsSize) {
  struct Case {
    CollectiveOp op;
    CollectiveAlgorithm algorithm;
    uint64_t per_chunk;
  };
  const Case cases[] = {
      {CollectiveOp::kAllReduce, CollectiveAlgorithm::kRing, 3 * 8 * 7},
      {CollectiveOp::kAllReduce, CollectiveAlgorithm::kTree, 2 * 3 * 7},  // two trees a channel
      {CollectiveOp::kAllReduce, CollectiveAlgorithm::kHalvingDoubling, 3 * 8 * 3},
      {CollectiveOp::kAllReduce, CollectiveAlgorithm::kHierarchical, 2 * 3 * 4 * 3 + 4 * 3 * 2 * 1},
      {CollectiveOp::kAllReduce, CollectiveAlgorithm::kNvls, 2 * (3 * 4 + 16) + 4 * 3 * 2 * 1},
      {CollectiveOp::kAllGather, CollectiveAlgorithm::kRing, 8 * 7},
      {CollectiveOp::kReduceScatter, CollectiveAlgorithm::kRing, 2 * 8 * 7},
      {CollectiveOp::kAllToAll, CollectiveAlgorithm::kPairwise, 8 * 7},
      {CollectiveOp::kBroadcast, CollectiveAlgorithm::kRing, 7},
      {CollectiveOp::kReduce, CollectiveAlgorithm::kRing, 2 * 7},
      {CollectiveOp::kSendRecv, CollectiveAlgorithm::kRing, 8},
  };
  for (const Case& c : cases) {
    CollectiveOptions o = Options(c.op, 8, 8 * 2 * 2 * 3 * 1024, c.algorithm);
    o.ranks_per_server = 4;
    o.channels = 2;
    // 3 chunks a lane: alltoall's lane is S/n/channels, a tree's half a channel's share.
    const uint64_t lane = c.op == CollectiveOp::kAllToAll            ? o.bytes / 8 / 2
                          : c.algorithm == CollectiveAlgorithm::kTree ? o.bytes / 2 / 2
                                                                      : o.bytes / 2;
    o.chunk_bytes = lane / 3;
    const Result<CollectiveDagCut> cut = CutCollective(o);
    ASSERT_TRUE(cut.ok()) << cut.error().message;
    EXPECT_EQ(cut->chunk_bytes, lane / 3);
    EXPECT_EQ(cut->max_nodes, 2 * 3 * c.per_chunk) << CollectiveAlgorithmName(c.algorithm);
    EXPECT_EQ(Build(o).size(), cut->max_nodes) << CollectiveAlgorithmName(c.algorithm);
    o.pxn = true;  // relays add at most one node per transfer
    if (o.op != CollectiveOp::kAllReduce || c.algorithm == CollectiveAlgorithm::kRing) {
      EXPECT_LE(Build(o).size(), CutCollective(o)->max_nodes);
    }
  }
}

// Past the limit, k consecutive chunks move as one: ring AllReduce of 4
// ranks, 8 chunks of S/8 (8 x 36 = 288 nodes). Under a limit of 100 at
// most 2 chunks fit (72 nodes): k = 4, chunks of S/2; under 71, k = 8,
// one chunk. The bytes per rank stay 2(n-1)/n S, the algorithm a ring.
TEST(CollectiveAlgorithmsTest, ChunksAggregateToStayUnderTheNodeLimit) {
  CollectiveOptions o = Options(CollectiveOp::kAllReduce, 4, kS);
  o.chunk_bytes = kS / 8;
  EXPECT_EQ(Build(o).size(), 288u);
  o.max_dag_nodes = 100;
  ASSERT_TRUE(CutCollective(o).ok());
  EXPECT_EQ(CutCollective(o)->chunk_bytes, kS / 2);
  CollectiveDag dag = Build(o);
  EXPECT_EQ(dag.size(), 72u);
  ExpectEveryGpuSends(dag, 2 * 3 * kS / 4);
  uint32_t chunks = 0;
  for (const DagNode& n : dag.nodes()) {
    chunks = std::max(chunks, n.chunk + 1);
    if (n.is_transfer()) {
      EXPECT_EQ(n.bytes, kS / 2 / 4);
    }
  }
  EXPECT_EQ(chunks, 2u);
  o.max_dag_nodes = 71;
  EXPECT_EQ(CutCollective(o)->chunk_bytes, kS);
  dag = Build(o);
  EXPECT_EQ(dag.size(), 36u);
  ExpectEveryGpuSends(dag, 2 * 3 * kS / 4);
  // A 1-byte chunk on 3 MiB would take 36 x 3 Mi nodes: 20M / 36 = 555,555
  // chunks fit, so k = ceil(3,145,728 / 555,555) = 6.
  o = Options(CollectiveOp::kAllReduce, 4, kS);
  o.chunk_bytes = 1;
  EXPECT_EQ(CutCollective(o)->chunk_bytes, 6u);
}

// 16 GiB AllReduce on 2 x 8 GPUs, 8 channels, NCCL's chunks: every
// algorithm builds, under 20M nodes (a looser bound, 4n^2 + 4n nodes a
// chunk, refused the tree and NVLS here). NVLS: M(3L + L^2) + L x 3M(M-1)
// = 176 + 48 = 224 nodes a chunk, 8 channels x 4,096 chunks of 512 KiB =
// 7,340,032 (k = 1); the tree: 3 x 15 = 45 a lane, 16 lanes x 2,048 =
// 1,474,560. At 64 GiB NVLS would take 29.4M: k = 2, 1 MiB chunks, 14.7M.
TEST(CollectiveAlgorithmsTest, SixteenGibibytesBuildsEveryAlgorithm) {
  const auto options = [](CollectiveAlgorithm a, uint64_t bytes) {
    CollectiveOptions o = Options(CollectiveOp::kAllReduce, 16, bytes, a);
    o.ranks_per_server = 8;
    o.channels = 8;
    o.chunk_bytes = NcclChunkBytes(o.op, a, 16);
    return o;
  };
  for (CollectiveAlgorithm a : {CollectiveAlgorithm::kRing, CollectiveAlgorithm::kTree, CollectiveAlgorithm::kNvls,
                                CollectiveAlgorithm::kHierarchical, CollectiveAlgorithm::kHalvingDoubling}) {
    const Result<CollectiveDagCut> cut = CutCollective(options(a, 16ull << 30));
    ASSERT_TRUE(cut.ok()) << cut.error().message;
    EXPECT_LE(cut->max_nodes, 20'000'000u) << CollectiveAlgorithmName(a);
    EXPECT_EQ(cut->chunk_bytes, NcclChunkBytes(CollectiveOp::kAllReduce, a, 16)) << CollectiveAlgorithmName(a);
  }
  EXPECT_EQ(CutCollective(options(CollectiveAlgorithm::kNvls, 16ull << 30))->max_nodes, 7'340'032u);
  EXPECT_EQ(CutCollective(options(CollectiveAlgorithm::kTree, 16ull << 30))->max_nodes, 1'474'560u);
  const Result<CollectiveDagCut> huge = CutCollective(options(CollectiveAlgorithm::kNvls, 64ull << 30));
  EXPECT_EQ(huge->chunk_bytes, 1u << 20);
  EXPECT_EQ(huge->max_nodes, 14'680'064u);
  // The 16 GiB tree DAG itself: its size is the bound, and the ranks send
  // 2(n-1) S in all (each tree's n-1 edges carry S/2 up and S/2 down).
  const uint64_t s = 16ull << 30;
  const CollectiveDag dag = Build(options(CollectiveAlgorithm::kTree, s));
  EXPECT_EQ(dag.size(), 1'474'560u);
  uint64_t total = 0;
  for (uint64_t b : dag.BytesSentPerRank()) total += b;
  EXPECT_EQ(total, 2 * 15 * s);
}

}  // namespace
}  // namespace aifabric
