#include "plan/plan_run.h"

#include <algorithm>
#include <map>
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
  // Designs that simulate alike (SimulationKey) are simulated once: the
  // first of each key, then the others priced with its figures.
  std::vector<size_t> firsts, twins, twin_of(n);
  std::map<std::string, size_t> first_of_key;
  for (size_t i = 0; i < n; ++i) {
    const Design& d = sweep.designs[i];
    const SwitchSpec* sw = catalog.FindSwitch(d.switch_name);
    const NicSpec* nic = catalog.FindNic(d.nic_name);
    const std::string key = sw && nic ? SimulationKey(r, d, *sw, SizeTwoTier(r, d, *sw, nic->rate)) : d.name;
    twin_of[i] = first_of_key.emplace(key, i).first->second;
    (twin_of[i] == i ? firsts : twins).push_back(i);
  }
  std::mutex progress_mutex;
  std::vector<DesignOutcome> outcomes(n);
  auto evaluate = [&](const std::vector<size_t>& items, bool as_twins) -> Status {
    Result<std::vector<std::string>> evaluated =
        ShareWork(items.size(), options.jobs, options.processes, [&](size_t k) -> Result<std::string> {
          if (options.cancel != nullptr && options.cancel->load()) return Error{"cancelled"};
          const size_t i = items[k];
          const DesignOutcome* twin = as_twins ? &outcomes[twin_of[i]] : nullptr;
          if (twin && !twin->rejected.empty()) twin = nullptr;  // its own build may say why
          Result<DesignOutcome> outcome = EvaluateDesign(r, sweep.designs[i], catalog, twin);
          if (!outcome) return outcome.error();
          if (options.progress) {
            std::lock_guard<std::mutex> lock(progress_mutex);
            options.progress(i, n, *outcome);
          }
          return EncodeDesignOutcome(*outcome);
        });
    if (!evaluated) return evaluated.error();
    for (size_t k = 0; k < items.size(); ++k) {
      Result<DesignOutcome> outcome = DecodeDesignOutcome((*evaluated)[k], sweep.designs[items[k]]);
      if (!outcome) return outcome.error();
      outcomes[items[k]] = std::move(outcome).value();
    }
    return Status::Ok();
  };
  if (Status s = evaluate(firsts, false); !s) return s.error();
  if (Status s = evaluate(twins, true); !s) return s.error();
  RankedPlan plan = RankDesigns(r, std::move(outcomes), std::move(sweep.rejected));
  // The best few, again at packet level on a scaled copy: their error bars.
  const size_t checks = std::min(plan.designs.size(), static_cast<size_t>(r.packet_check.designs));
  Result<std::vector<std::string>> checked =
      ShareWork(checks, options.jobs, options.processes, [&](size_t i) -> Result<std::string> {
        if (options.cancel != nullptr && options.cancel->load()) return Error{"cancelled"};
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
