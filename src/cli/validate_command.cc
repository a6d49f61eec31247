// `aifabric validate`: checks a scenario (it is prepared, so every input is
// read) and prints the cluster it describes; writes the topology as DOT or
// as an ibsim net file on request. Warns (stderr) of a training plan that
// does not fit in GPU memory.
#include <cstdio>
#include <string>

#include "cli/commands.h"
#include "report/run_summary_text.h"
#include "report/topology_files.h"
#include "report/training_memory_text.h"
#include "run/scenario_run.h"

namespace aifabric {

int ValidateCommand(const ValidateOptions& options) {
  // Preparing builds the topology and every flow, so all input is checked.
  Result<std::unique_ptr<ScenarioRun>> run = ScenarioRun::PrepareFile(options.scenario, options.overrides);
  if (!run.ok()) return ReportBadInput(run.error());
  Result<std::vector<std::string>> warnings = TrainingMemoryWarnings((*run)->scenario());
  if (!warnings.ok()) return ReportBadInput(Error{options.scenario + ": " + warnings.error().message});
  PrintWarnings(*warnings);
  if (!options.dot_file.empty()) {
    Status written = WriteTopologyDot((*run)->topology(), options.dot_file);
    if (!written.ok()) return ReportBadInput(Error{"--dot: " + written.error().message});
  }
  if (!options.ibsim_file.empty()) {
    Status written = WriteTopologyIbsim((*run)->topology(), options.ibsim_file);
    if (!written.ok()) return ReportBadInput(Error{"--ibsim: " + written.error().message});
  }
  std::fputs(FormatValidation(**run).c_str(), stdout);
  return kExitOk;
}

}  // namespace aifabric
