// `aifabric validate`: checks a scenario (it is prepared, so every input is
// read) and prints the cluster it describes; writes the topology as DOT or
// as an ibsim net file, and the switches' configuration (SONiC
// config_db.json or OpenSM's files, cabling.csv: plan/switch_config.h), on
// request. Warns (stderr) of a training plan that does not fit in GPU memory.
// Prints the run's estimated cost, and refuses (exit 2) a scenario `aifabric
// run` would refuse for it under the same --max-events and --max-memory.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "plan/switch_config.h"
#include "report/run_summary_text.h"
#include "report/topology_files.h"
#include "report/training_memory_text.h"
#include "run/fabric_setup.h"
#include "run/scenario_run.h"

namespace aifabric {

int ValidateCommand(const ValidateOptions& options) {
  // Preparing builds the topology and every flow, so all input is checked.
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::PrepareFile(options.scenario, options.overrides);
  if (!run.ok()) return ReportBadInput(run.error());
  Result<std::vector<std::string>> warnings = TrainingMemoryWarnings((*run)->scenario());
  if (!warnings.ok()) return ReportBadInput(Error{options.scenario + ": " + warnings.error().message});
  PrintWarnings(*warnings);
  PrintScenarioWarnings((*run)->warnings());
  Result<CostBounds> bounds = options.cost.Bounds();
  if (!bounds.ok()) return ReportBadInput(bounds.error());
  Result<RunCost> cost = EstimateRunCost((*run)->scenario(), *bounds);
  if (int code = options.cost.Check(cost, options.scenario); code != kExitOk) return code;
  if (!options.dot_file.empty()) {
    Status written = WriteTopologyDot((*run)->topology(), options.dot_file);
    if (!written.ok()) return ReportBadInput(Error{"--dot: " + written.error().message});
  }
  if (!options.ibsim_file.empty()) {
    Status written = WriteTopologyIbsim((*run)->topology(), options.ibsim_file);
    if (!written.ok()) return ReportBadInput(Error{"--ibsim: " + written.error().message});
  }
  if (!options.config_dir.empty()) {
    Result<BuiltFabric> fabric = BuildFabric((*run)->scenario());
    if (!fabric.ok()) return ReportBadInput(fabric.error());
    Status written = WriteSwitchConfig((*run)->scenario(), *fabric, options.config_dir);
    if (!written.ok()) return ReportBadInput(Error{"--config: " + written.error().message});
  }
  std::fputs(FormatValidation(**run).c_str(), stdout);
  if (cost.ok()) {
    std::printf("estimated cost: %s%s events at %s level, %s of memory at most\n",
                cost->upper_bound ? "at most " : "", FormatEstimate(cost->events).c_str(),
                ModelKindName(cost->model), FormatMemory(cost->memory_bytes).c_str());
  }
  if (!options.config_dir.empty()) {
    std::printf("switch configuration written to %s (docs/switch_config.md)\n", options.config_dir.c_str());
  }
  return kExitOk;
}

}  // namespace aifabric
