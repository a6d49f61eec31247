#include "plan/design_space.h"

#include <gtest/gtest.h>

#include <set>

#include "plan/plan_test_catalog.h"

namespace aifabric {
namespace {

PlanRequirements Space() {
  PlanRequirements r;
  r.gpus = 64;
  r.space.fabric_kinds = {FabricKind::kIb, FabricKind::kRoce};
  r.space.link_gbps = {400, 800};
  r.space.topologies = {TopologyType::kRailOptimized, TopologyType::kFatTree};
  r.space.oversubscription = {1, 2};
  return r;
}

// The test catalog has IB16 (IB, 400G), ETH16 (Ethernet, 400G) and
// ETH16x800 (Ethernet, 800G). So: ib-400 2 topologies x 2 ratios = 4;
// ib-800 none (no 800G IB switch: rejected); roce-400 4 (ETH16);
// roce-800 4 (ETH16x800). 12 designs, 1 rejection.
TEST(DesignSpace, EveryCombinationTheCatalogBuilds) {
  const Catalog catalog = plan_testing::TestCatalog();
  const DesignSweep sweep = EnumerateDesigns(Space(), catalog);
  EXPECT_EQ(sweep.designs.size(), 12u);
  ASSERT_EQ(sweep.rejected.size(), 1u);
  EXPECT_EQ(sweep.rejected[0].name, "ib-800g-*");
  EXPECT_EQ(sweep.rejected[0].reason, "no InfiniBand switch with 800G ports in the catalog");
  std::set<std::string> names;
  for (const Design& d : sweep.designs) {
    names.insert(d.name);
    EXPECT_EQ(d.nic_name, d.link_gbps == 400 ? "NIC400" : "NIC800");
    EXPECT_EQ(d.load_balancing, d.kind == FabricKind::kIb ? LoadBalancing::kAdaptive : LoadBalancing::kEcmp);
  }
  EXPECT_EQ(names.size(), 12u);  // names are unique
  EXPECT_EQ(sweep.designs.front().name, "ib-400g-rail_optimized-1to1-IB16");
  EXPECT_TRUE(names.count("roce-800g-fat_tree-2to1-ETH16x800"));
}

TEST(DesignSpace, ConstraintsReject) {
  const Catalog catalog = plan_testing::TestCatalog();
  PlanRequirements r = Space();
  r.constraints.ecosystem = FabricKind::kRoce;
  r.constraints.max_oversubscription = 1.5;
  const DesignSweep sweep = EnumerateDesigns(r, catalog);
  // roce only (8), half of them 2:1 -> 4 built.
  EXPECT_EQ(sweep.designs.size(), 4u);
  for (const Design& d : sweep.designs) EXPECT_EQ(d.oversubscription, 1);
  EXPECT_EQ(sweep.rejected.front().reason, "constraints.ecosystem is roce");
  // Two load-balancing choices on RoCE: each design is named with its own.
  r = Space();
  r.space.fabric_kinds = {FabricKind::kRoce};
  r.space.link_gbps = {400};
  r.space.roce_load_balancing = {LoadBalancing::kEcmp, LoadBalancing::kSpray};
  const DesignSweep lb = EnumerateDesigns(r, catalog);
  ASSERT_EQ(lb.designs.size(), 8u);
  EXPECT_EQ(lb.designs[0].name, "roce-400g-rail_optimized-1to1-ETH16-ecmp");
  EXPECT_EQ(lb.designs[1].name, "roce-400g-rail_optimized-1to1-ETH16-spray");
}

TEST(DesignSpace, Names) {
  EXPECT_EQ(OversubscriptionName(1), "1to1");
  EXPECT_EQ(OversubscriptionName(1.5), "1.5to1");
  EXPECT_STREQ(TopologyTypeName(TopologyType::kFatTree), "fat_tree");
}

}  // namespace
}  // namespace aifabric
