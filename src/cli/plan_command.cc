// `aifabric plan`: reads a requirements file, evaluates every design of its
// design space (plan/plan_run.h), writes plan.json, plan.csv and the
// designs' scenarios, and prints the recommendation and the ranked table.
// Under `mpirun -np N` every process reads the inputs and evaluates its
// share of the designs (plan/plan_processes.h); the processes agree on the
// first input error so that all stop together, and only rank 0 reports,
// writes and prints.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "plan/chosen_design_config.h"
#include "plan/existing_cluster.h"
#include "plan/existing_outputs.h"
#include "plan/plan_outputs.h"
#include "plan/plan_processes.h"
#include "plan/plan_run.h"
#include "report/output_folder.h"

namespace aifabric {

namespace {

// What each process of a plan does with an error: rank 0 reports it; the
// others only stop (with the same exit code), so it is printed once.
int Fail(const PlanProcesses& processes, const Error& error) {
  return processes.root() ? ReportBadInput(error) : kExitBadInput;
}

// Every process's input status, agreed: the first error by rank, or none.
// Each process reads its inputs itself (on many machines, from its own
// disk), so one may fail where the others do not.
Status Agree(const PlanProcesses& processes, const Status& mine) {
  if (processes.size() == 1) return mine;
  Result<std::vector<std::string>> all = processes.AllGather(mine ? std::string() : mine.error().message);
  if (!all) return all.error();
  for (size_t rank = 0; rank < all->size(); ++rank) {
    if ((*all)[rank].empty()) continue;
    return Error{rank == 0 ? (*all)[rank] : "process " + std::to_string(rank) + " of mpirun: " + (*all)[rank]};
  }
  return Status{};
}

struct ExistingInputs {
  ExistingCluster cluster;
  FutureModels models;
  std::string existing_text;
  Catalog catalog;
};

Result<ExistingInputs> ReadExistingInputs(const PlanCommandOptions& options) {
  if (options.models.empty()) return Error{"--existing needs --models FILE (the future models)"};
  Result<ExistingCluster> cluster = ExistingClusterOf(options.existing);
  if (!cluster) return cluster.error();
  Result<FutureModels> models = ReadFutureModelsFile(options.models, *cluster);
  if (!models) return models.error();
  Result<std::string> existing_text = ReadInputFile(options.existing, "scenario file");
  if (!existing_text) return existing_text.error();
  Result<Catalog> catalog = PlanCatalog(models->requirements);
  if (!catalog) return catalog.error();
  return ExistingInputs{std::move(*cluster), std::move(*models), std::move(*existing_text), std::move(*catalog)};
}

int ExistingCommand(const PlanCommandOptions& options, const PlanProcesses& processes) {
  Result<ExistingInputs> in = ReadExistingInputs(options);
  if (Status agreed = Agree(processes, in ? Status{} : Status{in.error()}); !agreed) {
    return Fail(processes, agreed.error());
  }
  PlanRunOptions run;
  run.jobs = options.jobs;
  run.processes = &processes;
  Result<ExistingPlan> plan = PlanExisting(options.existing, in->existing_text, in->models, in->catalog, run);
  if (!plan) return Fail(processes, plan.error());
  if (!processes.root()) return kExitOk;
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
  Result<std::unique_ptr<PlanProcesses>> started = PlanProcesses::Start();
  if (!started) return ReportBadInput(started.error());
  const PlanProcesses& processes = **started;
  if (!options.existing.empty()) return ExistingCommand(options, processes);
  if (options.requirements.empty()) {
    return Fail(processes, Error{"plan: give a requirements file, or --existing SCENARIO --models FILE"});
  }
  Result<PlanRequirements> requirements = ReadPlanRequirementsFile(options.requirements);
  if (requirements && options.packet_check >= 0) requirements->packet_check.designs = options.packet_check;
  Result<Catalog> catalog = requirements ? PlanCatalog(*requirements) : Result<Catalog>(requirements.error());
  if (Status agreed = Agree(processes, catalog ? Status{} : Status{catalog.error()}); !agreed) {
    return Fail(processes, agreed.error());
  }
  if (options.dry_run) {
    if (!processes.root()) return kExitOk;
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
  run.processes = &processes;
  if (!options.quiet) {
    run.progress = [](size_t index, size_t count, const DesignOutcome& o) {
      std::fprintf(stderr, "aifabric: design %zu/%zu %s: %s (%.1f s)\n", index + 1, count, o.design.name.c_str(),
                   o.rejected.empty() ? "done" : "rejected", o.wall_s);
    };
    run.checked = [](size_t index, size_t count, const Design& d, const PacketCheck& c) {
      std::fprintf(stderr, "aifabric: packet check %zu/%zu %s: flow within %.1f%% of packet on %d GPUs (%.1f s)\n",
                   index + 1, count, d.name.c_str(), 100 * c.error_bar, c.gpus, c.wall_s);
    };
  }
  Result<RankedPlan> plan = RunPlan(*requirements, *catalog, run);
  if (!plan) return Fail(processes, plan.error());
  if (!processes.root()) return kExitOk;
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
