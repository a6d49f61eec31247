#include "plan/plan_run.h"

#include <atomic>
#include <exception>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/text_file.h"
#include "plan/design_evaluation.h"
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
  std::vector<std::optional<Result<DesignOutcome>>> results(n);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};  // an input error: the same on every design, so stop
  std::mutex progress_mutex;
  // An internal error (an exception: a model invariant broken) on a worker
  // thread is rethrown on this one, after the join, for the CLI to report.
  std::exception_ptr internal;
  auto work = [&] {
    for (size_t i = next++; i < n && !failed; i = next++) {
      try {
        results[i] = EvaluateDesign(r, sweep.designs[i], catalog);
      } catch (...) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        if (!internal) internal = std::current_exception();
        failed = true;
        return;
      }
      if (!results[i]->ok()) failed = true;
      if (options.progress && results[i]->ok()) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        options.progress(i, n, **results[i]);
      }
    }
  };
  const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(n)));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (internal) std::rethrow_exception(internal);
  std::vector<DesignOutcome> outcomes;
  outcomes.reserve(n);
  // The first error in design order, so the message does not depend on threads.
  for (const std::optional<Result<DesignOutcome>>& res : results) {
    if (res && !res->ok()) return res->error();
  }
  for (std::optional<Result<DesignOutcome>>& res : results) {
    outcomes.push_back(std::move(*res).value());
  }
  return RankDesigns(r, std::move(outcomes), std::move(sweep.rejected));
}

}  // namespace aifabric
