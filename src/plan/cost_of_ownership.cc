#include "plan/cost_of_ownership.h"

namespace aifabric {

double EnergyUsd(double power_w, const PlanCosts& costs) {
  return power_w / 1000.0 * costs.pue * kHoursPerYear * costs.years * costs.energy_usd_per_kwh;
}

CostOfOwnership CostOf(const BillOfMaterials& bill, int gpus, const GpuSpec& gpu, const PlanCosts& costs) {
  CostOfOwnership c;
  c.network_capex_usd = bill.cost_usd();
  c.network_power_w = bill.power_w();
  c.network_energy_usd = EnergyUsd(c.network_power_w, costs);
  c.network_tco_usd = c.network_capex_usd + c.network_energy_usd;
  c.gpu_capex_usd = gpus * gpu.cost.price_usd;
  c.gpu_energy_usd = EnergyUsd(gpus * gpu.cost.power_w, costs);
  return c;
}

}  // namespace aifabric
