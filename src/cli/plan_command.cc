// `aifabric plan`: reads a requirements file, evaluates every design of its
// design space (plan/plan_run.h), writes plan.json, plan.csv and the
// designs' scenarios, and prints the recommendation and the ranked table.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "plan/chosen_design_config.h"
#include "plan/existing_cluster.h"
#include "plan/existing_outputs.h"
#include "plan/plan_outputs.h"
#include "plan/plan_run.h"
#include "report/output_folder.h"

namespace aifabric {

namespace {

int ExistingCommand(const PlanCommandOptions& options) {
  if (options.models.empty()) return ReportBadInput(Error{"--existing needs --models FILE (the future models)"});
  Result<ExistingCluster> cluster = ExistingClusterOf(options.existing);
  if (!cluster) return ReportBadInput(cluster.error());
  Result<FutureModels> models = ReadFutureModelsFile(options.models, *cluster);
  if (!models) return ReportBadInput(models.error());
  Result<std::string> existing_text = ReadInputFile(options.existing, "scenario file");
  if (!existing_text) return ReportBadInput(existing_text.error());
  Result<Catalog> catalog = PlanCatalog(models->requirements);
  if (!catalog) return ReportBadInput(catalog.error());
  PlanRunOptions run;
  run.jobs = options.jobs;
  Result<ExistingPlan> plan = PlanExisting(options.existing, *existing_text, *models, *catalog, run);
  if (!plan) return ReportBadInput(plan.error());
  OutputFolder out(options.out_dir.empty() ? "out/" + plan->existing + "-existing" : options.out_dir);
  if (Status s = WriteExistingPlanFiles(*plan, out); !s) return ReportBadInput(s.error());
  if (Status s = out.Commit(); !s) return ReportBadInput(s.error());
  if (options.quiet) return kExitOk;
  std::fputs(ExistingPlanText(*plan).c_str(), stdout);
  std::printf("\n  outputs     %s/ (plan.json)\n", out.dir().c_str());
  return kExitOk;
}

}  // namespace

int PlanCommand(const PlanCommandOptions& options) {
  if (!options.existing.empty()) return ExistingCommand(options);
  if (options.requirements.empty()) {
    return ReportBadInput(Error{"plan: give a requirements file, or --existing SCENARIO --models FILE"});
  }
  Result<PlanRequirements> requirements = ReadPlanRequirementsFile(options.requirements);
  if (!requirements) return ReportBadInput(requirements.error());
  Result<Catalog> catalog = PlanCatalog(*requirements);
  if (!catalog) return ReportBadInput(catalog.error());
  if (options.dry_run) {
    Result<DesignSweep> sweep = CheckDesigns(*requirements, *catalog);
    if (!sweep) return ReportBadInput(sweep.error());
    std::printf("plan %s: %zu designs to evaluate, %zu rejected\n", requirements->name.c_str(),
                sweep->designs.size(), sweep->rejected.size());
    for (const Design& d : sweep->designs) std::printf("  %s\n", d.name.c_str());
    for (const RejectedDesign& d : sweep->rejected) std::printf("  rejected %s: %s\n", d.name.c_str(), d.reason.c_str());
    return kExitOk;
  }
  PlanRunOptions run;
  run.jobs = options.jobs;
  if (!options.quiet) {
    run.progress = [](size_t index, size_t count, const DesignOutcome& o) {
      std::fprintf(stderr, "aifabric: design %zu/%zu %s: %s (%.1f s)\n", index + 1, count, o.design.name.c_str(),
                   o.rejected.empty() ? "done" : "rejected", o.wall_s);
    };
  }
  Result<RankedPlan> plan = RunPlan(*requirements, *catalog, run);
  if (!plan) return ReportBadInput(plan.error());
  OutputFolder out(options.out_dir.empty() ? "out/" + requirements->name + "-plan" : options.out_dir);
  if (Status s = WritePlanFiles(*requirements, *plan, out); !s) return ReportBadInput(s.error());
  if (Status s = out.Commit(); !s) return ReportBadInput(s.error());
  if (!options.config_dir.empty()) {
    Status s = WriteChosenDesignConfig(*requirements, *plan, *catalog, options.config_dir);
    if (!s) return ReportBadInput(Error{"--config: " + s.error().message});
  }
  if (options.quiet) return kExitOk;
  std::fputs(PlanText(*requirements, *plan, options.rows).c_str(), stdout);
  std::printf("\n  outputs     %s/ (plan.json, plan.csv, plan.html, designs/)\n", out.dir().c_str());
  if (!options.config_dir.empty()) {
    std::printf("  config      %s/ (switch configuration of %s; docs/switch_config.md)\n", options.config_dir.c_str(),
                plan->designs.front().outcome.design.name.c_str());
  }
  return kExitOk;
}

}  // namespace aifabric
