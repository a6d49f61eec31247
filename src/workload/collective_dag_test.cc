#include "workload/collective_dag.h"

#include <gtest/gtest.h>

#include <vector>

namespace aifabric {
namespace {

DagNode Transfer(CollectiveRank src, CollectiveRank dst, uint64_t bytes, uint16_t channel = 0) {
  DagNode n;
  n.src = src;
  n.dst = dst;
  n.bytes = bytes;
  n.wire_bytes = bytes;
  n.channel = channel;
  return n;
}

TEST(CollectiveDagTest, StoresEdgesAsCsrAndTotalsBytesPerRank) {
  CollectiveDagBuilder b(3, 0);
  const DagNodeIndex x = b.AddTransfer(Transfer(0, 1, 100));
  const DagNodeIndex r = b.AddCompute(DagNodeKind::kReduce, DagPhase::kReduceScatter, 1, 100, 0, 0);
  const DagNodeIndex y = b.AddTransfer(Transfer(1, 2, 40));
  const DagNodeIndex z = b.AddTransfer(Transfer(0, 2, 7));
  b.AddEdge(x, r);
  b.AddEdge(r, y);
  b.AddEdge(kNoDagNode, z);  // ignored
  Result<CollectiveDag> dag = std::move(b).Build();
  ASSERT_TRUE(dag.ok()) << dag.error().message;
  EXPECT_EQ(dag->size(), 4u);
  EXPECT_EQ(dag->num_edges(), 2u);
  ASSERT_EQ(dag->successors(x).size(), 1u);
  EXPECT_EQ(dag->successors(x)[0], r);
  EXPECT_EQ(dag->in_degree(y), 1u);
  EXPECT_EQ(dag->in_degree(z), 0u);
  EXPECT_EQ(dag->BytesSentPerRank(), (std::vector<uint64_t>{107, 40, 0}));
  EXPECT_EQ(dag->BytesReceivedPerRank(), (std::vector<uint64_t>{0, 100, 47}));
  EXPECT_EQ(dag->CountTransfers(), 3u);
  // x -> r -> y: two transfers in sequence.
  EXPECT_EQ(dag->LongestTransferChain(), 2u);
}

TEST(CollectiveDagTest, OrdersTransfersOnTheSameConnection) {
  CollectiveDagBuilder b(2, 0);
  const DagNodeIndex a = b.AddTransfer(Transfer(0, 1, 1));
  const DagNodeIndex other_channel = b.AddTransfer(Transfer(0, 1, 1, 1));
  const DagNodeIndex c = b.AddTransfer(Transfer(0, 1, 1));
  Result<CollectiveDag> dag = std::move(b).Build();
  ASSERT_TRUE(dag.ok());
  ASSERT_EQ(dag->successors(a).size(), 1u);
  EXPECT_EQ(dag->successors(a)[0], c);
  EXPECT_EQ(dag->in_degree(other_channel), 0u);
  EXPECT_EQ(dag->LongestTransferChain(), 2u);
}

TEST(CollectiveDagTest, RejectsCyclesAndBadRanks) {
  {
    CollectiveDagBuilder b(2, 0);
    const DagNodeIndex a = b.AddTransfer(Transfer(0, 1, 1));
    const DagNodeIndex c = b.AddTransfer(Transfer(1, 0, 1));
    b.AddEdge(a, c);
    b.AddEdge(c, a);
    Result<CollectiveDag> dag = std::move(b).Build();
    ASSERT_FALSE(dag.ok());
    EXPECT_NE(dag.error().message.find("cycle"), std::string::npos) << dag.error().message;
  }
  {
    CollectiveDagBuilder b(2, 1);  // ranks 0, 1 and switch rank 2
    b.AddTransfer(Transfer(0, 2, 1));
    b.AddTransfer(Transfer(1, 3, 1));
    Result<CollectiveDag> dag = std::move(b).Build();
    ASSERT_FALSE(dag.ok());
    EXPECT_NE(dag.error().message.find("node 1: destination rank out of range"), std::string::npos)
        << dag.error().message;
  }
  {
    CollectiveDagBuilder b(2, 0);
    b.AddTransfer(Transfer(1, 1, 1));
    Result<CollectiveDag> dag = std::move(b).Build();
    ASSERT_FALSE(dag.ok());
    EXPECT_NE(dag.error().message.find("itself"), std::string::npos);
  }
}

TEST(CollectiveDagTest, RenumbersBackwardEdgesIntoTopologicalOrder) {
  CollectiveDagBuilder b(3, 0);
  const DagNodeIndex late = b.AddTransfer(Transfer(1, 2, 5));
  const DagNodeIndex early = b.AddTransfer(Transfer(0, 1, 9));
  b.AddEdge(early, late);  // points backward in insertion order
  Result<CollectiveDag> dag = std::move(b).Build();
  ASSERT_TRUE(dag.ok());
  // Every edge now points forward, and the chain is still two long.
  for (DagNodeIndex i = 0; i < dag->size(); ++i) {
    for (DagNodeIndex s : dag->successors(i)) EXPECT_LT(i, s);
  }
  EXPECT_EQ(dag->node(0).bytes, 9u);
  EXPECT_EQ(dag->LongestTransferChain(), 2u);
}

}  // namespace
}  // namespace aifabric
