#include "plan/plan_run.h"

#include <algorithm>
#include <mutex>
#include <vector>

#include "core/text_file.h"
#include "plan/design_evaluation.h"
#include "plan/design_outcome_bytes.h"
#include "plan/packet_check.h"
#include "plan/shared_work.h"
#include "plan/design_scenario.h"
#include "plan/design_sizing.h"
#include "scenario/scenario_loader.h"
#include "plan/design_space.h"

namespace aifabric {

Result<Catalog> PlanCatalog(const PlanRequirements& r) {
  if (r.costs.prices_file.empty()) return Catalog::BuiltIn();
  Result<std::string> text = ReadTextFile(r.costs.prices_file);
  if (!text) return Error{"costs.prices: " + text.error().message};
  return Catalog::BuiltIn().WithOverrides(*text, r.costs.prices_file);
}

Result<DesignSweep> CheckDesigns(const PlanRequirements& r, const Catalog& catalog) {
  DesignSweep sweep = EnumerateDesigns(r, catalog);
  for (const Design& d : sweep.designs) {
    const SwitchSpec* sw = catalog.FindSwitch(d.switch_name);
    const NicSpec* nic = catalog.FindNic(d.nic_name);
    const std::string yaml = DesignScenarioYaml(r, d, SizeTwoTier(r, d, *sw, nic->rate));
    Result<Scenario> s = LoadScenarioText(yaml, r.name + "/designs/" + d.name + ".yaml", r.base_dir, {}, catalog);
    if (!s) return Error{"design " + d.name + ": " + s.error().message};
    if (&d == &sweep.designs.front()) {
      if (Status fits = CheckTrainingMemory(r, *s); !fits) return fits.error();
    }
  }
  return sweep;
}

Result<RankedPlan> RunPlan(const PlanRequirements& r, const Catalog& catalog, const PlanRunOptions& options) {
  DesignSweep sweep = EnumerateDesigns(r, catalog);
  const size_t n = sweep.designs.size();
  std::mutex progress_mutex;
  Result<std::vector<std::string>> evaluated =
      ShareWork(n, options.jobs, options.processes, [&](size_t i) -> Result<std::string> {
        Result<DesignOutcome> outcome = EvaluateDesign(r, sweep.designs[i], catalog);
        if (!outcome) return outcome.error();
        if (options.progress) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          options.progress(i, n, *outcome);
        }
        return EncodeDesignOutcome(*outcome);
      });
  if (!evaluated) return evaluated.error();
  std::vector<DesignOutcome> outcomes;
  outcomes.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    Result<DesignOutcome> outcome = DecodeDesignOutcome((*evaluated)[i], sweep.designs[i]);
    if (!outcome) return outcome.error();
    outcomes.push_back(std::move(outcome).value());
  }
  RankedPlan plan = RankDesigns(r, std::move(outcomes), std::move(sweep.rejected));
  // The best few, again at packet level on a scaled copy: their error bars.
  const size_t checks = std::min(plan.designs.size(), static_cast<size_t>(r.packet_check.designs));
  Result<std::vector<std::string>> checked =
      ShareWork(checks, options.jobs, options.processes, [&](size_t i) -> Result<std::string> {
        Result<PacketCheck> check = CheckOnPackets(r, plan.designs[i].outcome, catalog);
        if (!check) return check.error();
        if (options.checked) {
          std::lock_guard<std::mutex> lock(progress_mutex);
          options.checked(i, checks, plan.designs[i].outcome.design, *check);
        }
        return EncodePacketCheck(*check);
      });
  if (!checked) return checked.error();
  for (size_t i = 0; i < checks; ++i) {
    Result<PacketCheck> check = DecodePacketCheck((*checked)[i]);
    if (!check) return check.error();
    plan.designs[i].packet_check = std::move(check).value();
  }
  return plan;
}

}  // namespace aifabric
