// The factory, the shared whole-server helpers, and one invariant run over
// every policy: a random stream of jobs where each placement allocates
// cleanly, and a policy declines only when no placement under the
// whole-server rule exists.
#include "sched/placement_policy.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "core/rng.h"
#include "sched/fake_fabric_load.h"
#include "sched/sched_test_cluster.h"

namespace aifabric {
namespace {

using sched_testing::FakeFabricLoad;
using sched_testing::GpuRange;
using sched_testing::MakeFatTreeCluster;
using sched_testing::TestCluster;

TestCluster MakeFatTree() { return MakeFatTreeCluster(16); }

TEST(PlacementPolicy, FactoryBuildsEachNamedPolicy) {
  const TestCluster c = MakeFatTree();
  const FakeFabricLoad load(c.topology);
  ASSERT_EQ(PlacementPolicyNames().size(), 4u);
  for (std::string_view name : PlacementPolicyNames()) {
    auto p = MakePlacementPolicy(name, c.topology, c.layout, 1, &load);
    ASSERT_TRUE(p.ok()) << name;
    EXPECT_EQ((*p)->name(), name);
  }
  auto bad = MakePlacementPolicy("best", c.topology, c.layout, 1, &load);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "placement policy: unknown policy 'best' (expected one of: first_fit, random, topology, network_aware)");
}

// Only network_aware reads the fabric's load, and it cannot work without.
TEST(PlacementPolicy, NetworkAwareNeedsTheFabricLoad) {
  const TestCluster c = MakeFatTree();
  auto none = MakePlacementPolicy("network_aware", c.topology, c.layout, 1, nullptr);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().message, "placement policy 'network_aware' needs the fabric's live load");
  for (std::string_view name : {"first_fit", "random", "topology"}) {
    EXPECT_TRUE(MakePlacementPolicy(name, c.topology, c.layout, 1, nullptr).ok()) << name;
  }
  const FakeFabricLoad load(c.topology);
  auto with = MakePlacementPolicy("network_aware", c.topology, c.layout, 1, &load);
  ASSERT_TRUE(with.ok());
  EXPECT_EQ((*with)->Place({"j", 8}, GpuAllocation(c.layout)), GpuRange(0, 7));  // two servers under leaf0
}

TEST(PlacementPolicy, WholeServerHelpers) {
  EXPECT_EQ(WholeServersNeeded(1, 8), 0);
  EXPECT_EQ(WholeServersNeeded(7, 8), 0);
  EXPECT_EQ(WholeServersNeeded(8, 8), 1);
  EXPECT_EQ(WholeServersNeeded(9, 8), 2);
  EXPECT_EQ(WholeServersNeeded(64, 8), 8);
  // Servers 3 then 1 of 4 GPUs, 6 GPUs: all of server 3, first 2 of server 1.
  EXPECT_EQ(GpusOfServers(std::vector<int>{3, 1}, 6, 4), (std::vector<GpuId>{4, 5, 12, 13, 14, 15}));
}

// Could any placement exist? Small jobs need one server with room, large
// ones ceil(g/G) whole free servers.
bool Feasible(const GpuAllocation& a, int g) {
  if (g < 1) return false;
  const int whole = WholeServersNeeded(g, a.gpus_per_server());
  int fits = 0;
  for (int s = 0; s < a.servers(); ++s) {
    fits += whole == 0 ? a.free_on_server(s) >= g : a.server_fully_free(s);
  }
  return whole == 0 ? fits > 0 : fits >= whole;
}

TEST(PlacementPolicy, EveryPolicyPlacesExactlyWhenFeasibleAndNeverOverAllocates) {
  const TestCluster c = MakeFatTree();
  const FakeFabricLoad load(c.topology);  // idle, every link up, no storage
  for (std::string_view name : PlacementPolicyNames()) {
    auto policy = MakePlacementPolicy(name, c.topology, c.layout, 3, &load);
    ASSERT_TRUE(policy.ok());
    GpuAllocation a(c.layout);
    Rng rng(17);
    std::vector<std::string> live;
    int placed = 0, declined = 0;
    for (int i = 0; i < 300; ++i) {
      if (!live.empty() && rng.Below(3) == 0) {
        const size_t k = static_cast<size_t>(rng.Below(live.size()));
        ASSERT_TRUE(a.Release(live[k]).ok());
        live.erase(live.begin() + static_cast<long>(k));
        continue;
      }
      const int g = 1 + static_cast<int>(rng.Below(20));
      const std::string job = std::string("j").append(std::to_string(i));
      const int free_before = a.free_count();
      const auto gpus = (*policy)->Place({job, g}, a);
      ASSERT_EQ(a.free_count(), free_before);  // Place did not touch it
      ASSERT_EQ(gpus.has_value(), Feasible(a, g)) << name << " job " << i << " of " << g;
      if (!gpus) {
        ++declined;
        continue;
      }
      ASSERT_EQ(static_cast<int>(gpus->size()), g) << name;
      ASSERT_TRUE(std::is_sorted(gpus->begin(), gpus->end())) << name;
      ASSERT_TRUE(a.Allocate(job, *gpus).ok()) << name << " job " << i;
      live.push_back(job);
      ++placed;
    }
    EXPECT_GT(placed, 50) << name;
    EXPECT_GT(declined, 10) << name;
  }
}

}  // namespace
}  // namespace aifabric
