#include "plan/chosen_design_config.h"

#include "plan/bill_of_materials.h"
#include "plan/cabling_plan.h"
#include "plan/switch_config.h"
#include "run/fabric_setup.h"
#include "scenario/scenario_loader.h"

namespace aifabric {

Status WriteChosenDesignConfig(const PlanRequirements& r, const RankedPlan& plan, const Catalog& catalog,
                               const std::string& dir) {
  if (plan.designs.empty()) return Error{"--config: the plan has no design to configure"};
  const DesignOutcome& chosen = plan.designs.front().outcome;
  const std::string origin = r.name + "/designs/" + chosen.design.name + ".yaml";
  Result<Scenario> scenario = LoadScenarioText(chosen.scenario_yaml, origin, r.base_dir, {}, catalog);
  if (!scenario) return scenario.error();
  Result<BuiltFabric> fabric = BuildFabric(*scenario);
  if (!fabric) return fabric.error();
  SwitchConfigOptions options;
  const CableLengths cable = r.costs.cable;
  options.cable_length = [cable](int, int upper, Time) { return TierCableLengthM(upper, cable); };
  options.cable_type = [&catalog](DataRate rate, double length_m) {
    const LinkMediaSpec* media = catalog.CheapestMedia(rate, length_m);
    return media ? media->name : DefaultCableType(rate, length_m);
  };
  return WriteSwitchConfig(*scenario, *fabric, dir, options);
}

}  // namespace aifabric
