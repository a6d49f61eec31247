// JobGraph construction: groups and labels stored once, edges in CSR form,
// and bad graphs refused with the node named.
#include "workload/job_graph.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(JobGraph, NodesGroupsAndEdges) {
  JobGraphBuilder b;
  const uint32_t tp = b.AddGroup({0, 1, 2, 3});
  EXPECT_EQ(b.AddGroup({0, 1, 2, 3}), tp);  // stored once
  const uint32_t fwd = b.AddLabel("fwd");
  const JobNodeIndex c0 = b.AddCompute(0, Time::FromUs(10), 1e9, fwd);
  const JobNodeIndex ar = b.AddCollective(CollectiveOp::kAllReduce, tp, 1 << 20, CommDimension::kTensor, b.AddLabel("tp"));
  const JobNodeIndex send = b.AddTransfer(3, 7, 4096, CommDimension::kPipeline, b.AddLabel("pp"));
  b.AddEdge(c0, ar);
  b.AddEdge(ar, send);
  b.AddEdge(kNoJobNode, send);  // ignored
  Result<JobGraph> g = std::move(b).Build();
  ASSERT_TRUE(g.ok()) << g.error().message;
  EXPECT_EQ(g->size(), 3u);
  EXPECT_EQ(g->gpu_count(), 8);  // the transfer reaches GPU 7
  ASSERT_EQ(g->successors(c0).size(), 1u);
  EXPECT_EQ(g->successors(c0)[0], ar);
  EXPECT_EQ(g->in_degree(send), 1u);
  EXPECT_EQ(g->group(g->node(ar).group).size(), 4u);
  EXPECT_EQ(g->label(g->node(c0).label), "fwd");
  EXPECT_EQ(CommDimensionName(g->node(send).dimension), "pipeline");
}

TEST(JobGraph, BadGraphsAreRefusedNamingTheNode) {
  {
    JobGraphBuilder b;
    b.AddTransfer(2, 2, 1, CommDimension::kOther, b.AddLabel("loop"));
    Result<JobGraph> g = std::move(b).Build();
    ASSERT_FALSE(g.ok());
    EXPECT_NE(g.error().message.find("node 0 (loop): transfer to itself"), std::string::npos);
  }
  {
    JobGraphBuilder b;
    const JobNodeIndex a = b.AddCompute(0, Time::FromUs(1), 0, 0);
    const JobNodeIndex c = b.AddCompute(0, Time::FromUs(1), 0, 0);
    b.AddEdge(a, c);
    b.AddEdge(c, a);
    Result<JobGraph> g = std::move(b).Build();
    ASSERT_FALSE(g.ok());
    EXPECT_NE(g.error().message.find("cycle"), std::string::npos);
  }
  {
    JobGraphBuilder b;
    b.AddCollective(CollectiveOp::kAllGather, 5, 8, CommDimension::kData, 0);
    EXPECT_FALSE(std::move(b).Build().ok());
  }
}

}  // namespace
}  // namespace aifabric
