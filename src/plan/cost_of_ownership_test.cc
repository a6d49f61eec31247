#include "plan/cost_of_ownership.h"

#include <gtest/gtest.h>

namespace aifabric {
namespace {

// 1 kW of IT load at PUE 1.5 for 2 years at $0.10/kWh:
// 1 x 1.5 x 8,766 h x 2 x 0.10 = $2,629.80.
TEST(CostOfOwnership, EnergyClosedForm) {
  PlanCosts costs;
  costs.years = 2;
  costs.pue = 1.5;
  costs.energy_usd_per_kwh = 0.10;
  EXPECT_NEAR(EnergyUsd(1000, costs), 2629.8, 1e-9);
}

// A $100,000 network drawing 2 kW and 8 GPUs at $30,000 and 700 W, PUE 1.3,
// 5 years at $0.08: network energy 2 x 1.3 x 43,830 x 0.08 = $9,116.64;
// GPUs 5.6 kW -> $25,526.59; cluster 100,000 + 9,116.64 + 240,000 + 25,526.592.
TEST(CostOfOwnership, NetworkAndCluster) {
  BillOfMaterials bill;
  bill.lines.push_back({"switch", "s", "leaf", 2, 50000, 1000, false});
  GpuSpec gpu;
  gpu.cost.price_usd = 30000;
  gpu.cost.power_w = 700;
  PlanCosts costs;
  costs.years = 5;
  costs.pue = 1.3;
  costs.energy_usd_per_kwh = 0.08;
  const CostOfOwnership c = CostOf(bill, 8, gpu, costs);
  EXPECT_DOUBLE_EQ(c.network_capex_usd, 100000);
  EXPECT_DOUBLE_EQ(c.network_power_w, 2000);
  EXPECT_NEAR(c.network_energy_usd, 9116.64, 1e-6);
  EXPECT_NEAR(c.network_tco_usd, 109116.64, 1e-6);
  EXPECT_DOUBLE_EQ(c.gpu_capex_usd, 240000);
  EXPECT_NEAR(c.gpu_energy_usd, 25526.592, 1e-6);
  EXPECT_NEAR(c.cluster_tco_usd(), 100000 + 9116.64 + 240000 + 25526.592, 1e-6);
}

}  // namespace
}  // namespace aifabric
