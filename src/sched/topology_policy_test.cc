// TopologyPolicy on hand-made states of a 2-pod k = 4 fat-tree, each
// contrasted with first_fit and checked with TiersCrossed worked by hand,
// plus a rail-optimized fabric where a leaf group spans the rails.
#include "sched/topology_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "sched/first_fit_policy.h"
#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

using fabric_testing::MakeSpec;
using sched_testing::MakeFatTreeCluster;
using sched_testing::TestCluster;

using sched_testing::MakeTwoPodFatTree;

using sched_testing::Busy;
using sched_testing::ServersGpus;

class TopologyPolicyTest : public ::testing::Test {
 protected:
  TestCluster c_ = MakeTwoPodFatTree();
  GpuAllocation a_{c_.layout};
  TopologyPolicy topo_{c_.topology, c_.layout};
  FirstFitPolicy first_;
  int Tiers(const std::vector<GpuId>& gpus) const { return TiersCrossed(c_.topology, c_.layout, gpus); }
};

TEST_F(TopologyPolicyTest, FourServerJobStaysInOnePodWhereFirstFitSpansPods) {
  Busy(a_, {1});  // pod 0 has 3 free servers, pod 1 has 4
  const auto topo = topo_.Place({"j", 16}, a_);
  const auto first = first_.Place({"j", 16}, a_);
  ASSERT_TRUE(topo && first);
  EXPECT_EQ(*topo, ServersGpus({4, 5, 6, 7}));
  EXPECT_EQ(Tiers(*topo), 2);
  EXPECT_EQ(*first, ServersGpus({0, 2, 3, 4}));
  EXPECT_EQ(Tiers(*first), 3);
}

TEST_F(TopologyPolicyTest, TwoServerJobStaysUnderOneLeafWhereFirstFitCrossesTheSpine) {
  Busy(a_, {0});  // leaf group 0 has 1 free server, the others 2
  const auto topo = topo_.Place({"j", 8}, a_);
  const auto first = first_.Place({"j", 8}, a_);
  ASSERT_TRUE(topo && first);
  EXPECT_EQ(*topo, ServersGpus({2, 3}));  // group 1: best fit (2 free), lowest id
  EXPECT_EQ(Tiers(*topo), 1);
  EXPECT_EQ(*first, ServersGpus({1, 2}));  // leaf0 + leaf1
  EXPECT_EQ(Tiers(*first), 2);
}

TEST_F(TopologyPolicyTest, OneServerJobTakesTheBestFitLeafGroup) {
  Busy(a_, {2});  // group 1 has 1 free server (3); groups 0, 2, 3 have 2
  // Best fit keeps leaf group 0 whole for a later 2-server job.
  EXPECT_EQ(topo_.Place({"j", 4}, a_), ServersGpus({3}));
  EXPECT_EQ(first_.Place({"j", 4}, a_), ServersGpus({0}));
}

TEST_F(TopologyPolicyTest, ThreeServerJobTakesTheBestFitPod) {
  Busy(a_, {1});  // no leaf group holds 3; pod 0 has 3 free (0, 2, 3), pod 1 has 4
  const auto topo = topo_.Place({"j", 12}, a_);
  ASSERT_TRUE(topo);
  EXPECT_EQ(*topo, ServersGpus({0, 2, 3}));
  EXPECT_EQ(Tiers(*topo), 2);
}

TEST_F(TopologyPolicyTest, InsideAPodFullerGroupsComeFirst) {
  Busy(a_, {1, 2, 5});  // pod 0: {0}, {3}; pod 1: {4}, {6, 7}
  // 3 servers fit only in pod 1: group 3 (2 free) first, then group 2.
  EXPECT_EQ(topo_.Place({"j", 12}, a_), ServersGpus({4, 6, 7}));
  // 4 servers fit in no pod: pod 1 (3 free) first, then pod 0's lowest.
  const auto across = topo_.Place({"j", 16}, a_);
  ASSERT_TRUE(across);
  EXPECT_EQ(*across, ServersGpus({0, 4, 6, 7}));
  EXPECT_EQ(Tiers(*across), 3);
  EXPECT_EQ(first_.Place({"j", 16}, a_), ServersGpus({0, 3, 4, 6}));
}

TEST_F(TopologyPolicyTest, SmallJobTakesTheBestFitServer) {
  ASSERT_TRUE(a_.Allocate("x", std::vector<GpuId>{0}).ok());     // server 0: 3 free
  ASSERT_TRUE(a_.Allocate("y", std::vector<GpuId>{4, 5}).ok());  // server 1: 2 free
  EXPECT_EQ(topo_.Place({"j", 2}, a_), (std::vector<GpuId>{6, 7}));
  EXPECT_EQ(first_.Place({"j", 2}, a_), (std::vector<GpuId>{1, 2}));
  EXPECT_EQ(topo_.Place({"j", 3}, a_), (std::vector<GpuId>{1, 2, 3}));
}

TEST_F(TopologyPolicyTest, ImpossibleRequestsAreDeclined) {
  Busy(a_, {0, 2, 4, 6});
  ASSERT_TRUE(a_.Allocate("x", std::vector<GpuId>{4 * 7}).ok());  // server 7 partly used
  // Whole free servers: 1, 3, 5. 13 GPUs need ceil(13/4) = 4 of them,
  // so the job waits although 15 GPUs are free.
  EXPECT_FALSE(topo_.Place({"j", 13}, a_).has_value());
  EXPECT_FALSE(topo_.Place({"j", 0}, a_).has_value());
  EXPECT_FALSE(topo_.Place({"j", 33}, a_).has_value());
  EXPECT_EQ(topo_.Place({"j", 12}, a_), ServersGpus({1, 3, 5}));
}

// Rail-optimized, 32 servers x 4 rails: leaf groups are servers 0-15 and
// 16-31 (one leaf per rail each). With servers 0-11 busy, first_fit puts an
// 8-server job on 12-19 (both groups, through the spines); topology uses
// the group that holds it whole.
TEST(TopologyPolicy, RailOptimizedKeepsAJobInOneLeafGroup) {
  const TopologySpec spec = MakeSpec(TopologyType::kRailOptimized, "32x100G", 32, 4, DataRate::Gbps(100));
  const Topology t = BuildTopology(spec).value();
  ServerSpec server;
  server.gpus_per_server = 4;
  const ClusterLayout l = ClusterLayout::Build(t, server).value();
  GpuAllocation a(l);
  std::vector<GpuId> busy;
  for (GpuId g = 0; g < 48; ++g) busy.push_back(g);
  ASSERT_TRUE(a.Allocate("busy", busy).ok());
  TopologyPolicy topo(t, l);
  FirstFitPolicy first;
  const auto by_topo = topo.Place({"j", 32}, a);
  const auto by_first = first.Place({"j", 32}, a);
  ASSERT_TRUE(by_topo && by_first);
  EXPECT_EQ(by_topo->front(), 16 * 4);  // servers 16-23
  EXPECT_EQ(by_topo->back(), 24 * 4 - 1);
  EXPECT_EQ(TiersCrossed(t, l, *by_topo), 1);
  EXPECT_EQ(by_first->front(), 12 * 4);  // servers 12-19
  EXPECT_EQ(TiersCrossed(t, l, *by_first), 2);
}

}  // namespace
}  // namespace aifabric
