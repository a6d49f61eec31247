#include "workload/job_graph_remap.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

TEST(RemapJobGraph, MovesEveryGpuTheMapCoversAndKeepsTheRest) {
  JobGraphBuilder b;
  const uint32_t l = b.AddLabel("x");
  const JobNodeIndex c = b.AddCompute(0, Time::FromUs(5), 10, l);
  const JobNodeIndex ar = b.AddCollective(CollectiveOp::kAllReduce, b.AddGroup({0, 1}), 1 << 20, CommDimension::kData, l);
  b.SetFold(ar, 4);
  const JobNodeIndex t = b.AddTransfer(1, 40, 4096, CommDimension::kStorage, b.AddLabel("checkpoint"));
  b.SetPriority(t, 1);
  b.AddEdge(c, ar);
  Result<JobGraph> g = std::move(b).Build();
  ASSERT_TRUE(g.ok());
  const std::vector<GpuId> to = {16, 17};
  Result<JobGraph> r = RemapJobGraph(*g, to);
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 3u);
  EXPECT_EQ(r->node(0).gpu, 16);
  EXPECT_EQ(r->node(0).duration, Time::FromUs(5));
  EXPECT_EQ(r->group(r->node(1).group), (std::vector<GpuId>{16, 17}));
  EXPECT_EQ(r->node(1).fold, 4u);
  EXPECT_EQ(r->node(2).gpu, 17);
  EXPECT_EQ(r->node(2).peer, 40);  // beyond the map: a cluster GPU already
  EXPECT_EQ(r->node(2).priority, 1);
  EXPECT_EQ(r->label(r->node(2).label), "checkpoint");
  ASSERT_EQ(r->successors(0).size(), 1u);
  EXPECT_EQ(r->successors(0)[0], 1u);
  EXPECT_EQ(r->in_degree(1), 1u);
}

}  // namespace
}  // namespace aifabric
