// FirstFitPolicy on hand-made states of a 2-pod k = 4 fat-tree.
#include "sched/first_fit_policy.h"

#include <gtest/gtest.h>

#include <vector>

#include "sched/sched_test_cluster.h"
#include "sched/topology_distance.h"

namespace aifabric {
namespace {

using sched_testing::MakeFatTreeCluster;
using sched_testing::TestCluster;

using sched_testing::MakeTwoPodFatTree;

using sched_testing::GpuRange;

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
  EXPECT_EQ(p.Place({"j", 4}, a), GpuRange(4, 7));
  // 6 GPUs: ceil(6/4) = 2 whole servers, 1 and 2; GPUs 10, 11 stay free.
  EXPECT_EQ(p.Place({"j", 6}, a), GpuRange(4, 9));
}

TEST(FirstFitPolicy, FourServerJobSpansPodsWhenTheLowestServersDo) {
  const TestCluster c = MakeTwoPodFatTree();
  GpuAllocation a(c.layout);
  ASSERT_TRUE(a.Allocate("busy", std::vector<GpuId>{4}).ok());  // server 1
  FirstFitPolicy p;
  const auto gpus = p.Place({"j", 16}, a);
  ASSERT_TRUE(gpus.has_value());
  // Servers 0, 2, 3 (pod 0) and 4 (pod 1): across pods, 3 tiers.
  std::vector<GpuId> expect = GpuRange(0, 3);
  for (GpuId g : GpuRange(8, 19)) expect.push_back(g);
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
