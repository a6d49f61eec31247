// Designs that differ only in what prices them simulate once
// (SimulationKey): the twin's figures are the ones its own simulation
// gives, and only its price is its own.
#include <gtest/gtest.h>

#include <string>

#include "plan/design_evaluation.h"
#include "plan/design_scenario.h"
#include "plan/design_sizing.h"
#include "plan/design_space.h"
#include "plan/plan_requirements.h"
#include "plan/plan_test_util.h"

namespace aifabric {
namespace {

using plan_testing::ReadRequirements;

const Design* FindDesign(const DesignSweep& sweep, const std::string& switch_name) {
  for (const Design& d : sweep.designs) {
    if (d.switch_name == switch_name) return &d;
  }
  return nullptr;
}

std::string Key(const PlanRequirements& r, const Design& d, const Catalog& catalog) {
  const SwitchSpec* sw = catalog.FindSwitch(d.switch_name);
  const NicSpec* nic = catalog.FindNic(d.nic_name);
  return SimulationKey(r, d, *sw, SizeTwoTier(r, d, *sw, nic->rate));
}

TEST(DesignTwins, SwitchesThatDifferOnlyInPriceShareTheirSimulation) {
  // QM9700 and QM9790 are one ASIC with the same figures in the catalog
  // (the QM9790 has no on-board subnet manager) and different prices.
  const PlanRequirements r = ReadRequirements(R"(
name: twins
cluster: {gpus: 32, gpu: H100}
workloads:
  - training: {model: llama3-8b, tp: 8, global_batch: 16}
design_space:
  fabric_kind: [ib]
  link_gbps: [400]
  topology: [rail_optimized]
  oversubscription: [1]
)");
  const Catalog& catalog = Catalog::BuiltIn();
  const DesignSweep sweep = EnumerateDesigns(r, catalog);
  const Design* managed = FindDesign(sweep, "QM9700");
  const Design* unmanaged = FindDesign(sweep, "QM9790");
  ASSERT_NE(managed, nullptr);
  ASSERT_NE(unmanaged, nullptr);
  EXPECT_EQ(Key(r, *managed, catalog), Key(r, *unmanaged, catalog));

  Result<DesignOutcome> first = EvaluateDesign(r, *managed, catalog);
  Result<DesignOutcome> alone = EvaluateDesign(r, *unmanaged, catalog);
  ASSERT_TRUE(first.ok() && alone.ok());
  Result<DesignOutcome> twin = EvaluateDesign(r, *unmanaged, catalog, &*first);
  ASSERT_TRUE(twin.ok());
  // The twin's figures are what simulating it gives...
  ASSERT_EQ(twin->workloads.size(), alone->workloads.size());
  EXPECT_EQ(twin->workloads[0].step_time_s, alone->workloads[0].step_time_s);
  EXPECT_EQ(twin->effective_gpu_utilization, alone->effective_gpu_utilization);
  EXPECT_EQ(twin->useful_gpu_hours_per_usd, alone->useful_gpu_hours_per_usd);
  // ...and its price its own: the switches' list prices differ.
  EXPECT_EQ(twin->cost.network_capex_usd, alone->cost.network_capex_usd);
  EXPECT_LT(twin->cost.network_capex_usd, first->cost.network_capex_usd);
}

TEST(DesignTwins, TheBufferIsNotPartOfAFlowLevelSimulation) {
  // 64x800G (160 MB) and Arista-7060X6-64PE (165,660,324 B): same radix,
  // rate, latency and capacity, different buffers, which the flow level
  // (no queues) does not read: one key, and the twin's figures are the ones
  // simulating it gives. A different latency is another key.
  const PlanRequirements r = ReadRequirements(R"(
name: buffers
cluster: {gpus: 64, gpu: H100}
workloads:
  - training: {model: llama3-8b, tp: 8, global_batch: 16}
design_space:
  fabric_kind: [roce]
  link_gbps: [800]
  topology: [rail_optimized]
  oversubscription: [1]
)");
  const Catalog& catalog = Catalog::BuiltIn();
  const DesignSweep sweep = EnumerateDesigns(r, catalog);
  const Design* spectrum = FindDesign(sweep, "64x800G");
  const Design* arista = FindDesign(sweep, "Arista-7060X6-64PE");
  ASSERT_NE(spectrum, nullptr);
  ASSERT_NE(arista, nullptr);
  EXPECT_EQ(Key(r, *spectrum, catalog), Key(r, *arista, catalog));
  Result<DesignOutcome> first = EvaluateDesign(r, *spectrum, catalog);
  Result<DesignOutcome> alone = EvaluateDesign(r, *arista, catalog);
  ASSERT_TRUE(first.ok() && alone.ok());
  Result<DesignOutcome> twin = EvaluateDesign(r, *arista, catalog, &*first);
  ASSERT_TRUE(twin.ok());
  EXPECT_EQ(twin->workloads[0].step_time_s, alone->workloads[0].step_time_s);
  EXPECT_EQ(twin->useful_gpu_hours_per_usd, alone->useful_gpu_hours_per_usd);

  SwitchSpec slower = *catalog.FindSwitch("Arista-7060X6-64PE");
  slower.latency = slower.latency + Time::FromNs(100);
  const NicSpec* nic = catalog.FindNic(arista->nic_name);
  EXPECT_NE(SimulationKey(r, *arista, slower, SizeTwoTier(r, *arista, slower, nic->rate)), Key(r, *arista, catalog));
}

}  // namespace
}  // namespace aifabric
