// FirstFitPolicy on hand-made states of a 2-pod k = 4 fat-tree.
#include "sched/first_fit_policy.h"

#include <gtest/gtest.h>

#include <vector>

#include "fabric/fabric_test_util.h"
#include "fabric/topology_builder.h"
#include "sched/topology_distance.h"

namespace aifabric {
namespace {

using fabric_testing::MakeSpec;

// 8 one-NIC servers of 4 GPUs (server s: GPUs 4s..4s+3); leaf i holds
// servers 2i, 2i+1; pod 0 is servers 0-3, pod 1 servers 4-7.
struct Cluster {
  Topology topology;
  ClusterLayout layout;
};
Cluster MakeTwoPodFatTree() {
  TopologySpec spec = MakeSpec(TopologyType::kFatTree, "32x100G", 8, 1, DataRate::Gbps(100));
  spec.k = 4;
  Topology t = BuildTopology(spec).value();
  ServerSpec server;
  server.gpus_per_server = 4;
  ClusterLayout l = ClusterLayout::Build(t, server).value();
  return {std::move(t), std::move(l)};
}

std::vector<GpuId> Range(GpuId first, GpuId last) {  // [first, last]
  std::vector<GpuId> out;
  for (GpuId g = first; g <= last; ++g) out.push_back(g);
  return out;
}

TEST(FirstFitPolicy, SmallJobTakesLowestServerWithRoom) {
  GpuAllocation a(8, 4);
  ASSERT_TRUE(a.Allocate("busy", std::vector<GpuId>{0, 1}).ok());  // server 0: 2 free
  FirstFitPolicy p;
  EXPECT_EQ(p.Place({"j", 2}, a), (std::vector<GpuId>{2, 3}));
  EXPECT_EQ(p.Place({"j", 3}, a), (std::vector<GpuId>{4, 5, 6}));  // server 0 is too full
}

TEST(FirstFitPolicy, LargeJobsTakeWholeServers) {
  GpuAllocation a(8, 4);
  ASSERT_TRUE(a.Allocate("busy", std::vector<GpuId>{2}).ok());  // server 0 partly used
  FirstFitPolicy p;
  // 4 GPUs = one server: server 1, not the 3 free GPUs of server 0 plus one.
  EXPECT_EQ(p.Place({"j", 4}, a), Range(4, 7));
  // 6 GPUs: ceil(6/4) = 2 whole servers, 1 and 2; GPUs 10, 11 stay free.
  EXPECT_EQ(p.Place({"j", 6}, a), Range(4, 9));
}

TEST(FirstFitPolicy, FourServerJobSpansPodsWhenTheLowestServersDo) {
  const Cluster c = MakeTwoPodFatTree();
  GpuAllocation a(c.layout);
  ASSERT_TRUE(a.Allocate("busy", std::vector<GpuId>{4}).ok());  // server 1
  FirstFitPolicy p;
  const auto gpus = p.Place({"j", 16}, a);
  ASSERT_TRUE(gpus.has_value());
  // Servers 0, 2, 3 (pod 0) and 4 (pod 1): across pods, 3 tiers.
  std::vector<GpuId> expect = Range(0, 3);
  for (GpuId g : Range(8, 19)) expect.push_back(g);
  EXPECT_EQ(*gpus, expect);
  EXPECT_EQ(TiersCrossed(c.topology, c.layout, *gpus), 3);
}

TEST(FirstFitPolicy, ImpossibleRequestsAreDeclined) {
  GpuAllocation a(2, 4);
  FirstFitPolicy p;
  EXPECT_FALSE(p.Place({"j", 0}, a).has_value());
  EXPECT_FALSE(p.Place({"j", 9}, a).has_value());  // only 8 GPUs
  ASSERT_TRUE(a.Allocate("x", std::vector<GpuId>{0, 4}).ok());
  // 6 GPUs are free, but no server is whole and a 4-GPU job needs one.
  EXPECT_FALSE(p.Place({"j", 4}, a).has_value());
  EXPECT_EQ(p.Place({"j", 3}, a), (std::vector<GpuId>{1, 2, 3}));
}

}  // namespace
}  // namespace aifabric
