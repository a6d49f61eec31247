#include "plan/plan_run.h"

#include <atomic>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "core/text_file.h"
#include "plan/design_evaluation.h"
#include "plan/design_outcome_bytes.h"
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
  const size_t rank = options.processes ? static_cast<size_t>(options.processes->rank()) : 0;
  const size_t ranks = options.processes ? static_cast<size_t>(options.processes->size()) : 1;
  // This process's designs: rank, rank + ranks, ...
  const size_t mine = n > rank ? (n - rank + ranks - 1) / ranks : 0;
  DesignResults results(n);
  std::atomic<size_t> next{0};
  std::atomic<bool> failed{false};  // an input error: the same on every design, so stop
  std::mutex progress_mutex;
  auto work = [&] {
    for (size_t k = next++; k < mine && !failed; k = next++) {
      const size_t i = rank + k * ranks;
      results[i] = EvaluateDesign(r, sweep.designs[i], catalog);
      if (!results[i]->ok()) failed = true;
      if (options.progress && results[i]->ok()) {
        std::lock_guard<std::mutex> lock(progress_mutex);
        options.progress(i, n, **results[i]);
      }
    }
  };
  const int threads = std::max(1, std::min<int>(options.jobs, static_cast<int>(mine)));
  std::vector<std::thread> pool;
  for (int t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
  if (ranks > 1) {
    Result<std::vector<std::string>> shares = options.processes->AllGather(EncodeDesignResults(results));
    if (!shares) return shares.error();
    DesignResults all(n);
    for (const std::string& share : *shares) {
      if (Status s = DecodeDesignResults(share, sweep.designs, all); !s) return s.error();
    }
    results = std::move(all);
  }
  std::vector<DesignOutcome> outcomes;
  outcomes.reserve(n);
  // The first error in design order, so the message does not depend on threads.
  for (const std::optional<Result<DesignOutcome>>& res : results) {
    if (res && !res->ok()) return res->error();
  }
  for (size_t i = 0; i < n; ++i) {
    if (!results[i]) return Error{"design " + sweep.designs[i].name + " was evaluated by no process"};
    outcomes.push_back(std::move(*results[i]).value());
  }
  return RankDesigns(r, std::move(outcomes), std::move(sweep.rejected));
}

}  // namespace aifabric
