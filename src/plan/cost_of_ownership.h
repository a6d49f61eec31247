// What a design costs over its life: the network's capital cost (the bill
// of materials) and the energy its switches, NICs and optics draw at the
// facility (power x PUE) over the plan's years; and the cluster's cost, the
// same for the GPUs, which the useful GPU-hours are divided by. Pure
// functions; thread-safe.
#pragma once

#include "plan/bill_of_materials.h"
#include "plan/plan_requirements.h"

namespace aifabric {

inline constexpr double kHoursPerYear = 8766;  // 365.25 days

struct CostOfOwnership {
  double network_capex_usd = 0;  // the bill of materials
  double network_power_w = 0;    // IT power of the network
  double network_energy_usd = 0; // network_power_w / 1000 x pue x hours x years x energy price
  double network_tco_usd = 0;    // capex + energy
  double gpu_capex_usd = 0;      // GPUs x catalog price (0 when the catalog has none)
  double gpu_energy_usd = 0;     // GPUs x catalog power, as the network's
  double cluster_tco_usd() const { return network_tco_usd + gpu_capex_usd + gpu_energy_usd; }
};

// Energy cost of `power_w` of IT load over the plan's years.
double EnergyUsd(double power_w, const PlanCosts& costs);

CostOfOwnership CostOf(const BillOfMaterials& bill, int gpus, const GpuSpec& gpu, const PlanCosts& costs);

}  // namespace aifabric
