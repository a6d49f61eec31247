#include "plan/bill_of_materials.h"

#include <gtest/gtest.h>

#include "fabric/topology_builder.h"
#include "plan/plan_test_catalog.h"

namespace aifabric {
namespace {

TopologySpec Spec(TopologyType type, const SwitchSpec& sw, int servers, int nics, DataRate nic_rate) {
  TopologySpec spec;
  spec.type = type;
  spec.switch_spec = sw;
  spec.servers = servers;
  spec.nics_per_server = nics;
  spec.nic_rate = nic_rate;
  return spec;
}

const BillLine* FindLine(const BillOfMaterials& bill, const std::string& category, const std::string& where) {
  for (const BillLine& l : bill.lines) {
    if (l.category == category && l.where == where) return &l;
  }
  return nullptr;
}

// The small case, worked by hand. 4 servers x 8 NICs = 32 hosts on 16-port
// 400G switches, 1:1: a leaf takes 8 hosts and 8 uplinks, so 4 leaves and
// 8 spines (one link from each leaf to each; a spine uses 4 of its ports).
// Links: 32 host links (3 m: the 400G DAC, $100) and 4 x 8 = 32 leaf-spine
// links (30 m: the AOC, $500, 5 W an end).
//   switches 12 x $8,000 = $96,000; 12 x 300 W = 3,600 W
//   NICs     32 x $1,000 = $32,000; 32 x 20 W  =   640 W
//   DAC      32 x $100   =  $3,200;               0 W
//   AOC      32 x $500   = $16,000; 32 x 10 W  =   320 W
//   total                 $147,200               4,560 W
TEST(BillOfMaterials, SmallLeafSpineByHand) {
  const Catalog catalog = plan_testing::TestCatalog();
  Result<Topology> t =
      BuildTopology(Spec(TopologyType::kLeafSpine, *catalog.FindSwitch("ETH16"), 4, 8, DataRate::Gbps(400)));
  ASSERT_TRUE(t.ok()) << t.error().message;
  Result<BillOfMaterials> bill = PriceFabric(*t, "NIC400", CableLengths{}, catalog);
  ASSERT_TRUE(bill.ok()) << bill.error().message;
  EXPECT_EQ(bill->tiers, 2);
  EXPECT_EQ(bill->switches, 12);
  EXPECT_EQ(bill->links, 64);
  ASSERT_NE(FindLine(*bill, "switch", "leaf"), nullptr);
  EXPECT_EQ(FindLine(*bill, "switch", "leaf")->count, 4);
  EXPECT_EQ(FindLine(*bill, "switch", "spine")->count, 8);
  EXPECT_EQ(FindLine(*bill, "nic", "host")->count, 32);
  ASSERT_NE(FindLine(*bill, "link", "host-leaf"), nullptr);
  EXPECT_EQ(FindLine(*bill, "link", "host-leaf")->part, "400-DAC");
  EXPECT_EQ(FindLine(*bill, "link", "host-leaf")->count, 32);
  EXPECT_EQ(FindLine(*bill, "link", "leaf-spine")->part, "400-AOC");
  EXPECT_EQ(FindLine(*bill, "link", "leaf-spine")->count, 32);
  EXPECT_DOUBLE_EQ(bill->cost_usd(), 147200);
  EXPECT_DOUBLE_EQ(bill->power_w(), 4560);
  EXPECT_FALSE(bill->any_price_assumed());

  // 50 m between leaves and spines is past the AOC's 30 m: DR4 optics, two
  // transceivers ($600 each) and the fibre ($100) = $1,300 a link, 20 W.
  CableLengths far;
  far.leaf_m = 50;
  bill = PriceFabric(*t, "NIC400", far, catalog);
  ASSERT_TRUE(bill.ok()) << bill.error().message;
  EXPECT_EQ(FindLine(*bill, "link", "leaf-spine")->part, "400-DR4");
  EXPECT_DOUBLE_EQ(bill->cost_usd(), 147200 - 16000 + 32 * 1300);
  EXPECT_DOUBLE_EQ(bill->power_w(), 4560 - 320 + 32 * 20);

  // Nothing reaches 1 km at 400G: the error names the rate, the length and the tier.
  far.leaf_m = 1000;
  bill = PriceFabric(*t, "NIC400", far, catalog);
  ASSERT_FALSE(bill.ok());
  EXPECT_NE(bill.error().message.find("400Gbps reaches 1000 m (the leaf-spine links"), std::string::npos)
      << bill.error().message;
}

// The large case: 16,384 hosts (2,048 servers x 8) on the built-in
// 128x400G switch as a 3-tier fat-tree, 1:1. By hand: 64 hosts + 64 uplinks
// per leaf -> 256 leaves; 64 aggs per pod, 64 leaves per pod -> 4 pods,
// 256 aggs; each agg's 64 uplinks x 4 pods = 256 links per core group ->
// 2 cores of 128 ports per group, 64 groups -> 128 cores. 640 switches.
// Links: 16,384 host + 256 leaves x 64 + 256 aggs x 64 = 49,152. The sum is
// the counts times the catalog's unit prices.
TEST(BillOfMaterials, LargeFatTreeCounts) {
  const Catalog& catalog = Catalog::BuiltIn();
  const SwitchSpec* sw = catalog.FindSwitch("128x400G");
  ASSERT_NE(sw, nullptr);
  Result<Topology> t = BuildTopology(Spec(TopologyType::kFatTree, *sw, 2048, 8, DataRate::Gbps(400)));
  ASSERT_TRUE(t.ok()) << t.error().message;
  Result<BillOfMaterials> bill = PriceFabric(*t, "CX7-400G", CableLengths{}, catalog);
  ASSERT_TRUE(bill.ok()) << bill.error().message;
  EXPECT_EQ(bill->tiers, 3);
  EXPECT_EQ(FindLine(*bill, "switch", "leaf")->count, 256);
  EXPECT_EQ(FindLine(*bill, "switch", "agg")->count, 256);
  EXPECT_EQ(FindLine(*bill, "switch", "core")->count, 128);
  EXPECT_EQ(bill->switches, 640);
  EXPECT_EQ(FindLine(*bill, "link", "host-leaf")->count, 16384);
  EXPECT_EQ(FindLine(*bill, "link", "leaf-agg")->count, 16384);
  EXPECT_EQ(FindLine(*bill, "link", "agg-core")->count, 16384);
  EXPECT_EQ(bill->links, 49152);
  const NicSpec* nic = catalog.FindNic("CX7-400G");
  double expected = 640 * sw->cost.price_usd + 16384 * nic->cost.price_usd;
  for (const char* where : {"host-leaf", "leaf-agg", "agg-core"}) {
    const BillLine* l = FindLine(*bill, "link", where);
    expected += 16384 * catalog.FindMedia(l->part)->cost.price_usd;
  }
  EXPECT_DOUBLE_EQ(bill->cost_usd(), expected);
}

// Dual-ToR counts a cable per NIC port and a NIC per NIC. 4 servers x 4
// NICs of 800G on 16-port 400G switches, each NIC as 2 x 400G to a ToR
// pair: a ToR takes 8 hosts (8 + ceil(8 * 400 / 400) = 16 ports), so 16
// hosts need 2 pairs = 4 leaves, each with 8 uplinks -> 8 spines.
// Links: 16 NICs x 2 = 32 host links (400-DAC, $100) + 4 x 8 = 32
// leaf-spine links (400-AOC, $500, 5 W an end).
//   switches 12 x $8,000 = $96,000; 12 x 300 W = 3,600 W
//   NICs     16 x $2,000 = $32,000; 16 x 30 W  =   480 W
//   DAC      32 x $100   =  $3,200
//   AOC      32 x $500   = $16,000; 32 x 10 W  =   320 W
//   total                 $147,200               4,400 W
TEST(BillOfMaterials, DualTorCountsBothPortsOfEveryNic) {
  const Catalog catalog = plan_testing::TestCatalog();
  TopologySpec spec = Spec(TopologyType::kLeafSpine, *catalog.FindSwitch("ETH16"), 4, 4, DataRate::Gbps(800));
  spec.dual_tor = true;
  Result<Topology> t = BuildTopology(spec);
  ASSERT_TRUE(t.ok()) << t.error().message;
  Result<BillOfMaterials> bill = PriceFabric(*t, "NIC800", CableLengths{}, catalog);
  ASSERT_TRUE(bill.ok()) << bill.error().message;
  EXPECT_EQ(bill->switches, 12);
  EXPECT_EQ(bill->links, 64);
  EXPECT_EQ(FindLine(*bill, "switch", "leaf")->count, 4);
  EXPECT_EQ(FindLine(*bill, "nic", "host")->count, 16);
  ASSERT_NE(FindLine(*bill, "link", "host-leaf"), nullptr);
  EXPECT_EQ(FindLine(*bill, "link", "host-leaf")->part, "400-DAC");
  EXPECT_EQ(FindLine(*bill, "link", "host-leaf")->count, 32);
  EXPECT_EQ(FindLine(*bill, "link", "leaf-spine")->count, 32);
  EXPECT_DOUBLE_EQ(bill->cost_usd(), 147200);
  EXPECT_DOUBLE_EQ(bill->power_w(), 4400);
}

}  // namespace
}  // namespace aifabric
